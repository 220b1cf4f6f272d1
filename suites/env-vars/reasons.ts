import type { GroupReason } from "../../core/model/reasons.js";

/** What the env-vars checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const envVarsReasons = {
  "refused-not-listed": { title: "A variable refused for its name is not listed", expected: "no such variable" },
  "concurrent-kept": { title: "Of the PUTs sent at once and answered 2xx, each variable reads the value its PUT set", expected: "every write kept" },
  "listed-once": { title: "…, just set, is listed once over the walk", expected: "the value the rule names" },
  masking: { title: "… holds no marker: its value is not masked", expected: "an item named …" },
  "plain-value": { title: "… reads the value set", expected: "the value the rule names" },
  "put-answer-masking": {
    title: "In the PUT env-vars answer, each variable reads [ENCRYPTED] exactly when its name holds a marker",
    expected: "secret-named values masked, others not",
  },
  restored: { title: "The run's variables are set back", expected: "the value the rule names" },
  "value-replaced": { title: "After a PUT env-vars setting a variable, the variable reads the value last set", expected: "the value the PUT set" },
  "values-kept": { title: "The run's variables keep their values", expected: "the value the rule names" },
} as const satisfies Record<string, GroupReason>;

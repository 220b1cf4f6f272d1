import type { GroupReason } from "../../core/model/reasons.js";

/** What the deployment-update checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const deploymentUpdateReasons = {
  "current-version": { title: "The deployment reads as running the version set", expected: "the version set, as E5 lists it" },
  "image-ignored": { title: "The image sent does not appear in the settings", expected: "the image resolved from the version" },
  "merged-key-by-key": { title: "TemplateVariables hold every other key unchanged, and … with the value sent", expected: "the value the rule names" },
  "read-back": { title: "The settings read what the last update sent", expected: "the value sent" },
  "settings-unchanged": { title: "The E6 fields of the settings are as they were", expected: "the value the rule names" },
} as const satisfies Record<string, GroupReason>;

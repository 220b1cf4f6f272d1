import type { GroupReason } from "../../core/model/reasons.js";

/** What the app-config checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const appConfigReasons = {
  "named-fields": {
    title: "The app configuration holds every field E14 names",
    expected: "appTheme, applyThemeGlobally, creatorMode, embedding, sheetsUi, timezoneSettings",
  },
} as const satisfies Record<string, GroupReason>;

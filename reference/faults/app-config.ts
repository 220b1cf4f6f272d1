import type { Fault } from "../http.js";

/** The faults of the group app-config (suites/app-config/): each makes a check of it fail, for the reason its `because` names. */
export const appConfigFaults: Fault[] = [
  {
    name: "app-config-embedding-admins-only",
    breaks: "E14 (GET /api/v1/app-config: appTheme, applyThemeGlobally, creatorMode, embedding, sheetsUi, timezoneSettings)",
    description: "the app configuration leaves embedding out for every caller who is not an administrator",
    because: { "app-config.read.named-fields": "named-fields" },
    operations: ["getAppConfig"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200 || app.b.administersUsers(req.user)) return body;
      const { embedding: _adminsOnly, ...rest } = body;
      return rest;
    },
  },
];

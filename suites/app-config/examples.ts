import { group } from "../../core/check/check.js";
import { recordIn } from "../../core/ledger/records.js";
import { NotExercised } from "../../core/model/outcome.js";

/** The fields E14's table names for the app configuration. */
const NAMED_FIELDS = ["appTheme", "applyThemeGlobally", "creatorMode", "embedding", "sheetsUi", "timezoneSettings"] as const;

export const appConfigChecks = group("app-config", [
  {
    id: "app-config.read.named-fields",
    spec: "E14 (GET /api/v1/app-config: appTheme, applyThemeGlobally, creatorMode, embedding, sheetsUi, timezoneSettings)",
    level: "MUST",
    title:
      "The app configuration holds each field E14 names (appTheme, applyThemeGlobally, creatorMode, embedding, sheetsUi, timezoneSettings), for every caller it answers",
    needs: [],
    async run(ctx) {
      const main = await ctx.api.call("getAppConfig");
      ctx.requireRoute(main, "E14", "reading the app configuration");
      // Every key of the run (rule 2: every role that reads it); one refused (401, 403) is not judged: E14 names no access rule for it.
      const answers = [{ role: "main", res: main }];
      for (const { role, api } of ctx.callers()) answers.push({ role, res: await api.call("getAppConfig") });
      const read = answers.filter(({ res }) => res.status >= 200 && res.status < 300);
      if (!read.length)
        throw new NotExercised(`no key of the run was answered the app configuration (${answers.map((a) => `${a.role}: ${a.res.status}`).join(", ")})`);
      for (const { role, res } of read) {
        // Shapes are not shown: the fields may sit in an envelope (`data`).
        const config = res.isJson ? recordIn(res.body, NAMED_FIELDS) : undefined;
        const missing = NAMED_FIELDS.filter((f) => !config || !(f in config));
        ctx.expect.equal(missing, [], `the app configuration the ${role} key reads holds every field E14 names`, { res, reason: "named-fields" });
      }
    },
  },
]);

import fc from "fast-check";
import type { CheckContext } from "../../core/check/context.js";
import { securityContext } from "../../generators/index.js";
import { valueAt } from "../lib/lenient-reading.js";
import { tokenParams } from "../lib/metadata-token.js";
import { type Stage, badBodies, notJsonBodies, sender, spelledAsValid } from "../lib/negative-bodies.js";

/** What a bad body must not do is issue a token; a lenient reading of expires_in must give the lifetime it spells. */
export async function tokenStage(ctx: CheckContext): Promise<Stage> {
  const base = fc.record({ security_context: securityContext(), expires_in: fc.integer({ min: 1, max: 3600 }) });
  return {
    cases: badBodies(ctx, "MetadataTokenRequest", { base, nullIsAbsent: true }),
    notJson: notJsonBodies(base),
    send: sender("createMetadataToken", tokenParams(ctx)),
    async unchanged(_api, res) {
      const token = res.status < 300 ? res.body?.data?.token : undefined;
      ctx.expect.that(token === undefined, "no token is issued for a broken body", { expected: "no data.token", got: "a token", res, reason: "no-token" });
    },
    restore: async () => {},
    lenient: spelledAsValid(ctx, "MetadataTokenRequest"),
    async faithful(_api, bad, res) {
      const data = res.body?.data;
      // A 2xx that issued no token took nothing.
      if (bad.at !== "/expires_in" || typeof data?.token !== "string") return;
      const spelled = Number(valueAt(bad.body, bad.at));
      const lifetime = (Date.parse(data?.expires_at) - Date.parse(data?.created_at)) / 1000;
      ctx.expect.that(Math.abs(lifetime - spelled) <= 1, `expires_in ${JSON.stringify(valueAt(bad.body, bad.at))}, taken, gives the lifetime it spells`, {
        reason: "lifetime-spelled",
        expected: `expires_at ${spelled} s after created_at`,
        got: `${lifetime} s`,
        res,
      });
    },
  };
}

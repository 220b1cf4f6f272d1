import { group } from "../../core/check/check.js";
import type { EnvironmentVariable } from "../../core/api/schema-types.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkCursor, wholeList } from "../../core/transport/pagination.js";
import { Together } from "../../core/transport/together.js";
import { ENV_VARS, PROPERTY_ENV_VARS, ENV_VAR_TAG } from "../../core/api/fixed-names.js";
import { SECRET_MARKERS } from "../../core/api/operations.js";
import { varsPath } from "../lib/env-var-calls.js";

/**
 * The tool's fixed names that no secret marker masks (their values read back): one writer each.
 * Fixed, since no request removes a variable (E14 names no delete).
 */
const WRITERS = [ENV_VARS.probe, ENV_VARS.listedPlain, ...PROPERTY_ENV_VARS].filter(
  (name) => name.includes(ENV_VAR_TAG) && !SECRET_MARKERS.some((m) => name.toUpperCase().includes(m)),
);
/** Races run, each with new values, until one loses a write: one race may be served one request at a time. */
const RACES = 3;
/** How long the first writer holds its last byte for the others, at most (core/transport/together.ts). */
const HOLD_MS = 2_000;

export const envVarConcurrencyChecks = group("env-vars", [
  {
    id: "env-vars.put.concurrent-writes-kept",
    spec: "E14 (PUT env-vars sets variables; facts: it adds or updates by name, variables not sent keep their values)",
    // SHOULD: that a PUT keeps the variables it does not send is the published documentation's (facts).
    level: "SHOULD",
    title:
      "PUTs of env-vars sent at once, each setting another variable, are all kept: every variable a 2xx answered reads the value its PUT set (no write lost to another)",
    needs: ["writes", "unremovable-writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      let accepted = 0;
      for (let race = 1; race <= RACES; race++) {
        const sets = WRITERS.map((name, i) => ({ name, value: `race ${race} writer ${i} of ${ctx.scratch.prefix}` }));
        const together = new Together(sets.length, HOLD_MS);
        const answers = await Promise.all(sets.map((v) => ctx.api.call("setEnvVars", { deploymentId: dep }, { body: { env_variables: [v] }, together })));
        if (race === 1) ctx.requireRoute(answers[0], "E14", "setting a variable (PUT env-vars)");
        // A refused writer (a 409 a careful server gives) set nothing: only what a 2xx answered must be kept.
        const kept = sets.filter((_, i) => answers[i].status >= 200 && answers[i].status < 300);
        accepted += kept.length;
        if (kept.length < 2) continue;
        const listed = wholeList(await walkCursor<EnvironmentVariable>(ctx.api, varsPath(dep), { first: 100, endpoint: "E13" }), "variables");
        const lost = kept.filter((v) => !listed.items.some((item) => item?.name === v.name && item?.value === v.value));
        ctx.expect.equal(
          lost.map((v) => v.name),
          [],
          `of ${kept.length} PUTs sent at once and answered 2xx, each variable reads the value its PUT set`,
          { res: listed.pages.at(-1)?.res, reason: "concurrent-kept" },
        );
      }
      if (accepted < 2)
        throw new NotExercised(`of ${RACES * WRITERS.length} PUTs sent at once, fewer than two were answered 2xx together: no write could be lost to another`);
    },
  },
]);

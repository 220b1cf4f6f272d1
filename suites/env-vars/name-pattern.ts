import { group } from "../../core/check/check.js";
import { ENV_VARS } from "../../core/api/fixed-names.js";
import type { EnvironmentVariable } from "../../core/api/schema-types.js";
import { walkCursor, wholeList } from "../../core/transport/pagination.js";
import { varsPath } from "../lib/env-var-calls.js";

/**
 * Facts, Environment variables: new names must match `^[A-Za-z_][A-Za-z0-9_]*$`. The names sent are
 * of the tool's fixed set (the API cannot delete a variable): a server that takes one keeps it, and
 * only that one, however often the suite runs.
 */
export const envVarNameChecks = group("env-vars", [
  {
    id: "env-vars.put.name-pattern-refused",
    spec: "E14 (PUT env-vars); facts, Environment variables (new names match ^[A-Za-z_][A-Za-z0-9_]*$)",
    // SHOULD: the pattern is the platform's published documentation, not the spec's.
    level: "SHOULD",
    title: "A new variable named outside the pattern (a hyphen, a leading digit, a dot) is refused with a 4xx and not listed",
    needs: ["writes", "unremovable-writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      for (const name of ENV_VARS.outsidePattern) {
        const res = await ctx.api.call("setEnvVars", { deploymentId: dep }, { body: { env_variables: [{ name, value: `set by ${ctx.scratch.prefix}` }] } });
        ctx.requireRoute(res, "E14", "PUT env-vars");
        ctx.expect.clientError(res, `a variable named ${JSON.stringify(name)}, outside the pattern, is refused`);
        const walk = wholeList(await walkCursor<EnvironmentVariable>(ctx.api, varsPath(dep), { first: 100, endpoint: "E13" }), "variables");
        ctx.expect.that(!walk.items.some((v) => v?.name === name), `${JSON.stringify(name)}, refused, is not listed`, {
          expected: `no variable ${name}`,
          got: `${name} listed`,
          res: walk.pages.at(-1)?.res,
          reason: "refused-not-listed",
        });
      }
    },
  },
]);

import type { EnvironmentVariable } from "../../core/api/schema-types.js";
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import type { CheckContext } from "../../core/check/context.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { ENV_VAR_POOL, ENV_VARS } from "../../core/api/fixed-names.js";
import { pathTo } from "../../core/transport/client.js";
import { succeeded } from "./success.js";
import { type Stage, badBodies, notJsonBodies, sender, spelledAsValid } from "./negative-bodies.js";

/** Two variables of the tool's fixed set; the valid PUT would change both. Variables cannot be deleted: every run reuses these names. */
export async function envVarStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const path = pathTo("listEnvVars", { deploymentId: dep });
  const names = [...ENV_VARS.negative];
  const set = (value: string) => ({ env_variables: names.map((name) => ({ name, value })) });
  const first = await ctx.api.call("setEnvVars", { deploymentId: dep }, { body: set("before") });
  ctx.require(first, "E14", "setting two variables of its own (PUT env-vars)", () => true);
  return {
    // A variable cannot be deleted: a case whose acceptance would set a name outside the tool's fixed set is not sent.
    cases: badBodies(ctx, "EnvVarsPutRequest", { base: fc.constant(set("after")), nullIsAbsent: true }).filter((b) => namesInPool(b.body)),
    notJson: notJsonBodies(fc.constant(set("after"))),
    send: sender("setEnvVars", { deploymentId: dep }),
    async restore(api) {
      ctx.expect.that(
        succeeded("PUT", await api.call("setEnvVars", { deploymentId: dep }, { body: set("before") })),
        `setting the run's variables ${names.join(", ")} back`,
        { reason: "restored" },
      );
    },
    lenient: spelledAsValid(ctx, "EnvVarsPutRequest"),
    async unchanged(api) {
      const walk = await walkCursor<EnvironmentVariable>(api, path, { first: 100, endpoint: "E13" });
      const values = names.map((n) => walk.items.find((v) => v?.name === n)?.value);
      ctx.expect.that(isDeepStrictEqual(values, ["before", "before"]), `the run's variables ${names.join(", ")} keep their values`, {
        expected: ["before", "before"],
        got: values,
        res: walk.pages.at(-1)?.res,
        reason: "values-kept",
      });
    },
  };
}

/** Whether every variable a body names is of the tool's fixed set (a body that names none, or is no list, sets nothing new). */
export function namesInPool(body: unknown): boolean {
  const list = (body as { env_variables?: unknown } | undefined)?.env_variables;
  if (!Array.isArray(list)) return true;
  return list.every((v) => typeof v !== "object" || v === null || !("name" in v) || ENV_VAR_POOL.includes((v as { name: unknown }).name as string));
}

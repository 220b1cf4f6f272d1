import { TEMPLATE_VARIABLE_POOL } from "../../core/api/fixed-names.js";
import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { offSchema } from "../../core/transport/client.js";
import { readSettings } from "../lib/deployment-settings.js";
import { SUCCESS, settled } from "../lib/success.js";
import { isObject } from "../lib/values.js";
import { DEPLOYMENT_CHANGES } from "./steps.js";

/**
 * E6's key-by-key merge for a key the deployment does not have yet. The spec shows no way to remove
 * a template variable, so the new keys are the tool's fixed ones (TEMPLATE_VARIABLE_POOL, which the
 * ledger takes as no leftover and the write plan announces), sent only with
 * --allow-unremovable-writes. At cleanup each is sent as null, which several servers take as a
 * removal (read back by the ledger; a server that keeps it keeps a fixed name, at most four).
 */

/** The template variables as the settings show them: null (a deployment with none) is no key; undefined where the settings show none. */
async function templateVariables(ctx: CheckContext, dep: string) {
  const { settings, res } = await readSettings(ctx, dep);
  const tv = settings.templateVariables;
  return { tv: tv === null ? {} : isObject(tv) ? (tv as Record<string, unknown>) : undefined, res };
}

/** The tool's fixed keys the deployment lacks; where it holds them all, one sent as null first, where the server takes that as a removal. */
async function freeKeys(ctx: CheckContext, dep: string, held: Record<string, unknown>): Promise<string[]> {
  const free = TEMPLATE_VARIABLE_POOL.filter((k) => !(k in held));
  if (free.length) return free;
  const key = TEMPLATE_VARIABLE_POOL[0]!;
  const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: offSchema({ templateVariables: { [key]: null } }) });
  if (res.status >= 200 && res.status < 300) await settled(ctx.api, res);
  if (!(key in ((await templateVariables(ctx, dep)).tv ?? { [key]: "not shown" }))) return [key];
  throw new NotExercised(
    `the deployment holds every one of the tool's fixed template variables (${TEMPLATE_VARIABLE_POOL.join(", ")}) and keeps one sent as null: no key the run may add is new to it`,
  );
}

export const deploymentUpdateNewKeyChecks = group("deployment-update", [
  {
    id: "deployment-update.merge.template-variables-new-key",
    spec: "E6 (templateVariables merged key by key); settings: E14, shape not shown",
    level: "MUST",
    title:
      "templateVariables are merged key by key for a key the deployment does not have too: an update sending only a new key stores it as sent and keeps every key it held (a second new key keeps the first)",
    // The key stays where the server offers no removal (the spec shows none): one of the tool's fixed names, with the opt-in.
    needs: [...DEPLOYMENT_CHANGES, "unremovable-writes"],
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      const first = await templateVariables(ctx, dep);
      if (!first.tv) throw new NotVerifiable("the settings (E14, shape not shown) show no template variables that an update could keep or lose");
      const free = await freeKeys(ctx, dep, first.tv);
      // Beside a key the deployment holds; where it holds none, a second new key beside the first.
      const keys = free.slice(0, Object.keys(first.tv).length ? 1 : 2);
      if (!Object.keys(first.tv).length && keys.length < 2)
        throw new NotExercised("the deployment holds no template variable, and one fixed key only is free: a merge shows only beside a key that is not sent");
      for (const key of keys)
        ctx.scratch.onCleanup(`remove the template variable ${key} (sent as null)`, async () => {
          await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: offSchema({ templateVariables: { [key]: null } }) });
        });
      for (const key of keys) {
        const { tv: before } = await templateVariables(ctx, dep);
        const value = ctx.scratch.name("value");
        const sent = `an update that sends only the template variable ${key} = ${JSON.stringify(value)}, a key the deployment does not have`;
        const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { templateVariables: { [key]: value } } });
        if (res.status === 400 || res.status === 422) throw new NotExercised(`the server refused ${sent} (${res.status}): the merge cannot be seen`);
        ctx.expect.status(res, SUCCESS.PUT, sent);
        await settled(ctx.api, res);
        const { tv: after, res: read } = await templateVariables(ctx, dep);
        ctx.expect.equal(
          after,
          { ...before, [key]: value },
          `after ${sent}, templateVariables hold every key they held unchanged, and ${key} with the value sent`,
          {
            res: read,
            reason: "merged-key-by-key",
          },
        );
      }
    },
  },
]);

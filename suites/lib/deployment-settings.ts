import type { CheckContext } from "../../core/model/context.js";
import type { Response } from "../../core/transport/http.js";
import { isDeepStrictEqual } from "node:util";
import { pick, recordIn } from "../../core/ledger/records.js";
import { pathTo } from "../../core/api/client.js";
import { succeeded } from "./success.js";
import { operation } from "../../core/api/operations.js";
import { isObject } from "./values.js";

export { pick };

/** The settings the checks change on purpose: always put back at cleanup as they were read. */
const RESTORED = ["releaseChannel", "releaseChannelVersion", "releaseChannelVersionHold", "templateVariables"];
/** The other E6 fields: put back only if found changed (a server that resets what a body omits). */
const OTHER_E6_FIELDS = ["cloudProvider", "region", "template", "defaultLaunchpadViewGroup", "launchpadTabs"];

/**
 * Whether a field reads as it did. templateVariables merge key by key (E6), so an update can add a
 * key but never remove one: they are kept when every earlier key holds its earlier value.
 */
function kept(field: string, now: unknown, before: unknown): boolean {
  if (field === "templateVariables" && isObject(now) && isObject(before)) return Object.entries(before).every(([k, v]) => isDeepStrictEqual(now[k], v));
  return isDeepStrictEqual(now, before);
}

/** The one reader of a settings answer (E14: shape not shown): the ledger's reader of a record, for E6's fields (core/ledger/records.ts). */
export const settingsIn = (body: any): Record<string, any> | undefined => recordIn(body, operation("updateDeployment").fields ?? []);

/** The deployment settings, read as settingsIn reads them. */
export async function readSettings(ctx: Pick<CheckContext, "api" | "require">, dep: string): Promise<{ settings: Record<string, any>; res: Response }> {
  const res = await ctx.api.call("getDeploymentSettings", { deploymentId: dep });
  const body = ctx.require(
    res,
    "E14",
    "reading the deployment settings, to compare and restore what an update changes",
    (r) => r.isJson && isObject(settingsIn(r.body)),
  );
  return { settings: settingsIn(body)!, res };
}

/**
 * Reads the settings and registers, before any change, their restoration at cleanup. A check that
 * cannot read them is skipped: it does not change what it could not put back.
 */
export async function keepSettings(ctx: Pick<CheckContext, "api" | "scratch" | "require">, dep: string): Promise<Record<string, any>> {
  const { settings: before } = await readSettings(ctx, dep);
  ctx.scratch.onCleanup(`the settings of deployment ${dep}`, async () => {
    const { settings: now } = await readSettings(ctx, dep);
    const changed = [...RESTORED.filter((f) => before[f] != null), ...OTHER_E6_FIELDS.filter((f) => f in before)].filter((f) => !kept(f, now[f], before[f]));
    // Nothing to put back is no update: each one may redeploy a real deployment.
    if (!changed.length) return;
    const restore = pick(before, changed);
    const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: restore });
    if (!succeeded("PUT", res)) throw new Error(`PUT ${pathTo("updateDeployment", { deploymentId: dep })} answered ${res.status}`);
    // Read back: what still differs is left over, said with the read that shows it (the ledger reports the error).
    const { settings: after, res: read } = await readSettings(ctx, dep);
    const left = changed.filter((f) => !kept(f, after[f], before[f]));
    if (left.length) {
      const url = new URL(pathTo("updateDeployment", { deploymentId: dep }), ctx.api.baseUrl).toString();
      throw new Error(
        `${left.map((f) => `${f} reads ${JSON.stringify(after[f])}, was ${JSON.stringify(before[f])}`).join("; ")} (read back: GET ${pathTo("getDeploymentSettings", { deploymentId: dep })} answered ${read.status}); to put it back: curl -X PUT '${url}' -H 'Authorization: Bearer $API_KEY' -H 'Content-Type: application/json' -d '${JSON.stringify(pick(before, left))}'`,
      );
    }
  });
  return before;
}

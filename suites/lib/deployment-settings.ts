import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { recordIn } from "../../core/ledger/records.js";
import { operation } from "../../core/api/operations.js";
import { isObject } from "./values.js";

const FIELDS: readonly string[] = operation("updateDeployment").fields ?? [];

/**
 * The one reader of a settings answer (E14: shape not shown): the ledger's reader of a record, for E6's fields
 * (core/ledger/records.ts); a field the record groups one level down (`release: {releaseChannelVersionHold}`, the
 * blind PHP server's) is read there, where the record holds none of that name itself.
 */
export function settingsIn(body: any): Record<string, any> | undefined {
  const record = recordIn(body, FIELDS);
  if (!record) return record;
  const view: Record<string, any> = { ...record };
  for (const [key, group] of Object.entries(record))
    if (!FIELDS.includes(key) && isObject(group)) for (const f of FIELDS) if (f in group && !(f in view)) view[f] = group[f];
  return view;
}

/**
 * The deployment settings, read as settingsIn reads them. A check reads them before its first
 * update: one that cannot is skipped, and changes nothing the door could not compare and put back
 * (core/ledger/door-ledger.ts enters every accepted update with what the settings held before).
 */
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

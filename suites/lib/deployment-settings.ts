import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { recordIn } from "../../core/ledger/records.js";
import { operation } from "../../core/api/operations.js";
import { isObject } from "./values.js";

/** The one reader of a settings answer (E14: shape not shown): the ledger's reader of a record, for E6's fields (core/ledger/records.ts). */
export const settingsIn = (body: any): Record<string, any> | undefined => recordIn(body, operation("updateDeployment").fields ?? []);

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

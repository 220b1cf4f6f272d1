import type { CheckContext } from "../../core/model/context.js";
import type { Response } from "../../core/transport/http.js";
import { recordIn } from "../../core/ledger/records.js";
import { operation } from "../../core/spec/operations.js";
import { isObject } from "./values.js";

export { pick } from "../../core/ledger/records.js";

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
 * Reads the settings before any change. The door puts back what the check's writes change, read
 * back (core/ledger/door-ledger.ts); a check that cannot read them is skipped: it does not change
 * what could not be compared or put back.
 */
export async function keepSettings(ctx: Pick<CheckContext, "api" | "require">, dep: string): Promise<Record<string, any>> {
  return (await readSettings(ctx, dep)).settings;
}

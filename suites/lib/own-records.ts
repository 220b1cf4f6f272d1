import type { CheckContext } from "../../core/check/context.js";
import type { OperationName } from "../../core/api/operations.js";
import type { ServedModel } from "../../core/served/model.js";
import type { OperationParams } from "../../core/transport/client.js";
import { createdIn } from "./e14.js";

/** How the run makes and removes a record of an E14 family: the create, the delete, and the delete's placeholder for the new id. */
export interface Family {
  create: OperationName;
  remove: OperationName;
  id: string;
}

/** The run's embed tenants: made through the document's create, removed by its delete. */
export const EMBED_TENANTS: Family = { create: "createEmbedTenant", remove: "deleteEmbedTenant", id: "tenantId" };

/** The id of a record the run created through the document, deleted at cleanup where the document shows how. */
export async function createOwn(
  ctx: CheckContext,
  doc: ServedModel,
  family: Family,
  params: OperationParams,
  hints: Record<string, unknown>,
  what: string,
): Promise<string | number> {
  const op = doc.requireNamed(family.create, `creates ${what}`);
  const res = await ctx.api.call(family.create, params, { body: op.body(hints) });
  const { id } = createdIn(ctx, op, res, `creating ${what}`);
  if (doc.findNamed(family.remove))
    ctx.scratch.onCleanup(`delete ${what} ${id}`, async () => void (await ctx.api.call(family.remove, { ...params, [family.id]: id })));
  return id;
}

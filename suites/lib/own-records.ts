import type { CheckContext } from "../../core/check/context.js";
import type { OperationName } from "../../core/api/operations.js";
import type { ServedModel } from "../../core/served/model.js";
import type { OperationParams } from "../../core/transport/client.js";
import type { Response } from "../../core/transport/http.js";
import { createdIn } from "./e14.js";

/** How the run makes and removes a record of an E14 family: the create, the delete, and the delete's placeholder for the new id. */
export interface Family {
  create: OperationName;
  remove: OperationName;
  id: string;
}

/** The run's embed tenants: made through the document's create, removed by its delete. */
export const EMBED_TENANTS: Family = { create: "createEmbedTenant", remove: "deleteEmbedTenant", id: "tenantId" };
/** The run's groups (E14 groups CRUD). */
export const GROUPS: Family = { create: "createGroup", remove: "deleteGroup", id: "groupId" };

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
  return madeOwn(ctx, doc, family, params, await ctx.api.call(family.create, params, { body: op.body(hints) }), what);
}

/** As createOwn, but a create the server refuses (a 4xx: a value it does not take) makes nothing: undefined. */
export async function createOwnUnlessRefused(
  ctx: CheckContext,
  doc: ServedModel,
  family: Family,
  params: OperationParams,
  hints: Record<string, unknown>,
  what: string,
): Promise<string | number | undefined> {
  const op = doc.requireNamed(family.create, `creates ${what}`);
  const res = await ctx.api.call(family.create, params, { body: op.body(hints) });
  return res.status >= 400 && res.status < 500 ? undefined : madeOwn(ctx, doc, family, params, res, what);
}

/** The id a create answered, its delete registered for cleanup where the document shows one. */
function madeOwn(ctx: CheckContext, doc: ServedModel, family: Family, params: OperationParams, res: Response, what: string): string | number {
  const { id } = createdIn(ctx, doc.requireNamed(family.create, `creates ${what}`), res, `creating ${what}`);
  if (doc.findNamed(family.remove))
    ctx.scratch.onCleanup(`delete ${what} ${id}`, async () => void (await ctx.api.call(family.remove, { ...params, [family.id]: id })));
  return id;
}

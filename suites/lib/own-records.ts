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

/** What makes one record of the run's own: the family, the create's path values and body hints, and a word for it. */
type CreateArgs = [ctx: CheckContext, doc: ServedModel, family: Family, params: OperationParams, hints: Record<string, unknown>, what: string];

/** The id of a record the run created through the document, deleted at cleanup where the document shows how. */
export async function createOwn(...args: CreateArgs): Promise<string | number> {
  return madeOwn(args, await sentCreate(args));
}

/** As createOwn, but a create the server refuses (a 4xx: a value it does not take) makes nothing: undefined. */
export async function createOwnUnlessRefused(...args: CreateArgs): Promise<string | number | undefined> {
  const res = await sentCreate(args);
  return res.status >= 400 && res.status < 500 ? undefined : madeOwn(args, res);
}

function sentCreate([ctx, doc, family, params, hints, what]: CreateArgs): Promise<Response> {
  const op = doc.requireNamed(family.create, `creates ${what}`);
  return ctx.api.call(family.create, params, { body: op.body(hints) });
}

/** The id a create answered, its delete registered for cleanup where the document shows one. */
function madeOwn([ctx, doc, family, params, , what]: CreateArgs, res: Response): string | number {
  const { id } = createdIn(ctx, doc.requireNamed(family.create, `creates ${what}`), res, `creating ${what}`);
  if (doc.findNamed(family.remove))
    ctx.scratch.onCleanup(`delete ${what} ${id}`, async () => void (await ctx.api.call(family.remove, { ...params, [family.id]: id })));
  return id;
}

import type { Api } from "../../core/api.js";
import type { CheckContext } from "../../core/context.js";
import { Skip } from "../../core/outcome.js";
import { walkCursor } from "../../core/pagination.js";
import type { ItemRef } from "../../core/scratch.js";
import { ownWorkbook } from "./workbook-writes.js";

/**
 * Workspace objects a check creates for itself, so that it never depends on (or disturbs) what a
 * server already holds. Each is tracked the moment it exists; a server that cannot create one
 * skips the check with the reason, since creation is not the rule under test.
 */

type Ctx = Pick<CheckContext, "api" | "scratch">;

const workspace = (dep: string) => `/api/v1/deployments/${dep}`;

/** A folder of the run's own (facts: `POST .../folders` with {name, parentId?}). */
export async function createFolder(ctx: Ctx, dep: string, parentId: number | null = null): Promise<ItemRef> {
  const res = await ctx.api.post(`${workspace(dep)}/folders`, parentId === null ? { name: ctx.scratch.name("folder") } : { name: ctx.scratch.name("folder"), parentId });
  const id = res.status === 200 && res.isJson ? res.body?.id : undefined;
  if (!Number.isSafeInteger(id)) throw new Skip(`precondition: could not create a folder (POST ${workspace(dep)}/folders answered ${res.status})`);
  const ref: ItemRef = { type: "FOLDER", id };
  ctx.scratch.track(dep, ref);
  return ref;
}

/** A workbook of the run's own, created through E11 (PUT by a fresh slug), at the root or in a folder. */
export async function createWorkbook(ctx: Ctx, dep: string, folderId: number | null = null): Promise<ItemRef> {
  const { workbook } = await ownWorkbook(ctx, ctx.api, dep, folderId === null ? {} : { folderId });
  return { type: "WORKBOOK", id: workbook.id };
}

/**
 * A reference that surely names nothing: an object the run created and then deleted (facts: bulk
 * delete). Guessed ids could name someone else's object on a real server.
 */
export async function deletedItem(ctx: Ctx, dep: string, type: "WORKBOOK" | "FOLDER"): Promise<ItemRef> {
  const ref = type === "FOLDER" ? await createFolder(ctx, dep) : await createWorkbook(ctx, dep);
  const res = await ctx.api.post(`${workspace(dep)}/workspace/bulk-delete`, { items: [ref] });
  const deleted = res.status === 200 && res.isJson && Array.isArray(res.body?.deleted) && res.body.deleted.some((d: any) => d?.type === ref.type && d?.id === ref.id);
  if (!deleted) throw new Skip(`precondition: could not delete the run's own ${type.toLowerCase()} ${ref.id} to get a missing item (bulk delete answered ${res.status})`);
  ctx.scratch.forget(dep, ref);
  return ref;
}

/** Ids of the folders directly inside `parentId` (null: the root), walking every page. */
export async function childFolderIds(api: Api, dep: string, parentId: number | null): Promise<Set<number>> {
  const walk = await walkCursor(api, `${workspace(dep)}/folders`, { first: 100, query: { parentId: parentId ?? undefined } });
  return new Set(walk.items.map((f: any) => f?.id));
}

/**
 * The parent of a folder (null: the root), found by walking the folder tree from the root; the
 * folders list shows one level at a time and there is no single-folder read. Undefined when not
 * found within `maxLevels` listings.
 */
export async function parentOfFolder(api: Api, dep: string, folderId: number, maxLevels = 200): Promise<number | null | undefined> {
  const queue: (number | null)[] = [null];
  for (let listed = 0; queue.length && listed < maxLevels; listed++) {
    const parent = queue.shift()!;
    const children = await childFolderIds(api, dep, parent);
    if (children.has(folderId)) return parent;
    queue.push(...children);
  }
  return undefined;
}

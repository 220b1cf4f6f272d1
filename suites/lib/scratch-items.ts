import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { walkAgainUntil, walkCursor } from "../../core/transport/pagination.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { carriesPrefix } from "../../core/ledger/ownership.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { servedOrPlain } from "./e14.js";
import { ownWorkbook } from "./workbook-writes.js";
import { pathTo } from "../../core/transport/client.js";

/**
 * Workspace objects a check creates for itself, so that it never depends on (or disturbs) what a
 * server already holds. Each is tracked the moment it exists. Creation is not the rule under test:
 * folders and deletion are E14 endpoints (shape not shown), so a server that cannot do them makes
 * the check not verifiable there; the config's scratchFolderIds stand in for created folders.
 */

type Ctx = Pick<CheckContext, "api" | "scratch" | "require" | "settings" | "log" | "servedDocument">;

/** The configured scratch folders each check has used (keyed by the check's exchange log). */
const usedScratchFolders = new WeakMap<object, Set<number>>();

/** A folder of the run's own (published docs: `POST .../folders` with {name, parentId?, position?}). */
export async function createFolder(ctx: Ctx, dep: string, parentId: number | null = null): Promise<ItemRef> {
  return (await createFolderWith(ctx, dep, parentId)).ref;
}

/** createFolder, with more fields in its body (a position), and the create's answer. */
export async function createFolderWith(
  ctx: Ctx,
  dep: string,
  parentId: number | null,
  fields: Record<string, unknown> = {},
): Promise<{ ref: ItemRef; res: Response }> {
  const name = ctx.scratch.name("folder");
  const res = await ctx.api.call("createFolder", { deploymentId: dep }, { body: { name, ...(parentId === null ? {} : { parentId }), ...fields } });
  // Where the new folder's id is: as the served document says (a wrapper, a link, Location), else `id`.
  const op = await servedOrPlain(ctx, "createFolder");
  const created = (r: typeof res) => r.isJson && Number.isSafeInteger(op.created(r).id);
  if (!(res.status >= 200 && res.status < 300 && created(res)) && parentId === null) {
    const spare = configuredScratchFolder(ctx);
    if (spare !== undefined) return { ref: { type: "FOLDER", id: spare }, res };
  }
  ctx.require(res, "E14", "creating a folder of its own (or set fixtures.scratchFolderIds)", created);
  const id = op.created(res).id as number;
  const ref: ItemRef = { type: "FOLDER", id };
  ctx.scratch.track(dep, ref, { res, name });
  // An answer that names some other folder is never written to: the folders list must show it is the check's own
  // (listed first where it was made). The record is the answer's as the document places it (a `data` wrapper).
  if (!carriesPrefix(op.created(res).record, ctx.scratch.prefix) && !carriesPrefix(res.body, ctx.scratch.prefix))
    await ctx.scratch.requireOwn(ctx.api, dep, [{ ...ref, parentId }]);
  return { ref, res };
}

/** A workbook of the run's own, created through E11 (PUT by a fresh slug), at the root or in a folder. */
export async function createWorkbook(ctx: Ctx, dep: string, folderId: number | null = null): Promise<ItemRef> {
  const { workbook } = await ownWorkbook(ctx, ctx.api, dep, folderId === null ? {} : { folderId });
  return { type: "WORKBOOK", id: workbook.id };
}

/**
 * A reference that surely names nothing: an object the run created and then deleted (published docs: bulk
 * delete). Guessed ids could name someone else's object on a real server.
 */
export async function deletedItem(ctx: Ctx, dep: string, type: "WORKBOOK" | "FOLDER"): Promise<ItemRef> {
  const ref = type === "FOLDER" ? await createFolder(ctx, dep) : await createWorkbook(ctx, dep);
  await ctx.scratch.requireOwn(ctx.api, dep, [ref]);
  const res = await ctx.api.call("bulkDeleteWorkspaceItems", { deploymentId: dep }, { body: { items: [ref] } });
  const op = await servedOrPlain(ctx, "bulkDeleteWorkspaceItems");
  const deleted = (r: typeof res) =>
    r.isJson && Array.isArray(op.record(r)?.deleted) && op.record(r).deleted.some((d: any) => d?.type === ref.type && d?.id === ref.id);
  ctx.require(res, "E14", `deleting its own ${type.toLowerCase()} ${ref.id} to get a missing item`, deleted);
  ctx.scratch.forget(dep, ref);
  return ref;
}

/** A folder of fixtures.scratchFolderIds this check has not used yet (the user's: never deleted). */
function configuredScratchFolder(ctx: Ctx): number | undefined {
  const used = usedScratchFolders.get(ctx.log) ?? new Set<number>();
  usedScratchFolders.set(ctx.log, used);
  const spare = (ctx.settings.fixtures.scratchFolderIds ?? []).find((id) => !used.has(id));
  if (spare !== undefined) used.add(spare);
  return spare;
}

/**
 * Ids of the folders directly inside `parentId` (null: the root), walking every page of the
 * folders list (E14; the platform's documentation filters one level by `parentId`). Its shape is
 * not shown by the spec, so a list that does not honour that filter (it names the parent itself,
 * or folders whose own parent field says they sit elsewhere) proves nothing: not verifiable.
 */
export async function childFolderIds(api: Api, dep: string, parentId: number | null): Promise<Set<number>> {
  const walk = await walkCursor(api, pathTo("listFolders", { deploymentId: dep }), { first: 100, query: { parentId: parentId ?? undefined } });
  const elsewhere = walk.items.filter((f: any) => f?.id === parentId || PARENT_FIELDS.some((k) => isObject(f) && k in f && (f[k] ?? null) !== parentId));
  if (elsewhere.length)
    throw new NotVerifiable(
      `the folders list (E14) asked for ${parentId === null ? "the root level" : `the children of folder ${parentId} (parentId=${parentId})`} also names folders ${elsewhere
        .map((f: any) => f.id)
        .slice(0, 5)
        .join(", ")} that are not: it does not filter as the platform's documentation shows`,
    );
  return new Set(walk.items.map((f: any) => f?.id));
}

/** Where a folder item may name the folder it sits in. */
const PARENT_FIELDS = ["parentId", "folderId"];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** A folder's containing folder as E9 shows it (a folder is a workspace item: Workbook.type FOLDER), or undefined where E9 does not show it. */
async function parentByE9(api: Api, dep: string, folderId: number): Promise<number | null | undefined> {
  const read = await api.call("getWorkbook", { deploymentId: dep, workbookId: folderId });
  const shown = read.status === 200 && read.isJson && read.body?.id === folderId && read.body?.type === "FOLDER" && "folderId" in read.body;
  return shown ? (read.body.folderId ?? null) : undefined;
}

/**
 * Whether folder `id` sits in `parentId` (null: the root), and what showed it: E9's folderId first
 * (what a spec'd read says is the server's word), else the folders list of that one level.
 */
export async function folderSitsIn(api: Api, dep: string, id: number, parentId: number | null): Promise<{ sits: boolean; seen: string }> {
  const parent = await parentByE9(api, dep, id);
  if (parent !== undefined) return { sits: parent === parentId, seen: `in ${parent ?? "the root"} (E9 folderId)` };
  const children = await walkAgainUntil(
    () => childFolderIds(api, dep, parentId),
    (listed) => listed.has(id),
  );
  const where = `the folders list of ${parentId ?? "the root"}`;
  return children.has(id) ? { sits: true, seen: `in ${where}` } : { sits: false, seen: `not in ${where}: ${[...children].slice(0, 10).join(", ")}` };
}

/**
 * The folder a folder sits in (null: the root); undefined when the server shows it nowhere. E9
 * first, else the folder tree walked from the root through the folders list (one level at a time,
 * no single-folder read), within `maxLevels` listings.
 */
export async function parentOfFolder(api: Api, dep: string, folderId: number, maxLevels = 200): Promise<number | null | undefined> {
  const shown = await parentByE9(api, dep, folderId);
  if (shown !== undefined) return shown;
  return walkAgainUntil(
    () => parentInTree(api, dep, folderId, maxLevels),
    (parent) => parent !== undefined,
  );
}

/** The level of the folder tree whose folders list names `folderId`, walked breadth first from the root. */
async function parentInTree(api: Api, dep: string, folderId: number, maxLevels: number): Promise<number | null | undefined> {
  const queue: (number | null)[] = [null];
  for (let listed = 0; queue.length && listed < maxLevels; listed++) {
    const parent = queue.shift()!;
    const children = await childFolderIds(api, dep, parent);
    if (children.has(folderId)) return parent;
    queue.push(...children);
  }
  return undefined;
}

/**
 * Another kind's id as a destination: the id of a workbook of the run's, which no folder the
 * folders list (E14) shows may have (a server may number folders apart from workbooks).
 */
export async function workbookNoFolderHas(ctx: Ctx, dep: string): Promise<ItemRef> {
  const other = await createWorkbook(ctx, dep);
  const folders = await walkCursor<{ id?: unknown }>(ctx.api, pathTo("listFolders", { deploymentId: dep }), { first: 100 });
  if (folders.items.some((f: { id?: unknown }) => f?.id === other.id)) throw new NotExercised(`the id of workbook ${other.id} also names a folder`);
  return other;
}

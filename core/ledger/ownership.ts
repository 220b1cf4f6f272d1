import type { Workbook } from "../api/schema-types.js";
import type { Api } from "../transport/api.js";
import { pathTo } from "../transport/client.js";
import { nextOffsetPage, OFFSET_PAGE, walkAgainUntil } from "../transport/pagination.js";

/**
 * Whether an object the ledger holds is the run's own, read back from the server (never taken
 * from the answer that named it), and the workspace requests that remove what is. Every path the
 * cleanup and the sweep send lives here, so that the operation-table client can take them over in
 * one place.
 */

export type ItemType = "WORKBOOK" | "REPORT" | "FOLDER";
export interface ItemRef {
  type: ItemType;
  id: number;
}

/** The workspace operations cleanup and the sweep use, by their names in the spec's table. */
export const workspacePaths = {
  workbook: (dep: string, id: number) => pathTo("getWorkbook", { deploymentId: dep, workbookId: id }),
  workbooks: (dep: string) => pathTo("listWorkbooks", { deploymentId: dep }),
  folders: (dep: string) => pathTo("listFolders", { deploymentId: dep }),
  reports: (dep: string) => pathTo("listReports", { deploymentId: dep }),
  bulkMove: (dep: string) => pathTo("bulkMoveWorkspaceItems", { deploymentId: dep }),
  bulkDelete: (dep: string) => pathTo("bulkDeleteWorkspaceItems", { deploymentId: dep }),
};

/** What the report says of a ledger entry the read-back did not confirm. */
export const NOT_CONFIRMED = "not removed: not confirmed as this run's";

/** What a read-back showed of one object: the run's own (its name carries the prefix, in this deployment) or not, and why. */
export interface Seen {
  own: boolean;
  /** The read shows it no more (404, or absent from its list): nothing to remove; the sweep looks again. */
  gone?: boolean;
  /** What the server showed, for the report ("E9 reads it named …", "not in the folders list"). */
  shown: string;
  /** The record the read showed of a workbook that is the run's own (E9): what a clone's copies are read from. */
  record?: Workbook;
}

/** The strings of a record that may carry the run's name: name, title, slug, email, displayName. */
export function namesOf(record: unknown): string[] {
  if (!record || typeof record !== "object") return [];
  const fields = record as Record<string, unknown>;
  return ["name", "title", "slug", "email", "displayName", "label", "publicId"].map((k) => fields[k]).filter((v): v is string => typeof v === "string");
}

/** Whether a record's name carries a run's prefix (a string: anywhere, as in `Copy of cf-…`; a pattern: as it matches). */
export const carriesPrefix = (record: unknown, prefix: string | RegExp) =>
  namesOf(record).some((n) => (typeof prefix === "string" ? n.includes(prefix) : prefix.test(n)));

/** A record's deployment, where it shows one, is the deployment the run wrote to. */
const inDeployment = (record: { deploymentId?: unknown } | null | undefined, dep: string) =>
  record?.deploymentId === undefined || record?.deploymentId === null || String(record.deploymentId) === dep;

/** The entries of a list answer wherever it keeps them: items, data, or the body itself. */
export function entriesOf(body: any): any[] {
  if (Array.isArray(body)) return body;
  for (const k of ["items", "data", "results"]) if (Array.isArray(body?.[k])) return body[k];
  if (body?.data && typeof body.data === "object") for (const v of Object.values(body.data)) if (Array.isArray(v)) return v;
  return [];
}

/**
 * Every entry of a list, following `pageInfo.endCursor` where the server gives one, else its
 * `pagination` by offset (E1's deployments: `offset`, `limit`, and a `total` where shown), within
 * `maxPages`. Pages of 100 first; a server that refuses that size (some cap it lower) is asked
 * again at its own default size.
 */
export async function listAll(api: Api, path: string, query: Record<string, string | number> = {}, maxPages = 50): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  let size: { first?: number } = { first: OFFSET_PAGE };
  let byOffset: { offset: number; limit: number } | undefined;
  let shownLimit = 0;
  for (let page = 0; page < maxPages; page++) {
    const ask = () => api.get(path, { ...(byOffset ?? size), ...query, ...(after ? { after } : {}) });
    let res = await ask();
    if (res.status >= 400 && res.status < 500 && size.first !== undefined && !byOffset) {
      size = {};
      res = await ask();
    } else if (res.status >= 400 && res.status < 500 && byOffset && byOffset.limit !== shownLimit) {
      byOffset = { ...byOffset, limit: shownLimit };
      res = await ask();
    }
    // A list the server does not serve (404, 405: an E14 route it lacks) holds nothing of the run's.
    if (page === 0 && (res.status === 404 || res.status === 405)) return [];
    if (res.status !== 200 || !res.isJson) {
      if (page === 0) throw new Error(`GET ${path} answered ${res.status}: the list could not be read`);
      break;
    }
    const entries = entriesOf(res.body);
    out.push(...entries);
    const next = res.body?.pageInfo?.hasNextPage ? res.body.pageInfo.endCursor : undefined;
    if (typeof next === "string" && next !== after) {
      after = next;
      continue;
    }
    // No cursor: a list paged by offset says so in its `pagination` (the server's own page size where it refuses ours).
    const nextPage = nextOffsetPage(res.body?.pagination, entries.length, out.length);
    if (!nextPage) break;
    shownLimit = nextPage.shownLimit;
    byOffset = { offset: nextPage.offset, limit: nextPage.limit };
  }
  return out;
}

/** Folders listed at once while the tree is walked: a level is many small independent reads. */
const FOLDER_LISTS_AT_ONCE = 8;

/**
 * The folders of a deployment whose names carry `prefix` (the tool's own), found level by level
 * from the root: first into folders of the tool's own, where the run makes its folders; then, while
 * any of `wanted` (or, for a sweep, any at all) is still unseen, into the others too (a check may
 * have moved one of its folders into a folder it was given), within `maxLevels` listings. Once
 * every one of `wanted` is seen, the walk stops: the rest of the tree tells nothing more of them.
 * `startAt`: folders listed first, before the root (the parents the wanted ones were made in): a
 * folder made inside one the run was given is found there in one listing, not after the tenant's
 * tree is walked to it (a run's folders in a read-only folder cost a whole walk each, and a
 * property of them ran out of its budget on a server with many folders).
 */
export async function prefixedFolders(
  api: Api,
  dep: string,
  prefix: string | RegExp,
  wanted?: Set<number>,
  maxLevels = 200,
  startAt: number[] = [],
): Promise<Map<number, any>> {
  const found = new Map<number, any>();
  const own: (number | null)[] = [...new Set(startAt), null];
  const others: number[] = [];
  const seen = new Set<number>();
  for (let listed = 0; listed < maxLevels; ) {
    const stillWanted = !wanted || [...wanted].some((id) => !found.has(id));
    if (!stillWanted) break;
    const room = Math.min(FOLDER_LISTS_AT_ONCE, maxLevels - listed);
    const parents = own.length ? own.splice(0, room) : others.splice(0, room);
    if (!parents.length) break;
    listed += parents.length;
    const lists = await Promise.all(parents.map((parent) => listAll(api, workspacePaths.folders(dep), parent === null ? {} : { parentId: parent })));
    for (const f of lists.flat()) {
      // A workspace id is an integer of at least 0 (E8's folderId): another names no folder to list the children of.
      if (!Number.isSafeInteger(f?.id) || f.id < 0 || seen.has(f.id)) continue;
      seen.add(f.id);
      if (carriesPrefix(f, prefix) && inDeployment(f, dep)) {
        found.set(f.id, f);
        own.push(f.id);
      } else others.push(f.id);
    }
  }
  return found;
}

/** The reports of a deployment whose names carry `prefix`. */
export async function prefixedReports(api: Api, dep: string, prefix: string | RegExp): Promise<Map<number, any>> {
  const reports = await listAll(api, workspacePaths.reports(dep));
  return new Map(reports.filter((r) => Number.isSafeInteger(r?.id) && carriesPrefix(r, prefix) && inDeployment(r, dep)).map((r) => [r.id, r]));
}

/** The workbooks (E8) of a deployment whose names or slugs carry `prefix` (within `maxPages` pages of the walk). */
export async function prefixedWorkbooks(api: Api, dep: string, prefix: string | RegExp, maxPages?: number): Promise<Map<number, any>> {
  const workbooks = await listAll(api, workspacePaths.workbooks(dep), {}, maxPages);
  return new Map(workbooks.filter((w) => Number.isSafeInteger(w?.id) && carriesPrefix(w, prefix) && inDeployment(w, dep)).map((w) => [w.id, w]));
}

/**
 * E9 of one workbook: the run's own when it is that workbook, in `dep`, named with `prefix`; or a
 * clone of a workbook not the run's (E10 rule 1 names it `Copy of …`, no name can be sent) created
 * no earlier than the server's clock read when the clone was answered (`since`): an older one was
 * there before the run asked.
 */
export async function workbookSeen(api: Api, dep: string, id: number, prefix: string, since?: number): Promise<Seen> {
  const res = await api.get(workspacePaths.workbook(dep, id));
  if (res.status === 404) return { own: false, gone: true, shown: `E9 answers 404 in deployment ${dep}` };
  if (res.status !== 200 || !res.isJson || res.body?.id !== id) return { own: false, shown: `E9 answered ${res.status} for it in deployment ${dep}` };
  if (!inDeployment(res.body, dep)) return { own: false, shown: `E9 shows it in deployment ${res.body.deploymentId}` };
  if (carriesPrefix(res.body, prefix)) return { own: true, shown: "", record: res.body };
  const name = namesOf(res.body)[0];
  if (since !== undefined && name?.startsWith("Copy of ") && createdSince(res.body.createdAt, since)) return { own: true, shown: "", record: res.body };
  return { own: false, shown: `E9 reads it named ${JSON.stringify(name ?? null)}, created ${res.body.createdAt ?? "(not shown)"}, without ${prefix}` };
}

/**
 * Whether a record's createdAt is no earlier than `since` (the server's clock, ms), to the grain
 * of each: a Date header counts whole seconds, and a server may show createdAt as a date only.
 */
export function createdSince(createdAt: unknown, since: number): boolean {
  if (typeof createdAt !== "string") return false;
  const grain = /^\d{4}-\d{2}-\d{2}$/.test(createdAt) ? 86_400_000 : 1_000;
  return Date.parse(createdAt) >= since - grain;
}

/** Workbooks read back (E9) at once. */
const WORKBOOK_READS_AT_ONCE = 8;

/**
 * From this many workbooks in one ledger (a bulk move's hundred), a walk of E8 may confirm them in
 * fewer round trips than reading each: it is given as many pages as the reads would take, and E9
 * reads what it did not show. Below, each is read: a walk to confirm a few cost a tenant's whole
 * list (on a tenant of 10,000 workbooks, 50 pages of 100 each time, 98 MB in a run, and the run's
 * newest workbooks beyond them read by E9 all the same).
 */
const WORKBOOKS_BY_LIST_FROM = 50;

/**
 * Each item's read-back: workbooks by E9, a few at once (many by a short walk of E8 first);
 * folders and reports by their lists (only where the ledger holds some).
 */
export async function seenItems(
  api: Api,
  dep: string,
  items: (ItemRef & { since?: number; parentId?: number | null })[],
  prefix: string,
): Promise<Map<ItemRef, Seen>> {
  const seen = new Map<ItemRef, Seen>();
  const wantedFolders = new Set(items.filter((i) => i.type === "FOLDER").map((i) => i.id));
  // The folders the wanted ones were made in, where the caller knows them: listed first.
  const parents = items.flatMap((i) => (i.type === "FOLDER" && typeof i.parentId === "number" ? [i.parentId] : []));
  // A list that cannot be read confirms nothing: its items are reported, never taken as gone.
  const unread = (err: unknown) => (err as Error).message;
  // A walk that misses a wanted one walks again (walkAgainUntil): the run's other checks delete
  // beside this one, and a cursor that is a position then skips an item.
  const showsAll = (ids: Set<number>) => (walk: Map<number, any> | string) => typeof walk === "string" || [...ids].every((id) => walk.has(id));
  const folders = wantedFolders.size
    ? await walkAgainUntil(() => prefixedFolders(api, dep, prefix, wantedFolders, undefined, parents).catch(unread), showsAll(wantedFolders))
    : new Map();
  const wantedReports = new Set(items.filter((i) => i.type === "REPORT").map((i) => i.id));
  const reports = wantedReports.size ? await walkAgainUntil(() => prefixedReports(api, dep, prefix).catch(unread), showsAll(wantedReports)) : new Map();
  const workbooks = items.filter((i) => i.type === "WORKBOOK");
  // Only what the walk shows as the run's own is taken from it; absent (a walk beside other writers
  // may skip one, or it ended first), foreign or unreadable, E9 decides.
  const listed =
    workbooks.length >= WORKBOOKS_BY_LIST_FROM
      ? await prefixedWorkbooks(api, dep, prefix, Math.ceil(workbooks.length / WORKBOOK_READS_AT_ONCE)).catch(() => new Map<number, any>())
      : new Map<number, any>();
  for (const item of workbooks) if (listed.has(item.id)) seen.set(item, { own: true, shown: "" });
  for (const batch of chunks(
    workbooks.filter((i) => !listed.has(i.id)),
    WORKBOOK_READS_AT_ONCE,
  ))
    await Promise.all(batch.map(async (item) => seen.set(item, await workbookSeen(api, dep, item.id, prefix, item.since))));
  for (const item of items.filter((i) => i.type !== "WORKBOOK")) {
    const list = item.type === "FOLDER" ? folders : reports;
    seen.set(
      item,
      typeof list === "string" ? { own: false, shown: list } : list.has(item.id) ? { own: true, shown: "" } : { own: false, gone: true, shown: "" },
    );
  }
  return seen;
}

/** Moves folders to the root, so that none still holds another when its turn to be deleted comes. */
async function moveToRoot(api: Api, dep: string, folders: ItemRef[]): Promise<void> {
  for (const batch of chunks(folders, 100)) await api.post(workspacePaths.bulkMove(dep), { items: batch, folderId: null }).catch(() => undefined);
}

const MAX_DELETE_ROUNDS = 5;

/**
 * Deletes items confirmed as the run's own. Folders go to the root first, so that no folder still
 * holds another when its turn comes (and a cycle a faulty server let a run make is broken); then
 * rounds of bulk deletes (100 a request) until nothing is left or a round makes no progress.
 * An item already gone (404) counts as deleted.
 */
export async function deleteItems(api: Api, dep: string, items: ItemRef[]): Promise<{ deleted: ItemRef[]; notDeleted: { item: ItemRef; why: string }[] }> {
  await moveToRoot(
    api,
    dep,
    items.filter((i) => i.type === "FOLDER"),
  );
  const deleted: ItemRef[] = [];
  let remaining = [...items.filter((i) => i.type !== "FOLDER"), ...items.filter((i) => i.type === "FOLDER")];
  let reasons = new Map<ItemRef, string>();
  for (let round = 0; round < MAX_DELETE_ROUNDS && remaining.length; round++) {
    const before = remaining.length;
    reasons = new Map();
    const next: ItemRef[] = [];
    for (const batch of chunks(remaining, 100)) {
      try {
        const res = await api.post(workspacePaths.bulkDelete(dep), { items: batch });
        const failed: any[] = res.status === 200 && Array.isArray(res.body?.failed) ? res.body.failed : res.status === 200 ? [] : batch;
        for (const item of batch) {
          const f = failed.find((x) => x?.type === item.type && x?.id === item.id);
          if (f && f.error?.status !== 404) {
            next.push(item);
            reasons.set(item, res.status === 200 ? (f.error?.message ?? "failed") : `bulk delete answered ${res.status}`);
          } else deleted.push(item);
        }
      } catch (err) {
        next.push(...batch);
        for (const i of batch) reasons.set(i, (err as Error).message);
      }
    }
    remaining = next;
    if (remaining.length === before) break;
  }
  return { deleted, notDeleted: remaining.map((item) => ({ item, why: reasons.get(item) ?? "not deleted" })) };
}

/** The curl line a user can run to remove items the run would not: the bulk delete, with the key left to them. */
export function removalCurl(baseUrl: string, dep: string, items: ItemRef[]): string {
  const url = new URL(workspacePaths.bulkDelete(dep), baseUrl).toString();
  return `curl -X POST '${url}' -H 'Authorization: Bearer $API_KEY' -H 'Content-Type: application/json' -d '${JSON.stringify({ items })}'`;
}

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** The path (and query) of a URL an exchange records. */
export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

import type { Api } from "../transport/api.js";
import { cloneCopies, unconfirmedCopies } from "./clone-copies.js";
import type { Exchange, FullAnswer } from "../transport/http.js";
import {
  carriesPrefix,
  createdSince,
  deleteItems,
  type ItemRef,
  listAll,
  namesOf,
  workspacePaths,
  pathOf,
  prefixedFolders,
  prefixedReports,
  prefixedWorkbooks,
  removalCurl,
} from "./ownership.js";
import { notKnown } from "./leftovers.js";
import { runPrefixOf, TOOL_NAME } from "./scratch.js";
import type { RunSettings } from "../api/settings.js";
import { deploymentInPath } from "../transport/client.js";
import { matchOperation, matchPath, segmentCount } from "../api/match.js";
import { OPERATIONS, type OperationName, operation } from "../api/operations.js";

/**
 * The end-of-run sweep: after the checks (a failure or Ctrl-C included), every collection the run
 * wrote to is listed and searched for the run's prefix. What is found is the run's own by that
 * read (its prefix, in the deployment or collection the run wrote to) and is removed; what is still
 * there after that is a leftover, reported with the request that would remove it.
 */

/** Methods that change nothing: a request of another method may have made something. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Writes of the table that make nothing of their own to look for (what they make in the workspace is swept per deployment). */
const MAKE_NOTHING_LISTED: readonly OperationName[] = [
  "duplicateWorkbook",
  "upsertWorkbookBySlug",
  "bulkMoveWorkspaceItems",
  "bulkDeleteWorkspaceItems",
  "setStagingEnvironment",
  "createMetadataToken",
  "setEnvVars",
  "createDeployment",
];
/**
 * Paths under which a write (the table's or a served document's) makes nothing the sweep lists
 * there: the workspace's lists and the workspace itself (its objects are swept per deployment),
 * and the environment variables (a fixed set of names, kept by the ledger).
 */
const NOTHING_LISTED_UNDER = [
  ...(["listWorkbooks", "listFolders", "listReports", "listEnvVars"] as const).map((name) => operation(name).path),
  operation("bulkMoveWorkspaceItems").path.split("/").slice(0, -1).join("/"),
];

/** Whether a write made nothing the sweep looks for in its collection. */
function makesNothingListed(method: string, path: string): boolean {
  const row = matchOperation(OPERATIONS, method, path)?.operation.name as OperationName | undefined;
  if (row && MAKE_NOTHING_LISTED.includes(row)) return true;
  // A create of a deployment on the other prefix than the table's: deployments are not swept.
  if (matchOperation(OPERATIONS, "GET", path)?.operation.name === "listDeployments") return true;
  const segments = path.split("/");
  return NOTHING_LISTED_UNDER.some((list) => matchPath(list, segments.slice(0, segmentCount(list)).join("/")) !== undefined);
}

/** Where the run wrote, seen from its exchanges: the deployments of its writes, and the collections its creates answered an id for. */
export class WrittenPlaces {
  readonly deployments = new Set<string>();
  readonly collections = new Set<string>();
  /** Workbooks the run cloned, by deployment: E10 names a clone `Copy of <source name>`, which carries no prefix when the source is not the run's. */
  readonly cloned = new Map<string, Set<number>>();
  /** The server's clock (its Date header) at the run's first write: nothing the run made is older. */
  firstWriteAt?: number;

  see(exchange: Exchange, answer?: FullAnswer): void {
    if (READS.has(exchange.method.toUpperCase())) return;
    const path = pathOf(exchange.url).split("?")[0];
    const date = Date.parse(exchange.responseHeaders?.date ?? "");
    if (this.firstWriteAt === undefined && !Number.isNaN(date)) this.firstWriteAt = date;
    const at = deploymentInPath(path);
    const dep = at?.deeper ? at.deploymentId : undefined;
    // A write refused with a 4xx made nothing (a deployment that does not exist, say); a 2xx or a 5xx may have.
    const refused = (exchange.status ?? 0) >= 400 && (exchange.status ?? 0) < 500;
    if (dep && !refused && /^[\w-]+$/.test(dep) && dep !== "0") this.deployments.add(dep);
    const clone = matchOperation(OPERATIONS, exchange.method, path);
    const source = clone?.operation.name === "duplicateWorkbook" && /^\d+$/.test(clone.params.workbookId) ? clone.params : undefined;
    if (source && (exchange.status ?? 0) < 300)
      this.cloned.set(source.deploymentId, new Set([...(this.cloned.get(source.deploymentId) ?? []), Number(source.workbookId)]));
    const status = exchange.status ?? 0;
    if (exchange.method.toUpperCase() !== "POST" || status < 200 || status >= 300 || makesNothingListed(exchange.method, path)) return;
    const body = answer?.body as any;
    if ([body?.id, body?.data?.id, body?.item?.id].some((id) => typeof id === "string" || typeof id === "number")) this.collections.add(path);
  }
}

/**
 * The sweep at the end of a run: the names the run's own checks give (`own`) in every place it
 * wrote to; with --sweep-older-than, also the tool's names from earlier runs made before that long
 * ago (in the deployments the run wrote to and the one under test). Returns the leftovers.
 * Not the run's prefix whole: shards of one seed, run at once against one server (a CI matrix),
 * share it, and a shard that ended first removed the objects the others' checks were still using.
 */
export async function endOfRunSweep(api: Api, places: WrittenPlaces, settings: RunSettings, startedAt: number, own: RegExp): Promise<string[]> {
  const leftovers = await sweep(api, places, own, undefined, runPrefixOf(settings.seed)).catch((err) => [
    notKnown(`the sweep failed (${(err as Error).message})`),
  ]);
  if (settings.sweepOlderThanMs === undefined) return leftovers;
  const earlier = new WrittenPlaces();
  for (const dep of [...places.deployments, ...(settings.fixtures.deploymentId !== undefined ? [String(settings.fixtures.deploymentId)] : [])])
    earlier.deployments.add(dep);
  for (const c of places.collections) earlier.collections.add(c);
  return [
    ...leftovers,
    ...(await sweep(api, earlier, TOOL_NAME, startedAt - settings.sweepOlderThanMs).catch((err) => [
      notKnown(`the sweep of earlier runs failed (${(err as Error).message})`),
    ])),
  ];
}

/**
 * Sweeps what the run wrote to for names carrying `prefix`, created before `olderThan` where given;
 * with `clonesOf` (the run's prefix), also the clones the run made of workbooks not its own.
 * Returns the leftovers: what is still there, with how to remove it.
 */
export async function sweep(api: Api, places: WrittenPlaces, prefix: string | RegExp, olderThan?: number, clonesOf?: string): Promise<string[]> {
  const old = (r: any) => olderThan === undefined || Date.parse(r?.createdAt ?? r?.created_at ?? "") < olderThan;
  const since = places.firstWriteAt;
  // Each place is read and cleared on its own, all at once: the sweep runs after every check, where
  // one list after another is the whole wait (a round trip each). What each removes is disjoint:
  // the prefix's items, a clone's `Copy of` name that carries no prefix, another collection.
  const each = await Promise.all([
    ...[...places.deployments].map((dep) => sweepWorkspace(api, dep, prefix, old)),
    ...(olderThan === undefined && since !== undefined && clonesOf !== undefined
      ? [...places.cloned].map(([dep, sources]) => sweepClones(api, dep, sources, since, clonesOf))
      : []),
    ...[...places.collections].map((collection) => sweepCollection(api, collection, prefix, old)),
  ]);
  return each.flat();
}

async function workspaceFound(api: Api, dep: string, prefix: string | RegExp, old: (r: any) => boolean): Promise<{ ref: ItemRef; name: string }[]> {
  const lists: [ItemRef["type"], Map<number, any>][] = [
    ["WORKBOOK", await prefixedWorkbooks(api, dep, prefix)],
    ["REPORT", await prefixedReports(api, dep, prefix)],
    ["FOLDER", await prefixedFolders(api, dep, prefix)],
  ];
  return lists.flatMap(([type, found]) => [...found.values()].filter(old).map((r) => ({ ref: { type, id: r.id as number }, name: namesOf(r)[0] ?? "" })));
}

async function sweepWorkspace(api: Api, dep: string, prefix: string | RegExp, old: (r: any) => boolean): Promise<string[]> {
  let found: Awaited<ReturnType<typeof workspaceFound>>;
  try {
    found = await workspaceFound(api, dep, prefix, old);
  } catch (err) {
    return [notKnown(`the sweep could not read the workspace of deployment ${dep} (${(err as Error).message})`)];
  }
  if (!found.length) return [];
  await deleteItems(
    api,
    dep,
    found.map((f) => f.ref),
  );
  const still = await workspaceFound(api, dep, prefix, old).catch(() => found);
  return still.map(
    (f) =>
      `${f.ref.type} ${f.ref.id} ${JSON.stringify(f.name)} in deployment ${dep} (found by the sweep, not deleted); to remove it: ${removalCurl(api.baseUrl, dep, [f.ref])}`,
  );
}

/**
 * Clones of workbooks not the run's: E10 rule 1 names them `Copy of <source name>`. One such
 * workbook created since the run started (E8 createdAt, the server's clock) is the run's: a
 * create answer that named something else left it untracked. The copies of reports it brought go
 * with it where the read-back confirms them (core/clone-copies.ts).
 */
async function sweepClones(api: Api, dep: string, sources: Set<number>, since: number, prefix: string): Promise<string[]> {
  // One walk of E8 names the sources still there and holds the clones: no E9 read a source (most
  // are the run's own, removed by now).
  const listed = async () => await listAll(api, workspacePaths.workbooks(dep)).catch(() => [] as any[]);
  const workbooks = await listed();
  const names = new Map<string, number>();
  for (const w of workbooks) if (sources.has(w?.id) && typeof w?.name === "string" && !w.name.startsWith("cf-")) names.set(`Copy of ${w.name}`, w.id);
  if (!names.size) return [];
  const clonesIn = (ws: any[]) => ws.filter((w) => Number.isSafeInteger(w?.id) && names.has(w?.name) && createdSince(w?.createdAt, since));
  const clones = async () => clonesIn(await listed());
  const found = clonesIn(workbooks);
  if (!found.length) return [];
  const records = await Promise.all(found.map(async (w) => ({ w, res: await api.get(workspacePaths.workbook(dep, w.id)).catch(() => undefined) })));
  const confirmed = records
    .filter(({ res }) => res?.status === 200 && res.isJson)
    .map(({ w, res }) => ({ id: w.id as number, record: res!.body, source: names.get(w.name)!, since }));
  const copies = await cloneCopies(api, dep, confirmed, { check: prefix, tool: TOOL_NAME });
  const { notDeleted } = await deleteItems(api, dep, [...copies.own.map((c) => c.ref), ...found.map((w) => ({ type: "WORKBOOK" as const, id: w.id }))]);
  const copiesLeft = notDeleted
    .filter(({ item }) => item.type === "REPORT")
    .map(
      ({ item, why }) =>
        `REPORT ${item.id} in deployment ${dep} (a copy a clone of the run's brought, found by the sweep, not deleted: ${why}); to remove it: ${removalCurl(api.baseUrl, dep, [item])}`,
    );
  const clonesLeft = (await clones()).map(
    (w) =>
      `WORKBOOK ${w.id} ${JSON.stringify(w.name)} in deployment ${dep} (a clone the run made, found by the sweep, not deleted); to remove it: ${removalCurl(api.baseUrl, dep, [{ type: "WORKBOOK", id: w.id }])}`,
  );
  return [...unconfirmedCopies(api.baseUrl, dep, copies, () => "found by the sweep"), ...copiesLeft, ...clonesLeft];
}

async function sweepCollection(api: Api, collection: string, prefix: string | RegExp, old: (r: any) => boolean): Promise<string[]> {
  const own = async () =>
    (await listAll(api, collection)).filter((r) => (typeof r?.id === "string" || typeof r?.id === "number") && carriesPrefix(r, prefix) && old(r));
  let found: any[];
  try {
    found = await own();
  } catch {
    // A collection the run created in but cannot list (no list operation): the ledger's own removal covered it.
    return [];
  }
  for (const r of found) await api.delete(`${collection}/${encodeURIComponent(String(r.id))}`).catch(() => undefined);
  const listed = found.length ? await own().catch(() => found) : [];
  // Each one still listed is read once more (a list may lag its deletes): what its read shows gone is not reported.
  const still: any[] = [];
  for (const r of listed) {
    const read = await api.get(`${collection}/${encodeURIComponent(String(r.id))}`).catch(() => undefined);
    if (read?.status !== 404 && read?.status !== 410) still.push(r);
  }
  return still.map(
    (r) =>
      `${collection} ${r.id} ${JSON.stringify(namesOf(r)[0] ?? "")} (found by the sweep, not deleted); to remove it: curl -X DELETE '${api.baseUrl}${collection}/${encodeURIComponent(String(r.id))}' -H 'Authorization: Bearer $API_KEY'`,
  );
}

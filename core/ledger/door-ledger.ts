import type { Api } from "../transport/api.js";
import type { Exchange, FullAnswer, HttpClient } from "../transport/http.js";
import { decode, fillPath, isMemberPath, lastPlaceholder, matchOperation, operationKey, type PathParams } from "../api/match.js";
import { OPERATIONS, type Operation, type OperationName, readerOf, type WriteClass } from "../api/operations.js";
import { tookWrite } from "../api/methods.js";
import { isFixedAttributeName } from "../api/fixed-names.js";
import { DoorEntries, listAt } from "./door-entries.js";
import { ownId, unprefixed, unwrapped } from "./door-keyless.js";
import { carriesPrefix, type ItemType, listAll } from "./ownership.js";
import { putBack, readBefore, type RecordEntry } from "./records.js";
import type { ReadBack, Scratch } from "./scratch.js";
import type { ServedModel } from "../served/model.js";
import { wrappersOf } from "../served/answers.js";

/**
 * The door's record of every accepted write (any method but GET, HEAD and OPTIONS answered 2xx),
 * entered in the ledger of whoever sent it (a check's Scratch, or the run's for a phase), with its
 * undo, whatever the sending code registered itself:
 * - a workspace object an answer made (a workbook, report or folder) is tracked: removed at
 *   cleanup once its read shows it is the caller's own, else reported with the request that would;
 * - an object a create of the table made, where the table has its delete (`POST /x`, `DELETE
 *   /x/{id}`, under either prefix) and the row is of what the run makes and removes ("writes",
 *   "admin-writes", a deployment of "deployment-lifecycle"): removed once its read (the member's
 *   GET, else the list) shows it the caller's own;
 * - a settings-like record (a write whose row has a read: its `readBy`, or a GET of its own path):
 *   read before the caller's first write to it, through the wrappers the server's own document
 *   declares for that read, put back at cleanup after the caller's own undos
 *   (which know the record's shapes best) and read back (records.ts);
 * - every other accepted write (environment variables, a deployment's setup wizard, branches, dev
 *   mode, dbt syncs, git operations): by its class (door-entries.ts).
 * The ledger's cleanup (Scratch.cleanup) then undoes each entry not already undone (an object whose
 * delete the caller sent and the server accepted) and reads it back.
 */
export function enterWrites(
  door: HttpClient,
  api: Api,
  ledgerOf: () => { scratch: Scratch; cleaning: boolean } | undefined,
  served: () => Promise<ServedModel | undefined>,
): () => void {
  const records = new WeakMap<Scratch, Map<string, Promise<RecordEntry>>>();
  const removals = new WeakMap<Scratch, Map<string, { removed(): void }>>();
  // The members the caller made (`/users/12` after `POST /users` answered id 12): a write to one is
  // no record to put back. A server may give the id of one the caller deleted to someone else's
  // object next (the highest id plus one), and putting the caller's object back would write there.
  const made = new WeakMap<Scratch, Set<string>>();
  const others = new DoorEntries(api);
  const stopBefore = door.beforeWrite(async (method, url) => {
    const ledger = ledgerOf();
    const scratch = ledger && !ledger.cleaning ? ledger.scratch : undefined;
    if (scratch) await others.before(scratch, method, url.pathname);
    const found = scratch && recordOf(method, url.pathname);
    // An object the caller made is removed at cleanup, not put back: what it held before needs no read.
    if (!scratch || !found || removals.get(scratch)?.has(url.pathname) || made.get(scratch)?.has(url.pathname)) return;
    const mine = records.get(scratch) ?? new Map<string, Promise<RecordEntry>>();
    records.set(scratch, mine);
    const key = operationKey("GET", fillPath(found.read.path, found.params));
    if (mine.has(key)) return;
    // The wrappers the server's own document declares for the read (none where it serves no document, or does not describe the read).
    const read = (await served().catch(() => undefined))?.find("GET", found.read.path);
    const entry = readBefore(api, found.write, found.read, found.params, read ? wrappersOf(read.op, 200) : []);
    mine.set(key, entry);
    const settled = await entry;
    scratch.onCleanup(
      `${found.write.method} ${url.pathname}: what ${fillPath(found.read.path, found.params)} held before`,
      () => {
        // Undone once: a check run again reads it anew before its first write.
        mine.delete(key);
        return putBack(api, settled);
      },
      true,
    );
  });
  const stopWatch = door.watch((exchange, answer) => {
    if (!answer || !tookWrite(answer.method, answer.status)) return;
    const ledger = ledgerOf();
    if (!ledger) return;
    const { scratch } = ledger;
    // An object's own delete, accepted (the check's undo, or its rule): its entry is undone.
    const undone = answer.method === "DELETE" ? removals.get(scratch)?.get(answer.url.pathname) : undefined;
    if (undone) {
      undone.removed();
      removals.get(scratch)!.delete(answer.url.pathname);
    }
    const undidEntry = others.deleted(scratch, answer);
    // The cleanup's own writes are undos, not entries.
    if (ledger.cleaning) return;
    const found = recordOf(answer.method, answer.url.pathname);
    if (found)
      void records
        .get(scratch)
        ?.get(operationKey("GET", fillPath(found.read.path, found.params)))
        ?.then(
          (e) => {
            e.accepted = true;
            const sent = bodyFields(answer.requestBody);
            for (const f of sent) e.fields.add(f);
            e.together.push(sent);
          },
          // A read before that failed (the run stopped as it went out) has its own awaiter, the
          // write that asked for it; here there is no entry to add this write to, and no rejection
          // may go unhandled (vitest caught eleven when a stop met a check's second write).
          () => undefined,
        );
    else {
      const member = madeMember(answer);
      if (member) made.set(scratch, (made.get(scratch) ?? new Set()).add(member));
      const entered = enterObject(scratch, api, exchange, answer);
      if (entered) removals.set(scratch, (removals.get(scratch) ?? new Map()).set(entered.path, entered.handle));
      if (!undidEntry) others.enter(scratch, answer);
    }
  });
  return () => {
    stopBefore();
    stopWatch();
  };
}

const PUT_BACK: readonly WriteClass[] = ["writes", "admin-writes", "deployment-changes"];
/** The classes whose creates the door removes at cleanup, once their read shows them the caller's own. */
const REMOVED: readonly WriteClass[] = ["writes", "admin-writes", "deployment-lifecycle"];

/** The record a write changes, where the table has a read of it. */
function recordOf(method: string, path: string): { write: Operation; read: Operation; params: PathParams } | undefined {
  if (method !== "PUT" && method !== "PATCH") return undefined;
  const row = matchOperation(OPERATIONS, method, path);
  // What the run changes and puts back (E6, the admin's records, the run's own objects): a row of the
  // class "never" (data-model files) or "unremovable-writes" (environment variables) reads back a
  // list, not a record: door-entries.ts enters it.
  if (!row || !PUT_BACK.includes(row.operation.write)) return undefined;
  const read = readerOf(row.operation);
  return read && { write: row.operation, read, params: row.params };
}

/** The top-level fields of a request body: what a write to a record changed. */
function bodyFields(text: string | undefined): string[] {
  try {
    const body = text === undefined ? undefined : JSON.parse(text);
    return body && typeof body === "object" && !Array.isArray(body) ? Object.keys(body) : [];
  } catch {
    return [];
  }
}

/** The workspace lists, by their rows: what an object created into one of them is. */
const WORKSPACE_LISTS: Partial<Record<OperationName, ItemType>> = { listWorkbooks: "WORKBOOK", listReports: "REPORT", listFolders: "FOLDER" };

/** The path of the member a create made, where the table reads it there (`POST /users` answered id 12: `/users/12`). */
function madeMember(answer: FullAnswer): string | undefined {
  const id = answer.method === "POST" ? ownId(answer.body) : undefined;
  if (id === undefined || answer.url.pathname.split("/").map(decode).includes(id)) return undefined;
  const path = `${answer.url.pathname.replace(/\/+$/, "")}/${encodeURIComponent(id)}`;
  return matchOperation(OPERATIONS, "GET", path) ? path : undefined;
}

/** Enters the object a write made; for one of the table's creates, the path of its delete and the handle that marks it undone. */
function enterObject(scratch: Scratch, api: Api, exchange: Exchange, answer: FullAnswer): { path: string; handle: { removed(): void } } | undefined {
  const row = matchOperation(OPERATIONS, answer.method, answer.url.pathname);
  const id = ownId(answer.body);
  // A write addressed to an object by its id answers with that object: only an id its path does not carry is one it made.
  if (!row || id === undefined || answer.url.pathname.split("/").map(decode).includes(id)) return undefined;
  const record = unwrapped(answer.body) as any;
  // One of the tool's fixed user attributes (made where the server documents no delete): it stays, as the plan announces.
  if (Object.values(record ?? {}).some(isFixedAttributeName)) return undefined;
  const dep = row.params.deploymentId;
  const listedIn = answer.method === "POST" ? matchOperation(OPERATIONS, "GET", answer.url.pathname)?.operation.name : undefined;
  const type: ItemType | undefined = ["WORKBOOK", "REPORT", "FOLDER"].includes(record?.type) ? record.type : WORKSPACE_LISTS[listedIn as OperationName];
  if (dep !== undefined && type && Number.isSafeInteger(Number(id))) {
    scratch.track(dep, { type, id: Number(id) }, { res: { exchange, headers: exchange.responseHeaders ?? {} } });
    return undefined;
  }
  // Only what the run makes and removes (the classes "writes", "admin-writes", and a deployment the
  // run creates): a job a row of the class "never" starts (a dbt sync) is cancelled, not removed (door-entries.ts).
  const removable = answer.method === "POST" && REMOVED.includes(row.operation.write);
  // Under either prefix: a deployment is created under /build/api/v1 and deleted under /api/v1.
  const remove = removable ? OPERATIONS.find((o) => o.method === "DELETE" && isMemberPath(unprefixed(row.operation), unprefixed(o))) : undefined;
  if (!remove) return undefined;
  const member = OPERATIONS.find((o) => o.method === "GET" && operationKey("GET", o.path) === operationKey("GET", remove.path));
  const list = listAt(row.operation);
  const listPath = list ? fillPath(list.path, row.params) : answer.url.pathname;
  const idName = lastPlaceholder(remove.path)!;
  const path = fillPath(remove.path, { ...row.params, [idName]: id });
  const read = async (): Promise<ReadBack> => {
    if (member) {
      const res = await api.get(path);
      return { status: res.status, isJson: res.isJson, body: unwrapped(res.body) };
    }
    const entry = (await listAll(api, listPath)).find((r) => String(r?.id) === id);
    return entry ? { status: 200, isJson: true, body: entry } : { status: 404, isJson: false, body: undefined };
  };
  const handle = scratch.removeIfOwn({
    what: `${row.operation.name} ${id} (${path})`,
    read,
    owns: (r) => r.status === 200 && carriesPrefix(r.body, scratch.prefix),
    remove: () => api.send({ method: "DELETE", path }),
    removal: `curl -X DELETE '${new URL(path, api.baseUrl)}' -H 'Authorization: Bearer $API_KEY'`,
  });
  return { path, handle };
}

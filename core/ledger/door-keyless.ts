import type { FullAnswer } from "../transport/http.js";
import { decode, isMemberPath, lastPlaceholder, matchOperation } from "../api/match.js";
import { type Operation, OPERATIONS } from "../api/operations.js";
import { READ_METHODS } from "../api/methods.js";
import { remembered } from "../model/remembered.js";

/** A key that names an object: `id`, or a reference to one (`deploymentId`, `folder_id`). */
const ID_KEY = /^id$|Id$|_id$/;
/** The most values one answer is searched through: a huge list still shows its ids long before. */
const MAX_NODES = 20_000;

/**
 * The ids the run has met, as the door saw them: those the server showed in its answers (found),
 * and those the answers to the run's own writes named as what they made, each with its kind. A
 * request sent on purpose without a key (the missing-credential probes) may reach the second and
 * ids that name nothing, never the first: a server that checks the key late, or not at all, would
 * act on it. An id the run made licenses only an object of the kind it made (workbook 17 is not
 * deployment 17).
 */
export class KnownIds {
  private readonly found = new Set<string>();
  /** Each id the run made, with the kinds it made under it (undefined: a write the table does not name). */
  private readonly made = new Map<string, Set<string | undefined>>();

  see(answer: FullAnswer): void {
    if (answer.status < 200 || answer.status >= 300 || !answer.isJson) return;
    if (READ_METHODS.includes(answer.method)) {
      for (const id of idsIn(answer.body)) this.found.add(id);
      return;
    }
    // A write addressed to an object by its id answers with that object: only an id its path does
    // not carry (a create's, an upsert by slug's, a clone's) is one the write made.
    const own = ownId(answer.body);
    const segments = answer.url.pathname.split("/").map(decode);
    if (own === undefined || segments.includes(own)) return;
    const row = matchOperation(OPERATIONS, answer.method, answer.url.pathname);
    this.made.set(own, (this.made.get(own) ?? new Set()).add(row && kindMade(row.operation)));
  }

  /**
   * Why a request sent without the run's key may not go, or undefined: a write that would change
   * or remove an object the run found and did not make, of that kind. The object a request acts
   * on is its row's last placeholder (`DELETE .../deployments/{deploymentId}`), whose name is its
   * kind; a create of the run's own objects (a POST of the classes "writes" and "admin-writes")
   * acts on none. A write the table does not name may act on any object its path names.
   */
  refuses(method: string, path: string): string | undefined {
    if (READ_METHODS.includes(method)) return undefined;
    const row = matchOperation(OPERATIONS, method, path);
    if (actsOnNone(method, path)) return undefined;
    const kind = row && lastPlaceholder(row.operation.path);
    const targets = row ? (kind === undefined ? [] : [row.params[kind]]) : path.split("/").filter(Boolean).map(decode);
    const mine = (id: string) => (row ? this.made.get(id)?.has(kind) : this.made.has(id));
    const found = targets.find((id) => this.found.has(id) && !mine(id));
    return found === undefined
      ? undefined
      : `a request without a key to ${found}, an object the server showed and the run did not make${row ? ` as a ${kind}` : ""}: a keyless probe goes to reads, the run's own objects or ids that name nothing`;
  }
}

/**
 * Whether a write acts on no object its path names: a create of the run's own objects, a POST of
 * the table's classes "writes" and "admin-writes" (its path names only the parents of what it
 * makes). A write the table does not name may act on any object its path names.
 */
export function actsOnNone(method: string, path: string): boolean {
  const write = method === "POST" ? matchOperation(OPERATIONS, method, path)?.operation.write : undefined;
  return write === "writes" || write === "admin-writes";
}

/** A row's path without its prefix (`/api/v1`, `/build/api/v1`): the same objects are addressed under either. */
export const unprefixed = (o: Operation) => o.path.slice(o.prefix.length);

/**
 * The kind of object a write makes, as the table names it: the placeholder another row addresses
 * one such object by (`folderId` of `DELETE .../folders/{folderId}`, for `POST .../folders`). The
 * collection is the write's path shortened a segment at a time until another row addresses a
 * member of it: `workbookId` for a clone (`.../workbooks/{workbookId}/duplicate`) and an upsert
 * by slug (`.../workbooks/by-slug/{slug}`) alike; `deploymentId` for `POST /build/api/v1/deployments/`.
 */
const kindMade = (write: Operation) => remembered(kindsMade, write, collectionMemberOf);
/** Each write's kind, found once: a run's creates asked the table again each time. */
const kindsMade = new Map<Operation, string | undefined>();
function collectionMemberOf(write: Operation): string | undefined {
  const segments = unprefixed(write).split("/");
  for (let n = segments.length; n > 1; n--) {
    const collection = segments.slice(0, n).join("/");
    const member = OPERATIONS.find((o) => o !== write && isMemberPath(collection, unprefixed(o)));
    if (member) return lastPlaceholder(member.path);
  }
  return undefined;
}

/** Whether a key names an id, told once per key (core/model/remembered.ts). */
const idKeys = new Map<string, boolean>();
const isIdKey = (k: string) => remembered(idKeys, k, (key) => ID_KEY.test(key));

/** The ids an answer names, wherever it keeps them (bounded: a list of thousands shows them all well before). */
export function idsIn(body: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [body];
  for (let n = 0; stack.length && n < MAX_NODES; n++) {
    const v = stack.pop();
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v && typeof v === "object")
      for (const k in v) {
        const x = (v as Record<string, unknown>)[k];
        if (isIdKey(k) && (typeof x === "string" || typeof x === "number")) out.push(String(x));
        else if (x && typeof x === "object") stack.push(x);
      }
  }
  return out;
}

/** The wrappers the table's answers use around one object. */
const WRAPPERS = ["data", "item", "deployment"];
const isRecord = (x: unknown): x is Record<string, unknown> => !!x && typeof x === "object" && !Array.isArray(x);

/**
 * The object an answer carries: the body itself when it has an id, else under the table's
 * wrappers, else under the one key of a body that has no other (a server's own wrapper, as in
 * `{"syncJob": {...}}`, which E14 leaves open), a few levels deep.
 */
export function unwrapped(body: unknown): unknown {
  let record = body;
  for (let depth = 0; depth < 3 && isRecord(record) && record.id === undefined; depth++) {
    const here = record;
    const keys = Object.keys(here);
    const key = WRAPPERS.find((k) => isRecord(here[k])) ?? (keys.length === 1 && isRecord(here[keys[0]!]) ? keys[0] : undefined);
    if (key === undefined) break;
    record = here[key];
  }
  return record;
}

/** The id of the object a write's answer carries (unwrapped). */
export function ownId(body: unknown): string | undefined {
  const id = (unwrapped(body) as { id?: unknown } | undefined)?.id;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

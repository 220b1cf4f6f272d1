import { isDeepStrictEqual } from "node:util";
import { ENV_VAR_POOL } from "../api/fixed-names.js";
import type { Api } from "../transport/api.js";
import type { FullAnswer } from "../transport/http.js";
import { fillPath, isMemberPath, lastPlaceholder, matchOperation, operationKey } from "../api/match.js";
import { type Operation, OPERATIONS, type WriteClass } from "../api/operations.js";
import { idsIn, ownId, unprefixed, unwrapped } from "./door-keyless.js";
import { listAll } from "./ownership.js";
import { LeftBehind } from "./left-behind.js";
import type { Scratch } from "./scratch.js";

/**
 * The door's entries for the accepted writes neither an object's removal nor a record's put-back
 * covers (door-ledger.ts): the classes whose undo is no delete of what they made.
 * - "unremovable-writes" (environment variables): the list at the write's path is read before the
 *   first write; at cleanup, a name the run set is either one of the tool's fixed names (announced
 *   in the plan) or reads as it did, else it is a leftover with the read that shows it.
 * - "deployment-lifecycle": a deployment the run created is removed as an object (door-ledger.ts);
 *   every write addressed into it (its setup wizard, git operations, branches, files) goes with it.
 * - "never" and "git-operations" elsewhere: a write whose table has an undo row (a DELETE at its
 *   path, or at the member it made: dev mode stopped, a branch deleted, a dbt sync cancelled) is
 *   undone once that DELETE passes the door, else the door sends it at cleanup; a write naming a
 *   branch such an entry made goes with that branch; anything else is a leftover.
 * Each is checked at cleanup after the caller's own undos, and its leftover read once more before
 * the report (LeftBehind).
 */

/** The classes that are objects or records the door's ledger keeps otherwise (door-ledger.ts), or no write at all. */
const KEPT_ELSEWHERE: readonly WriteClass[] = ["read", "writes", "admin-writes", "deployment-changes", "unnamed-operations"];

/** The table's GET row at the same path as a write (its list), under either prefix. */
export function listAt(write: Operation): Operation | undefined {
  return OPERATIONS.find((o) => o.method === "GET" && operationKey("GET", unprefixed(o)) === operationKey("GET", unprefixed(write)));
}

/** The table's undo of a write: a DELETE at its own path, else at a member of it (what the write made), under either prefix. */
function undoOf(write: Operation): { row: Operation; member: boolean } | undefined {
  const own = OPERATIONS.find((o) => o.method === "DELETE" && operationKey("DELETE", unprefixed(o)) === operationKey("DELETE", unprefixed(write)));
  if (own) return { row: own, member: false };
  const member = OPERATIONS.find((o) => o.method === "DELETE" && isMemberPath(unprefixed(write), unprefixed(o)));
  return member && { row: member, member: true };
}

/** Every string a request carries (its query and its JSON body, bounded): the names it acts on. */
function stringsOf(answer: FullAnswer): string[] {
  const out = [...answer.url.searchParams.values()];
  let body: unknown;
  try {
    body = answer.requestBody === undefined ? undefined : JSON.parse(answer.requestBody);
  } catch {
    return out;
  }
  const stack = [body];
  for (let n = 0; stack.length && n < 10_000; n++) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (v && typeof v === "object") stack.push(...Object.values(v));
  }
  return out;
}

/** The names an env-var write set: the `name` of each object of its body (E14 shows no shape: wherever it keeps them). */
function namesSet(answer: FullAnswer): string[] {
  try {
    const out: string[] = [];
    const stack: unknown[] = [JSON.parse(answer.requestBody ?? "null")];
    for (let n = 0; stack.length && n < 10_000; n++) {
      const v = stack.pop();
      if (Array.isArray(v)) stack.push(...v);
      else if (v && typeof v === "object") {
        if (typeof (v as { name?: unknown }).name === "string") out.push((v as { name: string }).name);
        else stack.push(...Object.values(v));
      }
    }
    return out;
  } catch {
    return [];
  }
}

/** A write with an undo row, not yet undone. */
interface Undoable {
  what: string;
  path: string;
  /** The run's name it carried (a branch's), which its undo carries too. */
  name?: string;
  undone: boolean;
}

/** One ledger's entries. */
class Entries {
  /** Deployments this ledger created: what is written into them goes with them. */
  readonly deployments = new Set<string>();
  /** The names and ids this ledger's entries made (a branch, an upload session): a write that names one goes with it. */
  readonly owned = new Set<string>();
  /** Each env-var list the ledger wrote to, as read before its first write, and the names it set there. */
  readonly lists = new Map<string, { before: Promise<Map<string, unknown> | Error>; names: Set<string> }>();
  readonly undoables: Undoable[] = [];
  readonly unpaired: string[] = [];
}

/**
 * The run's name a write gives what it makes: a prefixed string under a top-level key that is a
 * name (`name`, `branchName`), else the first prefixed string it carries (a branch's parent is no name).
 */
function nameGiven(answer: FullAnswer, strings: string[], prefix: string): string | undefined {
  const own = (s: unknown): s is string => typeof s === "string" && s.toLowerCase().includes(prefix.toLowerCase());
  try {
    const body = JSON.parse(answer.requestBody ?? "null");
    const named = body && typeof body === "object" ? Object.entries(body).find(([k, v]) => /name/i.test(k) && own(v)) : undefined;
    if (named) return named[1] as string;
  } catch {
    // Not JSON: its query's strings.
  }
  return strings.find(own);
}

/** A job status that says it ended: succeeded, failed, cancelled, finished, completed, done, errored, timed out. */
const ENDED = /succe|fail|cancel|finish|complet|done|error|timed.?out|abort|stopp/i;

const valuesByName = (entries: any[]) => new Map(entries.filter((e) => typeof e?.name === "string").map((e) => [e.name as string, e.value]));

export class DoorEntries {
  private readonly ledgers = new WeakMap<Scratch, Entries>();
  constructor(private readonly api: Api) {}

  private of(scratch: Scratch): Entries {
    let e = this.ledgers.get(scratch);
    if (!e) {
      const entries = new Entries();
      this.ledgers.set(scratch, (e = entries));
      // After the caller's own undos (`last`), which know best how to undo what they did.
      scratch.onCleanup("the writes the door entered without an undo of their own", () => this.check(scratch, entries), true);
    }
    return e;
  }

  /** Before a write of an unremovable class: its list as it was, read once per ledger. */
  async before(scratch: Scratch, method: string, path: string): Promise<void> {
    const row = matchOperation(OPERATIONS, method, path);
    if (row?.operation.write !== "unremovable-writes") return;
    const list = listAt(row.operation);
    if (!list) return;
    const at = fillPath(list.path, row.params);
    const e = this.of(scratch);
    if (!e.lists.has(at)) {
      const before = listAll(this.api, at).then(valuesByName, (err: Error) => err);
      e.lists.set(at, { before, names: new Set() });
      await before;
    }
  }

  /** An accepted write (not a DELETE that undid an entry: `deleted`), entered by its class. */
  enter(scratch: Scratch, answer: FullAnswer): void {
    const row = matchOperation(OPERATIONS, answer.method, answer.url.pathname);
    if (!row || KEPT_ELSEWHERE.includes(row.operation.write)) return;
    const e = this.of(scratch);
    const own = ownId(answer.body);
    const dep = row.params.deploymentId;
    // A deployment the ledger made: its removal is door-ledger.ts's; what is written into it goes with it.
    if (row.operation.write === "deployment-lifecycle" && answer.method === "POST" && dep === undefined && own !== undefined) {
      e.deployments.add(own);
      return;
    }
    if (dep !== undefined && e.deployments.has(dep)) return;
    const list = listAt(row.operation);
    if (row.operation.write === "unremovable-writes" && list) {
      for (const n of namesSet(answer)) e.lists.get(fillPath(list.path, row.params))?.names.add(n);
      return;
    }
    const strings = stringsOf(answer);
    const undo = answer.method === "POST" ? undoOf(row.operation) : undefined;
    const id = undo?.member ? own : undefined;
    if (undo && (!undo.member || id !== undefined)) {
      const name = nameGiven(answer, strings, scratch.prefix);
      const path = fillPath(undo.row.path, undo.member ? { ...row.params, [lastPlaceholder(undo.row.path)!]: id! } : row.params);
      e.undoables.push({ what: `${row.operation.name} (${answer.method} ${answer.url.pathname})`, path, name, undone: false });
      for (const x of [name, own]) if (x !== undefined) e.owned.add(x);
      return;
    }
    // A write that names what an entry of this ledger made (its branch, its upload session, in its
    // path or its body) goes with it, and so does what it makes in turn.
    if ([...Object.values(row.params), ...strings].some((x) => e.owned.has(x))) {
      for (const x of idsIn(answer.body)) e.owned.add(x);
      return;
    }
    e.unpaired.push(
      `${row.operation.name} (${answer.method} ${answer.url.pathname}) was accepted and the table has no undo for it, in deployment ${dep ?? "(none)"} the run did not create: not undone; what it sent: curl -X ${answer.method} '${answer.url}' -H 'Authorization: Bearer $API_KEY'${answer.requestBody ? ` -H 'Content-Type: application/json' -d '${answer.requestBody}'` : ""}`,
    );
  }

  /**
   * An accepted DELETE (the caller's, its cleanup's too) undoes the entries at its path that carry
   * the name it carries (or all there, when it carries none): whether it undid one.
   */
  deleted(scratch: Scratch, answer: FullAnswer): boolean {
    const e = this.ledgers.get(scratch);
    if (!e || answer.method !== "DELETE") return false;
    const strings = stringsOf(answer);
    const at = e.undoables.filter((u) => !u.undone && u.path === answer.url.pathname && (u.name === undefined || !strings.length || strings.includes(u.name)));
    for (const u of at) u.undone = true;
    return at.length > 0;
  }

  /**
   * Whether a job whose cancel was refused (a 4xx other than the key's or the rate's) has ended on
   * its own: its read answers it gone, or shows a status of a job that finished (E14 shows no
   * shape; the words a status of a finished job is spelled with).
   */
  private async ended(status: number, path: string): Promise<boolean> {
    if (status < 400 || status >= 500 || [401, 403, 429].includes(status)) return false;
    const read = await this.api.get(path);
    if (read.status === 404 || read.status === 410) return true;
    const job = read.status === 200 && read.isJson ? (unwrapped(read.body) as { status?: unknown } | undefined) : undefined;
    return typeof job?.status === "string" && ENDED.test(job.status);
  }

  /**
   * At cleanup: the door's own undo  /**
   * At cleanup: the door's own undo of what the caller did not undo (a DELETE at the write's path,
   * or the member it made), then what is still not as before, thrown with the read that shows it.
   */
  private async check(scratch: Scratch, e: Entries): Promise<void> {
    this.ledgers.delete(scratch);
    const left: string[] = [...e.unpaired];
    for (const u of e.undoables.filter((x) => !x.undone)) {
      const res = await this.api.send({ method: "DELETE", path: u.path });
      // Gone already (404, 410), or no longer running (409: a sync that ended; a 4xx whose own read says it ended), is undone too.
      if (res.status >= 300 && ![404, 409, 410].includes(res.status) && !(await this.ended(res.status, u.path)))
        left.push(
          `${u.what} was not undone: DELETE ${u.path} answered ${res.status} ${res.text.slice(0, 120)}; to undo it: curl -X DELETE '${new URL(u.path, this.api.baseUrl)}'${u.name ? ` (naming ${u.name})` : ""} -H 'Authorization: Bearer $API_KEY'`,
        );
    }
    const unread = left.length > 0;
    left.push(...(await this.envLeft(e)));
    if (!left.length) return;
    // Read once more before the report: an env var put back by then is not reported; a write the table cannot read stays.
    throw new LeftBehind(left.join("; "), async () => unread || (await this.envLeft(e)).length > 0);
  }

  /** The names outside the tool's fixed ones that an env-var list does not read as before. */
  private async envLeft(e: Entries): Promise<string[]> {
    const out: string[] = [];
    for (const [at, { before, names }] of e.lists) {
      const theirs = [...names].filter((n) => !ENV_VAR_POOL.includes(n));
      if (!theirs.length) continue;
      const was = await before;
      const now = await listAll(this.api, at).then(valuesByName);
      const curl = `curl '${new URL(at, this.api.baseUrl)}' -H 'Authorization: Bearer $API_KEY'`;
      for (const n of theirs) {
        if (was instanceof Error) out.push(`environment variable ${n} was set, but what ${at} held before is not known (${was.message}); read it: ${curl}`);
        else if (!was.has(n) && now.has(n))
          out.push(`environment variable ${n} was added (the API cannot delete it), a name outside the tool's fixed ones (read: GET ${at}); ${curl}`);
        else if (was.has(n) && !isDeepStrictEqual(now.get(n), was.get(n)))
          out.push(`environment variable ${n} reads ${JSON.stringify(now.get(n))}, was ${JSON.stringify(was.get(n))} (read: GET ${at}); ${curl}`);
      }
    }
    return out;
  }
}

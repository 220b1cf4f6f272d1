import type { Api } from "../../core/transport/api.js";
import type { Operation } from "../../core/served/served-document.js";
import { matchOperation } from "../../core/api/match.js";

/** The first array of records an answer carries: the answer itself, `items`, `data`, or an array under `data`. */
function firstRecords(body: unknown): ListedRecord[] {
  const b = body as { items?: unknown; data?: unknown } | null | undefined;
  const candidates = [body, b?.items, b?.data, ...(b?.data && typeof b.data === "object" ? Object.values(b.data) : [])];
  const list = candidates.find((c): c is unknown[] => Array.isArray(c) && c.some((x) => x && typeof x === "object")) ?? [];
  return list.filter((x): x is ListedRecord => !!x && typeof x === "object");
}

/** A record a list shows, read field by field. */
type ListedRecord = Record<string, unknown>;

/** Pages a search for an id of the named kind reads at most. */
const MAX_ID_PAGES = 10;

const isDeploymentParam = (name: string) => /^deployment_?id$/i.test(name);
/** A parameter that names an object of some kind: `folderId`, `user_id`, `branchName`. */
const NAMES_OBJECT = /(_?id|Id|Name)$/;

/**
 * Values for path placeholders, from what the run discovered: the deployment under test, and for
 * any other the first record of the named kind in its collection (the documented GET of the path
 * up to it), by the placeholder's own name or `id`. Undefined where no such list exists or it is empty.
 */
export class PathIds {
  private readonly lists = new Map<string, Promise<ListedRecord[]>>();
  /** Ids of objects the run made, by the placeholder name that addresses them: sub-resources go under them. */
  private readonly pinned = new Map<string, string>();
  private readonly resolving = new Set<string>();
  /** Values taken from the run's own records, where nothing else was listed: another check may remove them at any time. */
  private readonly runOwnValues = new Set<string>();
  /**
   * `runPrefix` starts the names of what this run creates (core/ledger/scratch.ts): those objects come and
   * go while checks run side by side, so an id is taken from them only when nothing else is listed.
   */
  constructor(
    private readonly api: Api,
    private readonly ops: Operation[],
    private readonly deploymentId: string,
    private readonly runPrefix?: string,
  ) {}

  /**
   * Chains of several resources run at once (suites/documented/chains.ts): one filling at a time, so
   * that the guard against a kind that names itself (`resolving`) never takes another chain's search for one.
   */
  private queue: Promise<unknown> = Promise.resolve();
  private serially<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  fill(path: string): Promise<string | undefined> {
    return this.serially(() => this.fillNow(path));
  }

  private async fillNow(path: string): Promise<string | undefined> {
    let out = "";
    let rest = path;
    for (let m = /\{([^}]+)\}/.exec(rest); m; m = /\{([^}]+)\}/.exec(rest)) {
      const before = rest.slice(0, m.index);
      const value = await this.valueFor(m[1], out + before.replace(/\/$/, ""));
      if (value === undefined) return undefined;
      out += before + encodeURIComponent(value);
      rest = rest.slice(m.index + m[0].length);
    }
    return out + rest;
  }

  /** From now on `{name}` (and a body field of that name) means this object of the run's own. */
  pin(name: string, id: string): void {
    this.pinned.set(name, id);
  }

  pinnedAs(name: string): string | undefined {
    return this.pinned.get(name);
  }

  /**
   * Whether a filled path names an object of the run's own taken from a list (nothing else was
   * listed): a 404 to it may be another check's removal, not the server's answer to the read.
   */
  namesRunOwn(path: string): boolean {
    return path.split("/").some((segment) => this.runOwnValues.has(decodeURIComponent(segment)));
  }

  /**
   * Values of the optional query parameters of a read that name an object of a kind the document
   * lists (`folderId`, `branchName`): a discovered one, as a client would send, where a made-up one
   * would only read as missing.
   */
  knownQuery(op: Operation): Promise<Record<string, string>> {
    return this.serially(() => this.knownQueryNow(op));
  }

  private async knownQueryNow(op: Operation): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const p of op.parameters.filter((x) => x.in === "query" && !x.required && NAMES_OBJECT.test(x.name) && !isDeploymentParam(x.name))) {
      const v = await this.byKind(p.name);
      if (v !== undefined) out[p.name] = v;
    }
    return out;
  }

  /**
   * An object of the kind a name gives (`userId`, `branchName`: user, branch) from the list the
   * document serves of that kind (the GET whose path ends in its plural): its `name` for a
   * `…Name`, else the named field or its `id`.
   */
  ofKind(name: string): Promise<string | undefined> {
    return this.serially(() => this.byKind(name));
  }

  private async byKind(name: string): Promise<string | undefined> {
    const kind = name.replace(NAMES_OBJECT, "").toLowerCase();
    // A list whose own path names an object of the kind it lists is no source of one.
    if (!kind || this.resolving.has(kind)) return undefined;
    this.resolving.add(kind);
    const plurals = [`${kind}s`, `${kind}es`, kind.replace(/y$/, "ies")];
    const gets = this.ops.filter((o) => o.method === "GET");
    const last = (o: Operation) => o.path.replace(/\/$/, "").split("/").pop()!.toLowerCase();
    // Where no list is named by the plural itself, one whose name ends in it: `tenantId` and
    // `embedTenantId` name an embed tenant (`/embed-tenants`).
    const exact = gets.filter((o) => plurals.includes(last(o)));
    const lists = exact.length ? exact : gets.filter((o) => plurals.some((p) => last(o).replace(/[-_]/g, "").endsWith(p)));
    try {
      // The first list of the kind that can be addressed and holds one (a repository's branches need an owner; a deployment's do not).
      for (const list of lists) {
        const path = await this.fillNow(list.path.replace(/\/$/, ""));
        const value = path === undefined ? undefined : await this.firstOf(path, /name$/i.test(name) ? "name" : name, kind);
        if (value !== undefined) return value;
      }
      return undefined;
    } finally {
      this.resolving.delete(kind);
    }
  }

  private async valueFor(name: string, collection: string): Promise<string | undefined> {
    if (isDeploymentParam(name)) return this.deploymentId;
    if (this.pinned.has(name)) return this.pinned.get(name);
    if (!matchOperation(this.ops, "GET", collection)) return this.byKind(name);
    const kind = name.replace(/_?id$/i, "").toLowerCase();
    return this.firstOf(collection, name, kind);
  }

  /** The first record of the kind that a collection lists (not the run's own where another is listed): its field `name`, else its id. */
  private async firstOf(collection: string, name: string, kind: string): Promise<string | undefined> {
    // A list may hold several kinds (E8: FOLDER, WORKBOOK, REPORT): `workbookId` names one of type WORKBOOK where records say their type.
    const isOfKind = (x: ListedRecord) => typeof x.type !== "string" || x.type.toLowerCase() === kind;
    const key = `${collection} ${kind}`;
    let records = this.lists.get(key);
    if (!records) {
      records = this.recordsUntil(collection, isOfKind).catch(() => []);
      this.lists.set(key, records);
    }
    const named = (await records).filter((x) => x[name] !== undefined || x.id !== undefined);
    const ofKind = named.filter(isOfKind);
    const candidates = ofKind.length ? ofKind : named;
    const first = candidates.find((x) => !this.ownedByRun(x)) ?? candidates[0];
    const v = first?.[name] ?? first?.id;
    if (v === undefined || v === null) return undefined;
    if (this.ownedByRun(first)) this.runOwnValues.add(String(v));
    return String(v);
  }

  /**
   * The records of a collection, page after page (cursor style, where its GET documents `after`)
   * until one of the named kind, not this run's own, shows: no order of a list is a rule, so a
   * first page may hold other kinds only (E8 may list every REPORT before the workbooks).
   *
   * A walk that found only the run's own records starts once more from the first page: other checks
   * remove their objects while it reads, and a cursor that stands for a position then skips what
   * moved up past it (a newest-first list of a hundred scratch workbooks, removed at once, ended
   * empty before the tenant's own).
   */
  private async recordsUntil(collection: string, isOfKind: (x: ListedRecord) => boolean): Promise<ListedRecord[]> {
    const othersShown = (records: ListedRecord[]) => records.some((x) => isOfKind(x) && !this.ownedByRun(x));
    const first = await this.walk(collection, othersShown, MAX_ID_PAGES);
    if (othersShown(first.records) || !first.records.some((x) => this.ownedByRun(x)) || first.pages >= MAX_ID_PAGES) return first.records;
    // The later walk's records are the fresher; a walk that read nothing keeps the one before.
    const again = await this.walk(collection, othersShown, MAX_ID_PAGES - first.pages);
    return again.records.length ? again.records : first.records;
  }

  /** One walk from the first page, within `budget` pages, until `enough` holds of what it read; the records and the pages read. */
  private async walk(collection: string, enough: (records: ListedRecord[]) => boolean, budget: number): Promise<{ records: ListedRecord[]; pages: number }> {
    const op = matchOperation(this.ops, "GET", collection)?.operation;
    const paged = op?.parameters.some((p) => p.in === "query" && p.name === "after");
    const records: ListedRecord[] = [];
    let query: Record<string, string> = {};
    let pages = 0;
    while (pages < budget) {
      const r = await this.api.get(collection, query);
      pages++;
      if (r.status !== 200 || !r.isJson) break;
      records.push(...firstRecords(r.body));
      const next = r.body?.pageInfo;
      if (enough(records) || !paged || next?.hasNextPage !== true || typeof next.endCursor !== "string") break;
      query = { after: next.endCursor };
    }
    return { records, pages };
  }

  private ownedByRun(record: Record<string, unknown>): boolean {
    return this.runPrefix !== undefined && Object.values(record).some((v) => typeof v === "string" && v.startsWith(this.runPrefix!));
  }
}

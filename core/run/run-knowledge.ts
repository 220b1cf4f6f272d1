import type { Seen } from "../api/input-domain.js";
import { remembered } from "../model/remembered.js";

/**
 * What the run was answered, as the input classes of core/api/input-domain.ts ask it: the ids of
 * each kind of object per deployment, the cursors pages gave, the strings each operation's answers
 * held. A value's class "an id of another deployment" or "a prefix of a stored email" is a fact
 * about the server's state that the run knows only from its answers; the tally (core/run/class-tally.ts)
 * asks this before it learns from the request's own answer, so a value is classed by what the run
 * knew when it chose it.
 */

/** Strings kept per operation: enough for the lists a run reads whole, bounded on a tenant with millions of rows. */
const STRINGS_PER_OPERATION = 20_000;
/** Nodes of one answer visited: a huge answer is learnt from in part. */
const NODES_PER_ANSWER = 50_000;
/** Keys under which an answer carries records of its operation's own kind (a list's page, a wrapper). */
const WRAPPERS = new Set(["items", "data", "moved", "results", "record", "workbook", "deployment"]);
/** The verbs of the operation table's names: what follows names the kind of its records. */
const VERB = /^(?:list|get|create|update|upsert|duplicate|delete|set)([A-Z][a-z]+)/;

/** Operations whose answer names an object they made: a freed id may be given again. */
const MAKES = /^(?:create|duplicate|upsert)/;

/** The kind of object an operation's records are: listWorkbooks, getWorkbook, upsertWorkbookBySlug are of workbooks. */
export function kindOfOperation(operation: string): string | undefined {
  return VERB.exec(operation)?.[1].toLowerCase().replace(/s$/, "");
}

/** What a key of an answer is to the run (bits), told once per key: answers repeat few keys over many records. */
const ID_REFERENCE = 1;
const CURSOR = 2;
const WRAPPER = 4;
const keyRoles = new Map<string, number>();
const keyRole = (k: string) =>
  remembered(keyRoles, k, (key) => (/^[a-z]+Id$/.test(key) ? ID_REFERENCE : 0) | (/cursor$/i.test(key) ? CURSOR : 0) | (WRAPPERS.has(key) ? WRAPPER : 0));
const kindNames = new Map<string, boolean>();

const scalar = (v: unknown): string | undefined => ((typeof v === "string" && v !== "") || typeof v === "number" ? String(v) : undefined);

export class RunKnowledge {
  /** kind → id → the deployments it was answered in ("" for an object no deployment scopes). */
  private readonly ids = new Map<string, Map<string, Set<string>>>();
  private readonly cursors = new Set<string>();
  private readonly strings = new Map<string, Set<string>>();
  /**
   * kind → ids a delete the server applied removed. A read answered before that delete may be
   * recorded after it (checks run side by side): it does not bring the id back, so that an id
   * no object has is told as such whatever the schedule. An answer that makes an object (a
   * server may give a freed id again) does.
   */
  private readonly gone = new Map<string, Set<string>>();

  /** What the run knew when it sent a request of `operation` into `deploymentId` (undefined: not scoped). */
  seenBy(operation: string, deploymentId: string | undefined): Seen {
    return {
      id: (kind, id) => {
        const deps = this.ids.get(kind)?.get(id);
        if (deps?.size) return deploymentId === undefined || deps.has("") || deps.has(deploymentId) ? "here" : "elsewhere";
        for (const [k, m] of this.ids) if (k !== kind && m.has(id)) return "other-kind";
        return "never";
      },
      cursor: (v) => this.cursors.has(v),
      stored: () => this.strings.get(operation),
    };
  }

  /** Learns from one JSON answer of `operation` sent into `deploymentId`; its strings only where asked (a filter is classed against them). */
  learn(operation: string, deploymentId: string | undefined, body: unknown, keepStrings: boolean): void {
    const strings = keepStrings ? this.storeOf(operation) : undefined;
    const makes = MAKES.test(operation);
    let budget = NODES_PER_ANSWER;
    const visit = (node: unknown, kind: string | undefined): void => {
      if (budget-- <= 0) return;
      if (Array.isArray(node)) {
        for (const n of node) visit(n, kind);
        return;
      }
      if (node === null || typeof node !== "object") return;
      const o = node as Record<string, unknown>;
      // A bulk move's items name their kind (`{type: "FOLDER", id}`); an environment's `type` is no kind of object.
      const own = typeof o.type === "string" && remembered(kindNames, o.type, (t) => /^[A-Z_]+$/.test(t)) ? o.type.toLowerCase() : kind;
      const dep = scalar(o.deploymentId) ?? deploymentId;
      for (const k in o) {
        const v = o[k];
        const role = keyRole(k);
        const value = scalar(v);
        if (value !== undefined && k === "id" && own) this.add(own, value, own === "deployment" ? "" : dep, makes);
        else if (value !== undefined && role & ID_REFERENCE) this.add(k.slice(0, -2), value, k === "deploymentId" ? "" : dep, makes);
        if (typeof v === "string") {
          if (role & CURSOR) this.cursors.add(v);
          if (strings && strings.size < STRINGS_PER_OPERATION) strings.add(v);
        } else visit(v, Array.isArray(v) || role & WRAPPER ? own : undefined);
      }
    };
    visit(body, kindOfOperation(operation));
  }

  /**
   * Forgets what a delete the server applied removed: the id its path names (`workbookId` of a
   * workbook), and the `{type, id}` items of a bulk delete's body. An id of a deleted object is an
   * id no object has, as the class "missing" means.
   */
  forget(operation: string, params: Record<string, string>, requestBody: unknown): void {
    // The object the delete names: the placeholder of its own kind, else its path's last id; never the deployment the path is under.
    const kind = kindOfOperation(operation);
    const ids = Object.entries(params).filter(([k]) => /^[a-z]+Id$/.test(k) && (k !== "deploymentId" || kind === "deployment"));
    const named = ids.find(([k]) => k === `${kind}Id`) ?? ids.at(-1);
    if (named) this.remove(named[0].slice(0, -2), named[1]);
    const items = (requestBody as { items?: unknown } | null)?.items;
    if (Array.isArray(items))
      for (const i of items) if (typeof i?.type === "string" && scalar(i.id) !== undefined) this.remove(i.type.toLowerCase(), scalar(i.id)!);
  }

  private remove(kind: string, id: string): void {
    this.ids.get(kind)?.delete(id);
    const gone = this.gone.get(kind) ?? new Set<string>();
    this.gone.set(kind, gone.add(id));
  }

  /** Learns the strings an answer that is no JSON held (the cells of a CSV export). */
  learnStrings(operation: string, values: Iterable<string>): void {
    const strings = this.storeOf(operation);
    for (const v of values) if (strings.size < STRINGS_PER_OPERATION) strings.add(v);
  }

  private storeOf(operation: string): Set<string> {
    const strings = this.strings.get(operation) ?? new Set<string>();
    this.strings.set(operation, strings);
    return strings;
  }

  private add(kind: string, id: string, deploymentId: string | undefined, makes: boolean): void {
    const gone = this.gone.get(kind);
    if (gone?.has(id)) {
      if (!makes) return;
      gone.delete(id);
    }
    const byId = this.ids.get(kind) ?? new Map<string, Set<string>>();
    this.ids.set(kind, byId);
    byId.set(id, (byId.get(id) ?? new Set()).add(deploymentId ?? ""));
  }
}

import type { Api } from "../transport/api.js";
import type { Response } from "../transport/http.js";
import { cloneCopies, type ConfirmedClone, unconfirmedCopies } from "./clone-copies.js";
import { NotVerifiable } from "../model/outcome.js";
import { deleteItems, type ItemRef, NOT_CONFIRMED, pathOf, removalCurl, type Seen, seenItems } from "./ownership.js";
import { matchOperation } from "../api/match.js";
import { OPERATIONS } from "../api/operations.js";
import { LeftBehind } from "./left-behind.js";

export type { ItemRef, ItemType } from "./ownership.js";
export { NOT_CONFIRMED } from "./ownership.js";

// The run's names (core/model/names.ts), given with the ledger that names what a check makes.
export { runPrefixOf, TOOL_NAME, TOOL_PREFIX } from "../model/names.js";
import { TOOL_NAME } from "../model/names.js";
import type { ServerClock } from "./server-clock.js";

/** One workspace object in the ledger: what made it, where, under which name. */
export interface Made {
  /** The operation that made it (`PUT /api/v1/deployments/1/workbooks/by-slug/…`). */
  operation: string;
  /** The deployment the run wrote to (the request's, never the answer's). */
  deploymentId: string;
  /** The item, and the server's clock when it answered the create (its Date header, ms): a clone's E9 createdAt is no earlier. */
  ref: ItemRef & { since?: number };
  /** The name or slug the run gave it, when the request carried one. */
  name?: string;
  /** The exchange that made it, as a curl line (redacted). */
  curl?: string;
  /** For a clone (E10), the workbook it was cloned from: the clone may have brought copies of its reports. */
  cloneOf?: number;
}

/** A non-workspace object the run made (a user, a notification, a document resource): removed only when its read shows it is the run's own. */
export interface OwnedObject {
  what: string;
  /** The read-back (the E14 read of its kind, or the whole list that holds it). */
  read: () => Promise<ReadBack>;
  /** Whether that read shows the run's object (its prefix, where the run made it). */
  owns: (read: ReadBack) => boolean;
  remove: () => Promise<Response | void>;
  /** The request that would remove it, for the report when the run does not. */
  removal: string;
  /** The collection it was created in (a list path the sweep reads for the prefix), and how one of its entries is removed. */
  collection?: { list: string; remove: (id: string) => Promise<Response | void> };
}

/** What a read-back answered: a read's answer, or a whole list walked. */
export type ReadBack = Pick<Response, "status" | "isJson" | "body">;

type Step = { what: string; undo: () => Promise<void> } | { owned: OwnedObject };

/**
 * The ledger of what one check made and changed on the server (each check has its own, so that
 * checks run side by side never clean up each other's objects). Everything made carries the prefix
 * (from the run's seed and the check's id); every change registers its undo. Cleanup removes an
 * object only when the ledger holds it and a read-back shows it is the check's own (its prefix, in
 * the deployment the check wrote to): an id an answer named is never removed on that alone. It
 * never deletes a deployment.
 */
export class Scratch {
  readonly prefix: string;
  private counter = 0;
  private readonly made = new Map<string, Made>();
  private readonly steps: Step[] = [];
  /** Deployments written to and collections created in, kept after cleanup: what the end-of-run sweep reads. */
  readonly deploymentsWritten = new Set<string>();
  readonly collections = new Map<string, NonNullable<OwnedObject["collection"]>>();
  /**
   * The leftovers of this ledger's cleanups, each with the read that shows it still there: read
   * once more before the report (stillLeft), and what is gone by then (404, absent from its list)
   * is not reported.
   */
  readonly rechecks = new Map<string, () => Promise<boolean>>();

  /** `clock`: the server's clock where its answers carry no Date header (core/ledger/server-clock.ts). */
  constructor(
    runId: string,
    private readonly clock?: ServerClock,
  ) {
    this.prefix = `cf-${runId}`;
  }

  /** A fresh name, recognisably the run's own. */
  name(label: string): string {
    return `${this.prefix}-${label}-${++this.counter}`;
  }

  /** A fresh slug: lowercase already, so a check can vary its case and spacing itself. */
  slug(label: string): string {
    return this.name(label)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-");
  }

  /** Enters a workspace object in the ledger, in the deployment the request wrote to; `made` tells which exchange made it. */
  track(deploymentId: string, item: ItemRef, made: { res?: Pick<Response, "exchange" | "headers">; name?: string } = {}): void {
    const x = made.res?.exchange;
    this.deploymentsWritten.add(deploymentId);
    // The server's clock at the answer; without a Date header, as the run's own creates showed it, at the request's sending.
    const date = Date.parse(made.res?.headers.date ?? "");
    const since = Number.isNaN(date) ? this.clock?.at(Date.now() - (x?.durationMs ?? 0)) : date;
    const clone = x ? matchOperation(OPERATIONS, x.method, x.url) : undefined;
    const cloneOf = clone?.operation.name === "duplicateWorkbook" ? Number(clone.params.workbookId) : undefined;
    this.made.set(key(deploymentId, item), {
      ref: { type: item.type, id: item.id, ...(since === undefined ? {} : { since }) },
      deploymentId,
      operation: x ? `${x.method} ${pathOf(x.url)}` : "(not recorded)",
      name: made.name,
      curl: x?.curl,
      ...(Number.isSafeInteger(cloneOf) ? { cloneOf } : {}),
    });
  }

  forget(deploymentId: string, item: ItemRef): void {
    this.made.delete(key(deploymentId, item));
  }

  /** Registers how to put back something the run changed; undone newest first. */
  onCleanup(what: string, undo: () => Promise<void>, last = false): void {
    // `last`: after every other undo (the door's read-back of a record, once the check's own undo has put it back its way).
    if (last) this.steps.unshift({ what, undo });
    else this.steps.push({ what, undo });
  }

  /**
   * Registers the removal of an object the run made outside the workspace; done only when its read
   * shows it is the run's own. `removed()`: the check deleted it itself and read it gone, so the
   * ledger has nothing left to do (its id may meanwhile name another object: a server may give a
   * freed id again).
   */
  removeIfOwn(owned: OwnedObject): { removed(): void } {
    const step = { owned };
    // One object, one entry: the later registration (the check's own, after the door's) replaces an earlier one with the same removal.
    const same = this.steps.findIndex((s) => "owned" in s && s.owned.removal === owned.removal);
    if (same >= 0) this.steps.splice(same, 1);
    this.steps.push(step);
    if (owned.collection) this.collections.set(owned.collection.list, owned.collection);
    return {
      removed: () => {
        const i = this.steps.indexOf(step);
        if (i >= 0) this.steps.splice(i, 1);
      },
    };
  }

  get pending(): number {
    return this.made.size + this.steps.length;
  }

  /** The ledger as it stands: for the report and the tests. */
  get entries(): Made[] {
    return [...this.made.values()];
  }

  /**
   * Before a check deletes or changes workspace items an answer named: whether each is the check's
   * own as the server shows it (E9, the folders or reports list). A check that meets one that is not
   * stops there (not verifiable): it never deletes what the run did not make.
   */
  async requireOwn(api: Api, dep: string, items: (ItemRef & { since?: number; parentId?: number | null })[]): Promise<void> {
    const seen = await seenItems(api, dep, items, this.prefix);
    const other = items.filter((i) => !seen.get(i)?.own);
    if (other.length)
      throw new NotVerifiable(
        `the server named ${other.map((i) => `${i.type} ${i.id} (${seen.get(i)?.shown || "not shown as the run's"})`).join(", ")} as what this check made, but does not show it as the run's own: not deleting or changing it`,
      );
  }

  /** Undoes changes, removes what is confirmed as the check's own; returns what it did not remove, for the report. */
  async cleanup(api: Api): Promise<string[]> {
    const leftovers: string[] = [];
    while (this.steps.length) {
      const step = this.steps.pop()!;
      try {
        if ("undo" in step) await step.undo();
        else leftovers.push(...this.recheck(await removeOwned(step.owned), async () => !gone(await step.owned.read())));
      } catch (err) {
        const left = `could not ${"undo" in step ? `restore ${step.what}` : `remove ${step.owned.what}`}: ${(err as Error).message}`;
        leftovers.push(...(err instanceof LeftBehind ? this.recheck([left], err.stillThere) : [left]));
      }
    }
    const byDeployment = new Map<string, Made[]>();
    for (const m of this.made.values()) byDeployment.set(m.deploymentId, [...(byDeployment.get(m.deploymentId) ?? []), m]);
    for (const [dep, made] of byDeployment) leftovers.push(...(await this.removeConfirmed(api, dep, made)));
    return leftovers;
  }

  /**
   * Reads every ledger entry back; what is the check's own is deleted, the rest reported with the
   * request that would remove it. The copies of reports a confirmed clone brought are entered as
   * made by that clone and go first (a server may keep them when the clone goes).
   */
  private async removeConfirmed(api: Api, dep: string, made: Made[]): Promise<string[]> {
    const seen = await seenItems(
      api,
      dep,
      made.map((m) => m.ref),
      this.prefix,
    );
    const own = made.filter((m) => seen.get(m.ref)?.own);
    const out: string[] = made
      .filter((m) => !seen.get(m.ref)?.own && !seen.get(m.ref)?.gone)
      .flatMap((m) => this.recheck([notConfirmed(api, m, seen.get(m.ref)!)], () => this.stillThere(api, dep, m.ref)));
    for (const m of made) if (!seen.get(m.ref)?.own) this.made.delete(key(dep, m.ref));
    const copies = await this.copiesOfClones(api, dep, own, seen);
    out.push(...copies.unconfirmed);
    out.push(...(await this.deleteAll(api, dep, [...copies.own, ...own.map((m) => ({ type: m.ref.type, id: m.ref.id }))])));
    return out;
  }

  /** The reports confirmed clones copied, entered in the ledger; those named but not confirmed, as the report says them. */
  private async copiesOfClones(api: Api, dep: string, own: Made[], seen: Map<ItemRef, Seen>): Promise<{ own: ItemRef[]; unconfirmed: string[] }> {
    const clones = new Map<number, Made>();
    const confirmed: ConfirmedClone[] = [];
    for (const m of own) {
      const record = seen.get(m.ref)?.record;
      if (m.cloneOf === undefined || !record) continue;
      clones.set(m.ref.id, m);
      confirmed.push({ id: m.ref.id, record, source: m.cloneOf, since: m.ref.since });
    }
    if (!confirmed.length) return { own: [], unconfirmed: [] };
    const copies = await cloneCopies(api, dep, confirmed, { check: this.prefix, tool: TOOL_NAME });
    for (const c of copies.own) {
      const by = clones.get(c.clone.id)!;
      this.made.set(key(dep, c.ref), { ref: c.ref, deploymentId: dep, operation: by.operation, name: c.name, curl: by.curl });
    }
    return { own: copies.own.map((c) => c.ref), unconfirmed: unconfirmedCopies(api.baseUrl, dep, copies, (id) => `made by ${clones.get(id)!.operation}`) };
  }

  private async deleteAll(api: Api, dep: string, items: ItemRef[]): Promise<string[]> {
    const { deleted, notDeleted } = await deleteItems(api, dep, items);
    for (const item of deleted) this.made.delete(key(dep, item));
    return notDeleted.flatMap(({ item, why }) =>
      this.recheck([`${item.type} ${item.id} in deployment ${dep} was not deleted: ${why}`], () => this.stillThere(api, dep, item)),
    );
  }

  /** Enters leftovers with the read that shows them still there. */
  private recheck(leftovers: string[], stillThere: () => Promise<boolean>): string[] {
    for (const l of leftovers) this.rechecks.set(l, stillThere);
    return leftovers;
  }

  /** Whether a workspace item still shows (E9, or its list), whoever's it is now. */
  private async stillThere(api: Api, dep: string, item: ItemRef): Promise<boolean> {
    return !(await seenItems(api, dep, [item], this.prefix)).get(item)?.gone;
  }
}

function notConfirmed(api: Api, m: Made, seen: Seen): string {
  return `${NOT_CONFIRMED}: ${m.ref.type} ${m.ref.id} in deployment ${m.deploymentId}, named by the answer to ${m.operation} (${seen.shown}); to remove it: ${removalCurl(api.baseUrl, m.deploymentId, [m.ref])}`;
}

/** A read that shows the object no more. */
const gone = (read: ReadBack) => read.status === 404 || read.status === 410;

async function removeOwned(o: OwnedObject): Promise<string[]> {
  const read = await o.read();
  // Already gone: nothing to remove (the sweep looks for it again by its prefix).
  if (gone(read)) return [];
  if (!o.owns(read))
    return [
      `${NOT_CONFIRMED}: ${o.what} (its read answered ${read.status}${read.isJson ? "" : " without JSON"}, not an object of the run's); to remove it: ${o.removal}`,
    ];
  const res = await o.remove();
  return res && res.status >= 300 && res.status !== 404 ? [`${o.what} was not removed: ${res.status} ${res.text.slice(0, 120)}`] : [];
}

const key = (dep: string, item: ItemRef) => `${dep}:${item.type}:${item.id}`;

/**
 * The leftovers as the report says them: each a ledger entered with its read is read once more,
 * and what is gone by now (someone removed it since, or a list lagged) is not reported. A read
 * that fails keeps the leftover: it is not shown gone.
 */
export async function stillLeft(leftovers: string[], ledgers: Scratch[]): Promise<string[]> {
  const reads = new Map<string, () => Promise<boolean>>();
  for (const l of ledgers) for (const [text, read] of l.rechecks) reads.set(text, read);
  const kept = await Promise.all(
    leftovers.map(
      async (l) =>
        (await reads
          .get(l)?.()
          .catch(() => true)) ?? true,
    ),
  );
  return leftovers.filter((_, i) => kept[i]);
}

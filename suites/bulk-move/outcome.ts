/**
 * What E12 says a batch does, worked out from where things are before it: items are taken one
 * at a time in the given order, duplicates collapsed; each either moves into the destination or
 * fails with the statuses the spec allows for it. Objects are named by handles ("folder A"); a
 * placement maps each handle to the handle of its folder (null: the root).
 */

export interface ItemFacts {
  folder: boolean;
  /** Never existed or deleted: a 404 (Errors 2). */
  missing: boolean;
}

export type ItemOutcome = { moved: true } | { moved: false; statuses: number[] };

export interface BatchOutcome {
  /** The distinct items, in the order of their first occurrence. */
  order: string[];
  outcomes: Map<string, ItemOutcome>;
  /** Where every placed handle is after the batch. */
  after: Map<string, string | null>;
}

/** Whether `folder` is `target` or one of its ancestors, in `placement`. */
export function containsOrIs(placement: ReadonlyMap<string, string | null>, folder: string, target: string | null): boolean {
  const seen = new Set<string>();
  for (let cur = target; cur !== null && !seen.has(cur); cur = placement.get(cur) ?? null) {
    if (cur === folder) return true;
    seen.add(cur);
  }
  return false;
}

/**
 * `callerMayMove` false: the caller may move none of the items (no edit access). Where more than
 * one rule applies, which the server checks first is not shown, so each applicable status is
 * accepted: a missing item the caller could not have moved anyway may be a 403 as well as a 404,
 * a folder sent into itself without access a 400 as well as a 403.
 */
export function expectedBatch(
  items: string[],
  destination: string | null,
  before: ReadonlyMap<string, string | null>,
  facts: ReadonlyMap<string, ItemFacts>,
  callerMayMove: boolean,
): BatchOutcome {
  const order = [...new Set(items)];
  const after = new Map(before);
  const outcomes = new Map<string, ItemOutcome>();
  for (const h of order) {
    const f = facts.get(h);
    if (!f) throw new Error(`no facts about ${h}`);
    const statuses: number[] = [];
    if (f.missing) statuses.push(404);
    if (!callerMayMove) statuses.push(403);
    if (!f.missing && f.folder && containsOrIs(after, h, destination)) statuses.push(400);
    if (statuses.length) outcomes.set(h, { moved: false, statuses });
    else {
      outcomes.set(h, { moved: true });
      after.set(h, destination);
    }
  }
  return { order, outcomes, after };
}

import type { Check, Share } from "../check/check.js";
import { RACE_SHARE } from "../transport/together.js";

/**
 * What a check shares with others. A check that declares nothing reads nothing that others
 * change, unless it writes: an undeclared writer runs alone.
 */
export function sharesOf(check: Check): Share[] {
  if (check.shares) return check.shares;
  return check.needs.includes("writes") ? ["exclusive"] : [];
}

type Access = "read" | "add" | "write";
interface Parsed {
  /** Runs alone ("exclusive"), or beside those of its own `exclusive:<thing>` only (the thing's name), or beside any. */
  exclusive: true | string | undefined;
  uses: { access: Access; thing: string }[];
}

function parse(shares: Share[]): Parsed {
  const uses: Parsed["uses"] = [];
  let exclusive: Parsed["exclusive"];
  for (const s of shares) {
    const i = s.indexOf(":");
    if (s === "exclusive") exclusive = true;
    else if (s.startsWith("exclusive:")) exclusive ??= s.slice(i + 1);
    else uses.push({ access: s.slice(0, i) as Access, thing: s.slice(i + 1) });
  }
  return { exclusive, uses };
}

/** Whether a check runs apart from the rest of the run: alone, or beside its own exclusive thing's checks only. */
export const runsApart = (shares: Share[]): boolean => parse(shares).exclusive !== undefined;

/**
 * Whether two checks must not overlap. "add" (creating and removing one's own objects in a list)
 * commutes with another "add", not with a "read" that needs the whole list to hold still; "write"
 * (changing something there is one of: a setting, a flag) commutes with nothing on the same
 * thing; "exclusive" (timing-sensitive) with nothing at all, `exclusive:<thing>` with nothing but
 * another check of the same thing (and then as their other shares say).
 */
function conflicting(a: Parsed, b: Parsed, ignoreExclusive = false): boolean {
  const sameThing = typeof a.exclusive === "string" && a.exclusive === b.exclusive;
  const apart = (a.exclusive !== undefined || b.exclusive !== undefined) && !sameThing;
  if (!ignoreExclusive && apart) return true;
  // Across shards, a check that runs alone and declares nothing it touches (an undeclared writer)
  // is taken to add to every list: it meets every reader and writer of anything. Left free, the
  // upsert races and the document's create chains in one shard made another's list walks see
  // workbooks come and go.
  if (ignoreExclusive && ((touchesAll(a) && changedBy(b)) || (touchesAll(b) && changedBy(a)))) return true;
  for (const x of a.uses)
    for (const y of b.uses) if (x.thing === y.thing && (x.access === "write" || y.access === "write" || x.access !== y.access)) return true;
  return false;
}

const touchesAll = (p: Parsed) => p.exclusive === true && p.uses.length === 0;
/** Whether a check reads or changes something an added object would disturb (two adds commute). */
const changedBy = (p: Parsed) => p.uses.some((u) => u.access !== "add");

export function conflict(a: Share[], b: Share[]): boolean {
  return conflicting(parse(a), parse(b));
}

/**
 * For each check, the indices of the others it must not overlap with. `ignoreExclusive`: only
 * what they touch counts, not a check's need to run alone (sharding: another job's load is
 * beyond any one run's control).
 */
export function conflictTable(checks: Check[], ignoreExclusive = false): Set<number>[] {
  const parsed = checks.map((c) => parse(sharesOf(c)));
  const table = checks.map(() => new Set<number>());
  for (let i = 0; i < checks.length; i++)
    for (let j = i + 1; j < checks.length; j++)
      if (conflicting(parsed[i], parsed[j], ignoreExclusive)) {
        table[i].add(j);
        table[j].add(i);
      }
  return table;
}

export interface ScheduleOptions<T> {
  concurrency: number;
  /** Polled before each start: true starts nothing more; what runs is awaited. */
  shouldStop?(): boolean;
  /** Each outcome, in the checks' order (not the order they finish in). */
  onDone?(index: number, value: T): void;
  /** Each outcome as it finishes, in no set order: for what counts finished checks (progress). */
  onFinish?(index: number, value: T): void;
}

/**
 * Which checks take a free slot first (a higher rank before a lower): a check that changes a
 * setting (a "write:" share), which heads a chain of checks that must follow one another; then a
 * property's search or a model's run, which should not start last and run on alone, and a check
 * that reads a list whole, which others wait for; then the rest.
 */
const rank = (check: Check) =>
  sharesOf(check).some((s) => s.startsWith("write:"))
    ? 2
    : check.kind === "property" || check.kind === "model" || sharesOf(check).some((s) => s.startsWith("read:"))
      ? 1
      : 0;

/**
 * Runs up to `concurrency` checks at once. Two conflicting checks never overlap and keep their
 * catalogue order (a check waits for every earlier one it conflicts with), so each sees what a
 * sequential run would have shown it; with concurrency 1 this is the sequential run.
 */
export async function schedule<T>(
  checks: Check[],
  run: (check: Check, index: number) => Promise<T>,
  opts: ScheduleOptions<T>,
): Promise<{ done: Map<number, T>; interrupted: boolean }> {
  const conflicts = conflictTable(checks);
  const limit = Math.max(1, opts.concurrency);
  const pending: number[] = checks.map((_, i) => i);
  const running = new Map<number, Promise<number>>();
  const done = new Map<number, T>();
  let nextToReport = 0;
  let interrupted = false;
  const report = () => {
    while (done.has(nextToReport)) opts.onDone?.(nextToReport, done.get(nextToReport)!), nextToReport++;
  };

  while (pending.length || running.size) {
    if (!interrupted && opts.shouldStop?.()) interrupted = true;
    // Those that go first take a free slot before the others, either only where nothing before it
    // conflicts. One at a time, the run is the catalogue's order.
    for (const first of limit > 1 ? [2, 1, 0] : [undefined]) {
      if (interrupted) break;
      for (let p = 0; p < pending.length && running.size < limit; ) {
        const i = pending[p];
        const blocked =
          (first !== undefined && rank(checks[i]) !== first) ||
          [...running.keys()].some((r) => conflicts[i].has(r)) ||
          pending.slice(0, p).some((e) => conflicts[i].has(e));
        if (blocked) {
          p++;
          continue;
        }
        pending.splice(p, 1);
        running.set(
          i,
          run(checks[i], i).then((value) => (done.set(i, value), opts.onFinish?.(i, value), i)),
        );
        if (opts.shouldStop?.()) {
          interrupted = true;
          break;
        }
      }
    }
    if (!running.size) break;
    const finished = await Promise.race(running.values());
    running.delete(finished);
    report();
  }
  // An interrupted run leaves gaps: what did finish is still reported, in order.
  for (const i of [...done.keys()].sort((a, b) => a - b)) if (i >= nextToReport) opts.onDone?.(i, done.get(i)!);
  return { done, interrupted: interrupted || pending.length > 0 };
}

/**
 * --repeat: each check that works only on its own scratch objects ("add" shares) runs `times`
 * times, the copies beside each other (ids `<id>#2`, ...), to shake out races such as the upsert
 * window or lost writes. A copy's objects are its own: scratch names derive from the check id.
 * A check that holds a race at the barrier (RACE_SHARE) is copied too: its copies race one after
 * another, each with the barrier's connections to itself.
 */
export function repeatWrites(checks: Check[], times: number): Check[] {
  if (times <= 1) return checks;
  return checks.flatMap((c) => {
    const shares = sharesOf(c);
    const onOwnObjects = c.needs.includes("writes") && shares.length > 0 && shares.every((s) => s.startsWith("add:") || s === RACE_SHARE);
    if (!onOwnObjects) return [c];
    return [c, ...Array.from({ length: times - 1 }, (_, k) => ({ ...c, id: `${c.id}#${k + 2}`, title: `${c.title} (repeat ${k + 2} of ${times})` }))];
  });
}

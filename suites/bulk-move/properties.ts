import type { Api } from "../../core/transport/api.js";
import { readOnlyFolder } from "../lib/read-only-folder.js";
import { groupedById } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { forAll, WORKSPACE_REQUEST_BUDGET } from "../../core/run/property.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { batch, type Batch } from "../../generators/workspace.js";
import { expectedBatch, type ItemFacts } from "./outcome.js";
import { createFolder, createWorkbook, deletedItem, folderSitsIn } from "../lib/scratch-items.js";
import { bulkMove, expectWorkbook, itemKey, requirePlacementShown } from "../lib/workbook-calls.js";
import { workbookPath } from "../lib/workbook-writes.js";
import { LIMITS } from "../../core/api/operations.js";
import { isObject } from "../lib/values.js";
import { atOnce } from "../lib/at-once.js";
import { WORKSPACE_WRITES } from "../../core/model/needs.js";

/** The objects a trial may create, parents declared before their contents; `in` names a folder of the layout or a fixed one. */
type Layout = Record<string, { type: "FOLDER" | "WORKBOOK"; in: string | null }>;

interface World {
  layout: Layout;
  /** Folders that exist before the property runs (the readOnly sandbox and spare destination). */
  fixed: Map<string, number>;
  /** Items that surely name nothing: the check's own, deleted. */
  missing: Map<string, ItemRef>;
  /** Who sends the batch, logging into the trial. */
  mover: (api: Api) => Api;
  callerMayMove: boolean;
  /** Every folder the trials create. */
  folders: ItemRef[];
}

const OPEN: Layout = {
  "folder A": { type: "FOLDER", in: null },
  "folder B": { type: "FOLDER", in: "folder A" },
  "folder C": { type: "FOLDER", in: null },
  "workbook W1": { type: "WORKBOOK", in: null },
  "workbook W2": { type: "WORKBOOK", in: "folder B" },
};

const OPEN_DESTINATIONS = ["root", "folder A", "folder B", "folder C"];

/**
 * Nothing here is already in a destination: whether a caller without edit access may "move" an
 * item to where it already is is not shown, so no batch asks it.
 */
const LOCKED: Layout = {
  "folder P": { type: "FOLDER", in: "sandbox" },
  "workbook X": { type: "WORKBOOK", in: "sandbox" },
  "workbook Y": { type: "WORKBOOK", in: "folder P" },
};

const LOCKED_DESTINATIONS = ["root", "spare"];

async function missingItems(ctx: CheckContext, dep: string): Promise<Map<string, ItemRef>> {
  return new Map([
    ["missing workbook", await deletedItem(ctx, dep, "WORKBOOK")],
    ["missing folder", await deletedItem(ctx, dep, "FOLDER")],
  ]);
}

/**
 * Creates what the batch names (and its folders), parents first: each level of the layout at
 * once, since items of one level do not depend on each other (a round trip a level, not an item).
 */
async function materialise(ctx: CheckContext, api: Api, dep: string, world: World, wanted: string[]): Promise<Map<string, ItemRef>> {
  const need = new Set<string>();
  const add = (h: string | null) => {
    if (h === null || !(h in world.layout) || need.has(h)) return;
    need.add(h);
    add(world.layout[h].in);
  };
  wanted.forEach(add);
  const refs = new Map<string, ItemRef>();
  const own = { ...ctx, api };
  const placed = (h: string) => refs.has(h) || !need.has(h);
  while (refs.size < need.size) {
    const level = Object.entries(world.layout).filter(([h, spec]) => need.has(h) && !refs.has(h) && (spec.in === null || placed(spec.in)));
    const made = await atOnce(
      level.map(([, spec]) => {
        const parent = spec.in === null ? null : (refs.get(spec.in)?.id ?? world.fixed.get(spec.in)!);
        return spec.type === "FOLDER" ? createFolder(own, dep, parent) : createWorkbook(own, dep, parent);
      }),
    );
    level.forEach(([h], i) => refs.set(h, made[i]));
    for (const ref of made) if (ref.type === "FOLDER") world.folders.push(ref);
  }
  // In the layout's order, as the batch's handles are looked up.
  return new Map(
    Object.keys(world.layout)
      .filter((h) => refs.has(h))
      .map((h) => [h, refs.get(h)!]),
  );
}

interface Sent {
  res: Response;
  moved: any[];
  failed: any[];
  refs: Map<string, ItemRef>;
  ref: (h: string) => ItemRef;
  folderId: (h: string) => number | null;
  expected: ReturnType<typeof expectedBatch>;
}

/** Creates the batch's objects, works out what E12 says it does, and sends it. */
async function sendBatch(ctx: CheckContext, api: Api, dep: string, world: World, b: Batch<string, string>): Promise<Sent> {
  const refs = await materialise(ctx, api, dep, world, [...b.items, b.destination]);
  const ref = (h: string) => refs.get(h) ?? world.missing.get(h)!;
  const folderId = (h: string) => (h === "root" ? null : (refs.get(h)?.id ?? world.fixed.get(h)!));
  const before = new Map([...refs.keys()].map((h): [string, string | null] => [h, world.layout[h].in]));
  const facts = new Map<string, ItemFacts>([
    ...[...refs].map(([h, r]): [string, ItemFacts] => [h, { folder: r.type === "FOLDER", missing: false }]),
    ...[...world.missing].map(([h, r]): [string, ItemFacts] => [h, { folder: r.type === "FOLDER", missing: true }]),
  ]);
  const expected = expectedBatch(b.items, b.destination === "root" ? null : b.destination, before, facts, world.callerMayMove);
  const res = await bulkMove(world.mover(api), dep, b.items.map(ref), folderId(b.destination));
  ctx.require(res, "E12", "a well-formed bulk move");
  const body = ctx.expect.json(res);
  ctx.expect.that(Array.isArray(body?.moved) && Array.isArray(body?.failed), "the answer holds the arrays moved and failed", {
    expected: "{moved: [...], failed: [...]}",
    got: body,
    res,
    reason: "moved-and-failed",
  });
  return { res, moved: body.moved, failed: body.failed, refs, ref, folderId, expected };
}

const placeName = (h: string | null) => (h === null || h === "root" ? "the root" : h);

/** E12: each distinct item answered once, in moved or failed as the rules say, with an allowed status. */
function expectOutcomes(ctx: CheckContext, s: Sent, destination: string): void {
  const { expect } = ctx;
  const into = placeName(destination);
  const sent = s.expected.order.map((h) => itemKey(s.ref(h)));
  const answered = [...s.moved, ...s.failed].map(itemKey);
  const got = { moved: s.moved.map(itemKey), failed: s.failed.map(itemKey) };
  expect.that(
    answered.every((k, i) => answered.indexOf(k) === i),
    "each distinct item is answered once: duplicates collapse",
    { expected: sent, got, res: s.res, reason: "duplicates-collapse" },
  );
  expect.that(
    sent.every((k) => answered.includes(k)),
    "every distinct item sent is in moved or in failed",
    { expected: sent, got, res: s.res, reason: "all-answered" },
  );
  expect.that(
    answered.every((k) => sent.includes(k)),
    "moved and failed hold only items that were sent",
    { expected: sent, got, res: s.res, reason: "only-sent" },
  );
  for (const h of s.expected.order) {
    const k = itemKey(s.ref(h));
    const outcome = s.expected.outcomes.get(h)!;
    const failure = s.failed.find((f) => itemKey(f) === k);
    if (outcome.moved) {
      expect.that(failure === undefined, `${h} (${k}) moves into ${into}`, { expected: "listed in moved", got: failure, res: s.res, reason: "own-items-move" });
    } else {
      const allowed = outcome.statuses.join(" or ");
      expect.that(failure !== undefined, `${h} (${k}) cannot move into ${into}: it is reported in failed`, {
        reason: "in-failed",
        expected: `failed with status ${allowed}`,
        got,
        res: s.res,
      });
      expect.that(outcome.statuses.includes(failure?.error?.status), `${h} (${k}) fails with status ${allowed}`, {
        expected: allowed,
        got: failure?.error,
        res: s.res,
        reason: "failure-status",
      });
    }
  }
  const destId = s.folderId(destination);
  for (const m of s.moved)
    if (isObject(m) && "folderId" in m)
      expect.equal(m.folderId, destId, `the moved record of ${itemKey(m)} shows the destination as its folderId`, { res: s.res, reason: "moved-folder" });
}

/** States (bulk move): moved items read back in the destination, the others where they were (all read at once, judged in order). */
async function expectPlacement(ctx: CheckContext, api: Api, dep: string, s: Sent): Promise<void> {
  const items = [...s.refs].map(([h, r]) => {
    const place = s.expected.after.get(h) ?? null;
    const want = place === null ? null : s.folderId(place);
    return { h, r, want, where: `${h} (${itemKey(r)}) is in ${placeName(place)}${want === null ? "" : ` (${want})`} after the batch` };
  });
  const reads = await atOnce(items.map(({ r, want }) => (r.type === "FOLDER" ? folderSitsIn(api, dep, r.id, want) : api.get(workbookPath(dep, r.id)))));
  items.forEach(({ h, want, where }, i) => {
    const read = reads[i];
    if ("sits" in read) ctx.expect.that(read.sits, where, { expected: `in ${want ?? "the root"}`, got: read.seen, reason: "reads-back" });
    else
      ctx.expect.equal(expectWorkbook(ctx, read, `reading ${h} back (E9)`).folderId, want, `${where}, by E9's folderId`, { res: read, reason: "reads-back" });
  });
}

/** E12 Rules: moved, and failed, each follow the order the items were sent in. */
function expectOrder(ctx: CheckContext, s: Sent): void {
  const sent = s.expected.order.map((h) => itemKey(s.ref(h)));
  for (const [name, list] of [
    ["moved", s.moved],
    ["failed", s.failed],
  ] as const) {
    const keys = list.map(itemKey).filter((k) => sent.includes(k));
    const positions = keys.map((k) => sent.indexOf(k));
    ctx.expect.that(
      positions.every((p, i) => i === 0 || positions[i - 1] < p),
      `${name} lists its items in the order they were sent`,
      { reason: "order", expected: sent.filter((k) => keys.includes(k)), got: keys, res: s.res },
    );
  }
}

/** The world of the main token's own objects; folders go back to the root at cleanup, so that each can be deleted whatever nests in what. */
async function openWorld(ctx: CheckContext, dep: string): Promise<World> {
  await requirePlacementShown(ctx, dep);
  const world: World = { layout: OPEN, fixed: new Map(), missing: await missingItems(ctx, dep), mover: (api) => api, callerMayMove: true, folders: [] };
  ctx.scratch.onCleanup("the bulk-move property's folders back to the root", async () => {
    for (let i = 0; i < world.folders.length; i += LIMITS.bulkMoveItems) {
      const res = await bulkMove(ctx.api, dep, world.folders.slice(i, i + LIMITS.bulkMoveItems), null);
      if (res.status !== 200) throw new Error(`moving them answered ${res.status} ${res.text.slice(0, 160)}`);
    }
  });
  return world;
}

const openBatch = () => batch([...Object.keys(OPEN), "missing workbook", "missing folder"], OPEN_DESTINATIONS);

export const bulkMovePropertyChecks = groupedById([
  {
    id: "bulk-move.batch.invariants",
    spec: "E12; States (bulk move)",
    level: "MUST",
    title:
      "For any batch of existing, missing, duplicate and self-nesting items, each distinct item is moved or failed (404 missing, 400 into itself) once, and the workspace shows exactly the moves reported",
    kind: "property",
    needs: [...WORKSPACE_WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const world = await openWorld(ctx, dep);
      await forAll(
        ctx,
        openBatch(),
        async (b, api) => {
          const s = await sendBatch(ctx, api, dep, world, b);
          expectOutcomes(ctx, s, b.destination);
          await expectPlacement(ctx, api, dep, s);
        },
        { maxRuns: 60, maxRequests: WORKSPACE_REQUEST_BUDGET },
      );
    },
  },
  {
    id: "bulk-move.batch.order",
    spec: "E12 Rules (applied one at a time in the given order)",
    level: "SHOULD",
    title: "For any batch, moved and failed each list their items in the order they were sent",
    kind: "property",
    needs: [...WORKSPACE_WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const world = await openWorld(ctx, dep);
      await forAll(ctx, openBatch(), async (b, api) => expectOrder(ctx, await sendBatch(ctx, api, dep, world, b)), {
        maxRuns: 30,
        maxRequests: WORKSPACE_REQUEST_BUDGET,
      });
    },
  },
  {
    id: "bulk-move.batch.inaccessible",
    spec: "E12; Authentication 4 (bulk move: per item, the single-item rules)",
    level: "MUST",
    title:
      "For any batch the caller may not move (items in a folder it can only read, missing ones, duplicates), each distinct item fails once with 403 (404 if missing) and nothing moves",
    kind: "property",
    needs: [...WORKSPACE_WRITES, "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      await requirePlacementShown(ctx, dep);
      // The check's own folders inside the read-only one: readable, not editable, to the readOnly token.
      const locked = (await readOnlyFolder(ctx, dep)).id;
      const fixed = new Map([
        ["sandbox", (await createFolder(ctx, dep, locked)).id],
        ["spare", (await createFolder(ctx, dep, locked)).id],
      ]);
      const readOnly = ctx.as("readOnly");
      const world: World = {
        layout: LOCKED,
        fixed,
        missing: await missingItems(ctx, dep),
        mover: (api) => readOnly.logging(api.log),
        callerMayMove: false,
        folders: [],
      };
      await forAll(
        ctx,
        batch([...Object.keys(LOCKED), "missing workbook", "missing folder"], LOCKED_DESTINATIONS),
        async (b, api) => {
          const s = await sendBatch(ctx, api, dep, world, b);
          expectOutcomes(ctx, s, b.destination);
          await expectPlacement(ctx, api, dep, s);
        },
        { maxRuns: 40, maxRequests: WORKSPACE_REQUEST_BUDGET },
      );
    },
  },
]);

import type { Workbook as WorkbookRecord } from "../../core/api/schema-types.js";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import type { Api } from "../../core/transport/api.js";
import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { forAll, MODEL_REQUEST_BUDGET } from "../../core/run/property.js";
import { flatMeta, type Meta } from "../../generators/workspace.js";
import { atOnce } from "../lib/at-once.js";
import { createFolder } from "../lib/scratch-items.js";
import { ancestorsExpected, holdsAncestors } from "../lib/folder-path.js";
import { bulkMove, expectWorkbook, itemKey, requirePlacementShown, workbooksPath } from "../lib/workbook-calls.js";
import { duplicate, putBySlug, unlessAtWorkbookLimit, workbookPath } from "../lib/workbook-writes.js";

/*
 * A model of the workspace the run builds: the workbooks it made (by upsert or clone), where each
 * is, its name, meta and slug. Random sequences of E8-E12 calls run against the server and the
 * model side by side; the first answer that departs from the model fails, and fast-check shrinks
 * the sequence to the shortest one that still does.
 */

const SLUGS = 3;
const MAX_COMMANDS = 12;

interface Workbook {
  id: number;
  name: string;
  folderId: number | null;
  meta: Record<string, unknown>;
  /** The slug it holds (canonical: lowercase, trimmed); a clone holds none. */
  slug: string | null;
}

interface Model {
  workbooks: Workbook[];
  bySlug: Map<number, Workbook>;
}

interface Real {
  ctx: CheckContext;
  api: Api;
  dep: string;
  /** Two folders of the trial's own: the first at the root, the second inside it (folderPath two deep). */
  folders: number[];
  slugs: string[];
}

type Folder = 0 | 1;
type Destination = Folder | "root";

const byNumber = (a: number, b: number) => a - b;
const folderId = (r: Real, d: Destination) => (d === "root" ? null : r.folders[d]);
/** The n-th workbook of the model, wrapping: shrinking may drop the commands that made the others. */
const nth = (m: Readonly<Model>, n: number) => m.workbooks[n % m.workbooks.length];

/** The ancestors of a folder of the trial, outermost first, as the trial built them. */
const ancestry = (r: Real, id: number | null): number[] => (id === null ? [] : r.folders.slice(0, r.folders.indexOf(id) + 1));

/** Resources / Workbook: a folderPath, where the server shows one, holds the containing folder's ancestors (suites/lib/folder-path.ts). */
function expectFolderPath(r: Real, got: WorkbookRecord | undefined, folderId: number | null, call: string, res: Response): void {
  if (!Array.isArray(got?.folderPath)) return;
  const chain = ancestry(r, folderId);
  r.ctx.expect.that(holdsAncestors(got.folderPath, chain), `${call}: workbook ${got.id}'s folderPath lists the ancestors of folder ${folderId}`, {
    expected: ancestorsExpected(chain),
    got: got.folderPath.map((f) => f?.id),
    res,
    reason: "folder-path",
  });
}

/** A record as the model has it: id, name, folder, meta, the folder's ancestors and, where the server shows one, the slug. */
function expectAsModelled(r: Real, got: WorkbookRecord, want: Workbook, call: string, res: Response): void {
  const { expect } = r.ctx;
  const shown = { id: got.id, name: got.name, folderId: got.folderId, meta: got.meta };
  const modelled = { id: want.id, name: want.name, folderId: want.folderId, meta: want.meta };
  expect.that(isDeepStrictEqual(shown, modelled), `${call}: workbook ${want.id} is as the calls so far made it`, {
    expected: modelled,
    got: shown,
    res,
    reason: "as-modelled",
  });
  if (want.slug !== null && got.slug != null)
    expect.equal(got.slug, want.slug, `${call}: workbook ${want.id} holds the slug it was upserted by`, { res: res, reason: "slug-stored" });
  expectFolderPath(r, got, want.folderId, call, res);
}

abstract class Call implements fc.AsyncCommand<Model, Real> {
  /** The request as last sent, for the report; before a run, the abstract form. */
  protected sent?: string;
  abstract check(m: Readonly<Model>): boolean;
  abstract run(m: Model, r: Real): Promise<void>;
  protected abstract plan(): string;
  /** One call a line, so that the shrunk sequence reads as the requests it made. */
  toString(): string {
    return `\n  ${this.sent ?? this.plan()}`;
  }
}

class Upsert extends Call {
  constructor(readonly p: { slug: number; withName: boolean; meta: Meta | null; folder: Folder | null }) {
    super();
  }
  /** Creating sends a name: what a server names a workbook created without one is not shown. */
  check(m: Readonly<Model>): boolean {
    return this.p.withName || m.bySlug.has(this.p.slug);
  }
  plan(): string {
    return `PUT workbooks/by-slug/<slug ${this.p.slug}> ${JSON.stringify({ name: this.p.withName ? "<name>" : undefined, meta: this.p.meta ?? undefined, folderId: this.p.folder === null ? undefined : `<folder ${this.p.folder}>` })}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    this.settle(m, r, await this.send(r));
  }
  /** The request alone: upserts of different slugs may go at once (the trial's seeds), each then settled in order. */
  async send(r: Real): Promise<{ res: Response; body: Record<string, unknown>; slug: string }> {
    const slug = r.slugs[this.p.slug];
    const body: Record<string, unknown> = {};
    if (this.p.withName) body.name = r.ctx.scratch.name("model");
    if (this.p.meta) body.meta = this.p.meta;
    if (this.p.folder !== null) body.folderId = r.folders[this.p.folder];
    this.sent = `PUT workbooks/by-slug/${slug} ${JSON.stringify(body)}`;
    return { res: await putBySlug(r.ctx.scratch, r.api, r.dep, slug, body), body, slug };
  }
  /** What the answer must show, given the model so far, and the model after it. */
  settle(m: Model, r: Real, { res, body, slug }: Awaited<ReturnType<Upsert["send"]>>): void {
    this.sent = `PUT workbooks/by-slug/${slug} ${JSON.stringify(body)}`;
    const got = expectWorkbook(r.ctx, res, this.sent);
    const held = m.bySlug.get(this.p.slug);
    if (held) {
      held.name = (body.name as string | undefined) ?? held.name;
      held.meta = { ...held.meta, ...this.p.meta };
      held.folderId = (body.folderId as number | undefined) ?? held.folderId;
      expectAsModelled(r, got, held, this.sent, res);
      return;
    }
    r.ctx.expect.that(!m.workbooks.some((w) => w.id === got.id), `${this.sent}: a slug no workbook holds creates a new workbook`, {
      expected: "a new id",
      got: got.id,
      res,
      reason: "new-workbook",
    });
    // A server may add meta keys of its own on create: the model starts from what it shows, once the keys sent are there.
    for (const [k, v] of Object.entries(this.p.meta ?? {}))
      r.ctx.expect.equal(got.meta?.[k], v, `${this.sent}: meta.${k} of the new workbook is the value sent`, { res: res, reason: "meta-sent" });
    const created: Workbook = { id: got.id, name: body.name as string, folderId: (body.folderId as number | undefined) ?? null, meta: got.meta, slug };
    expectAsModelled(r, got, created, this.sent, res);
    m.workbooks.push(created);
    m.bySlug.set(this.p.slug, created);
  }
}

class Clone extends Call {
  constructor(readonly p: { workbook: number }) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return m.workbooks.length > 0;
  }
  plan(): string {
    return `POST workbooks/<workbook ${this.p.workbook}>/duplicate`;
  }
  async run(m: Model, r: Real): Promise<void> {
    const source = nth(m, this.p.workbook);
    this.sent = `POST workbooks/${source.id}/duplicate`;
    const res = await duplicate(r.ctx.scratch, r.api, r.dep, source.id);
    r.ctx.requireRoute(res, "E10", this.sent);
    unlessAtWorkbookLimit(res, this.sent);
    const got = expectWorkbook(r.ctx, res, this.sent);
    r.ctx.expect.that(!m.workbooks.some((w) => w.id === got.id), `${this.sent}: the clone is a new workbook`, {
      expected: "a new id",
      got: got.id,
      res,
      reason: "new-workbook",
    });
    // E10 rule 1: a full copy; a server may add meta keys of its own, the source's are there as they are.
    for (const [k, v] of Object.entries(source.meta))
      r.ctx.expect.equal(got.meta?.[k], v, `${this.sent}: meta.${k} is copied from the source`, { res: res, reason: "meta-copied" });
    // E10 rules 1 and 4: named "Copy of ...", in the source's folder (the run may edit its own folders).
    const clone: Workbook = { id: got.id, name: `Copy of ${source.name}`, folderId: source.folderId, meta: got.meta, slug: null };
    expectAsModelled(r, got, clone, this.sent, res);
    r.ctx.expect.that(source.slug === null || got.slug !== source.slug, `${this.sent}: the clone does not take the source's slug`, {
      expected: `not ${source.slug}`,
      got: got.slug,
      res,
      reason: "slug-not-taken",
    });
    m.workbooks.push(clone);
  }
}

class Move extends Call {
  constructor(readonly p: { workbooks: number[]; to: Destination }) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return m.workbooks.length > 0;
  }
  plan(): string {
    return `POST workspace/bulk-move ${JSON.stringify({ items: this.p.workbooks.map((n) => `<workbook ${n}>`), folderId: this.p.to === "root" ? null : `<folder ${this.p.to}>` })}`;
  }
  async run(m: Model, r: Real): Promise<void> {
    const items = this.p.workbooks.map((n) => nth(m, n));
    const to = folderId(r, this.p.to);
    const refs = items.map((w) => ({ type: "WORKBOOK" as const, id: w.id }));
    this.sent = `POST workspace/bulk-move ${JSON.stringify({ items: refs, folderId: to })}`;
    const res = await bulkMove(r.api, r.dep, refs, to);
    r.ctx.requireRoute(res, "E12", this.sent);
    r.ctx.expect.status(res, 200, this.sent);
    const body = r.ctx.expect.json(res);
    const distinct = [...new Set(refs.map(itemKey))];
    r.ctx.expect.equal(body?.failed, [], `${this.sent}: the run's own workbooks move into its own folders (or the root) without failures`, {
      res: res,
      reason: "own-items-move",
    });
    r.ctx.expect.equal(
      Array.isArray(body?.moved) ? body.moved.map(itemKey).sort() : body?.moved,
      [...distinct].sort(),
      `${this.sent}: each distinct workbook is listed in moved once`,
      { res: res, reason: "all-moved" },
    );
    for (const w of items) w.folderId = to;
    // The moved records are Workbook records too (E12: serialized as the single-item move returns them).
    for (const w of items)
      expectFolderPath(r, Array.isArray(body?.moved) ? body.moved.find((x: WorkbookRecord | undefined) => x?.id === w.id) : undefined, to, this.sent, res);
  }
}

class Get extends Call {
  constructor(readonly p: { workbook: number }) {
    super();
  }
  check(m: Readonly<Model>): boolean {
    return m.workbooks.length > 0;
  }
  plan(): string {
    return `GET workbooks/<workbook ${this.p.workbook}>`;
  }
  async run(m: Model, r: Real): Promise<void> {
    const want = nth(m, this.p.workbook);
    this.sent = `GET workbooks/${want.id}`;
    const res = await r.api.get(workbookPath(r.dep, want.id));
    expectAsModelled(r, expectWorkbook(r.ctx, res, this.sent), want, this.sent, res);
  }
}

class List extends Call {
  constructor(readonly p: { folder: Folder }) {
    super();
  }
  check(): boolean {
    return true;
  }
  plan(): string {
    return `GET workbooks?folderId=<folder ${this.p.folder}>`;
  }
  async run(m: Model, r: Real): Promise<void> {
    const id = r.folders[this.p.folder];
    this.sent = `GET workbooks?folderId=${id}`;
    const walk = await walkCursor<WorkbookRecord>(r.api, workbooksPath(r.dep), { first: 50, query: { folderId: id } });
    const res = walk.pages.at(-1)!.res;
    const want = m.workbooks.filter((w) => w.folderId === id);
    r.ctx.expect.equal(
      // The list may hold folders too (the Workbook type says so): the trial's second folder sits in its first.
      walk.items
        .filter((w) => w?.type === undefined || w.type === "WORKBOOK")
        .map((w) => w?.id)
        .sort(byNumber),
      want.map((w) => w.id).sort(byNumber),
      `${this.sent}: the list holds exactly the workbooks the calls so far put in folder ${id}`,
      { res, reason: "folder-contents" },
    );
    for (const w of want) expectAsModelled(r, walk.items.find((x) => x?.id === w.id)!, w, this.sent, res);
  }
}

const folder = fc.constantFrom<Folder>(0, 1);
const workbook = fc.nat(7);

const upsert = fc
  .record({ slug: fc.nat(SLUGS - 1), withName: fc.boolean(), meta: fc.option(flatMeta, { nil: null }), folder: fc.option(folder, { nil: null }) })
  .map((p) => new Upsert(p));
const clone = fc.record({ workbook }).map((p) => new Clone(p));
const move = fc
  .record({ workbooks: fc.array(workbook, { minLength: 1, maxLength: 3 }), to: fc.constantFrom<Destination>("root", 0, 1) })
  .map((p) => new Move(p));
const get = fc.record({ workbook }).map((p) => new Get(p));
const list = fc.record({ folder }).map((p) => new List(p));

/**
 * Writes that place workbooks (upserts, moves) and lists that see placements twice as likely as
 * the rest; full-length sequences, since a departure often needs a write, a move and a read.
 */
const sequences = fc.commands([upsert, upsert, clone, move, move, get, list, list], { maxCommands: MAX_COMMANDS, size: "max" });

/** What each trial starts from: the workbook of slug 0 in folder 0, that of slug 1 at the root. */
const SEEDED = [new Upsert({ slug: 0, withName: true, meta: null, folder: 0 }), new Upsert({ slug: 1, withName: true, meta: null, folder: null })];

export const workspaceModelChecks = group("model", [
  {
    id: "model.workspace.sequence",
    spec: "E8; E9; E10 rules 1, 4; E11 rule 2; E12; States; Resources / Workbook (folderPath)",
    level: "MUST",
    title:
      "Any sequence of upserts, clones, bulk moves, gets and folder lists leaves every workbook as the sequence made it: id, name, folder, meta and slug, and folderPath the ancestors of its folder (two deep) on every answer",
    kind: "model",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      await requirePlacementShown(ctx, dep);
      await forAll(
        ctx,
        sequences,
        async (calls, api) => {
          const own = { ...ctx, api };
          const folders = (await atOnce([createFolder(own, dep), createFolder(own, dep)])).map((f) => f.id);
          // The second folder inside the first (E12: a folder item's parent becomes the destination), so folderPath is judged two deep.
          const nested = await bulkMove(api, dep, [{ type: "FOLDER", id: folders[1] }], folders[0]);
          ctx.require(
            nested,
            "E12",
            "moving the trial's second folder into its first",
            (res) => res.status === 200 && Array.isArray(res.body?.failed) && !res.body.failed.length,
          );
          const real: Real = { ctx, api, dep, folders, slugs: Array.from({ length: SLUGS }, () => ctx.scratch.slug("model")) };
          const model: Model = { workbooks: [], bySlug: new Map() };
          // Two workbooks from the start, so that every call of the sequence has something to act on:
          // two slugs, upserted at once, then taken into the model in order.
          const seeded = await atOnce(SEEDED.map((seed) => seed.send(real)));
          SEEDED.forEach((seed, i) => seed.settle(model, real, seeded[i]));
          await fc.asyncModelRun(() => ({ model, real }), calls);
        },
        { maxRuns: 30, maxRequests: MODEL_REQUEST_BUDGET },
      );
    },
  },
]);

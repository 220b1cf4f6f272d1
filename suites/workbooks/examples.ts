import type { Workbook } from "../../core/api/schema-types.js";
import { isDeepStrictEqual } from "node:util";
import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import { group } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { type CursorWalk, walkCursor, wholeList } from "../../core/transport/pagination.js";
import { sameTimestamp } from "../../core/api/timestamps.js";
import { expectWalkCovers, severalPagesOf, smallestPagesOf } from "../lib/cursor-walk.js";
import { copyDifference } from "../lib/legacy-copy.js";
import { pathTo } from "../../core/transport/client.js";
import { WHOLE_PAGE } from "../lib/cursor-walk.js";
import { oneOfEachShape } from "../lib/shape-sample.js";

/** Listed items whose single get is compared with the list, at least (one of each shape the list shows besides). */
const GET_SAMPLE = 5;
/** The most pages read to find that sample. */
const SAMPLE_PAGES = 10;
const listPath = (dep: string) => pathTo("listWorkbooks", { deploymentId: dep });
const ids = (items: any[]) => items.map((w) => String(w?.id));
/** The list may hold folders and reports too (the Workbook type says so); E9 serves workbooks. */
const isWorkbook = (w: any) => w?.type === undefined || w.type === "WORKBOOK";

interface Walks {
  whole: CursorWalk;
  /** The same list in several small pages. */
  paged: CursorWalk;
  first: number;
}

/** The list at a large page size, and again in several small pages. */
async function walks(api: Api, dep: string): Promise<Walks> {
  const whole = wholeList(await walkCursor<Workbook>(api, listPath(dep), { first: WHOLE_PAGE }), "workbooks");
  const first = severalPagesOf(whole.items.length);
  const paged = wholeList(await walkCursor<Workbook>(api, listPath(dep), { first, maxPages: whole.items.length + 2 }), "workbooks");
  return { whole, paged, first };
}

/** Pages of both walks that carry a numeric count (it may be null: deprecated); none is a count rule not exercised. */
function countedPages(w: Walks) {
  const pages = [...w.whole.pages, ...w.paged.pages];
  const counted = pages.filter((p) => typeof p.res.body?.count === "number");
  if (!counted.length) throw new NotExercised(`count was null or absent on all ${pages.length} page(s) of the walks: there is no count to compare`);
  return counted;
}

/** count equals, on every page that gives one, the workbooks a walk as this caller (`whose` walk) yields. */
async function expectCountMatchesWalk(api: Api, expect: CheckContext["expect"], dep: string, whose: string): Promise<void> {
  const w = await walks(api, dep);
  const listed = new Set(ids(w.whole.items)).size;
  for (const page of countedPages(w))
    expect.equal(page.res.body.count, listed, `count equals the workbooks ${whose} saw`, { res: page.res, reason: "count-matches" });
}

/** The folder holding the most of `items` (at least two), by their folderId; undefined when none does. */
function fullestFolder(items: any[]): number | undefined {
  const counts = new Map<number, number>();
  for (const w of items) if (typeof w?.folderId === "number") counts.set(w.folderId, (counts.get(w.folderId) ?? 0) + 1);
  const [folder, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  return n !== undefined && n >= 2 ? folder : undefined;
}

/** A folder id far above any a list shows: no folder has it, so no workbook is in it. */
const NO_FOLDER = 987_654_319;

const COMPARED = ["id", "deploymentId", "name", "type", "folderId", "slug", "createdAt"] as const;

export const workbookReadChecks = group("workbooks", [
  {
    id: "workbooks.list.schema",
    spec: "E8; Resources / Workbook",
    level: "MUST",
    title: "Every page of the workbooks list is a WorkbooksListResponse (items and data of Workbook records)",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { whole, paged } = await walks(api, fixture("deployment").id);
      for (const [i, page] of [...whole.pages, ...paged.pages].entries())
        expect.schema(page.res.body, "WorkbooksListResponse", page.res, `page ${i + 1} of the walks`);
    },
  },
  {
    id: "workbooks.list.cursor-walk",
    spec: "E8; Pagination styles 2",
    level: "MUST",
    title: "Walking the list with a small first yields every workbook once, pages no longer than first, the first page with no previous page",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { whole, paged, first } = await walks(api, fixture("deployment").id);
      if (whole.items.length < 2)
        throw new NotExercised(`the deployment lists ${whole.items.length} workbook(s): a cursor walk needs at least two to span two pages`);
      for (const [i, page] of paged.pages.entries())
        expect.that(page.items.length <= first, `page ${i + 1} holds at most first=${first} workbooks`, {
          expected: `<= ${first}`,
          got: page.items.length,
          res: page.res,
          reason: "first-caps",
        });
      const opening = paged.pages[0];
      expect.that(opening.pageInfo?.hasPreviousPage !== true, "the first page (no after) has no previous page", {
        expected: "hasPreviousPage false",
        got: opening.pageInfo,
        res: opening.res,
        reason: "no-previous-page",
      });
      expectWalkCovers(expect, ids(paged.items), ids(whole.items), "workbook", paged.pages.at(-1)?.res);
    },
  },
  {
    id: "workbooks.list.count-not-below-walk",
    spec: "E8 (count: total accessible ignoring pagination)",
    level: "MUST",
    title: "count, when given, is never below the number of workbooks a walk of the list yields",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const w = await walks(api, fixture("deployment").id);
      const listed = new Set(ids(w.whole.items)).size;
      for (const page of countedPages(w))
        expect.that(page.res.body.count >= listed, "count is not below the workbooks the walk saw", {
          reason: "count-not-below",
          expected: `>= ${listed}`,
          got: page.res.body.count,
          res: page.res,
        });
    },
  },
  {
    id: "workbooks.list.count-matches-walk",
    spec: "E8 (count: total accessible ignoring pagination)",
    // The text defines count ("total accessible ignoring pagination"): a count off on any page breaks a stated rule.
    level: "MUST",
    title: "count, when given, equals the number of workbooks a walk of the list yields, on every page",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      await expectCountMatchesWalk(api, expect, fixture("deployment").id, "the walk");
    },
  },
  {
    id: "workbooks.list.count-matches-walk-viewer",
    spec: "E8 (count: total accessible ignoring pagination)",
    level: "MUST",
    title: "count, as a user below AI BI User lists the workbooks, equals what that user's walk yields: the workbooks it can read, not every workbook",
    needs: ["fixture:deployment", "token:viewer"],
    async run({ as, expect, fixture }) {
      // Accessible is the caller's: a count taken before access is applied shows only to a caller that cannot read everything.
      await expectCountMatchesWalk(as("viewer"), expect, fixture("deployment").id, "the viewer's walk");
    },
  },
  {
    id: "workbooks.list.data-mirrors-items",
    spec: "E8; Versioning 2 (data: deprecated)",
    level: "SHOULD",
    title: "The deprecated data array holds the same workbooks as items on every page (in any order)",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { whole, paged } = await walks(api, fixture("deployment").id);
      for (const [i, page] of [...whole.pages, ...paged.pages].entries()) {
        const data = page.res.body?.data;
        const difference = Array.isArray(data) ? copyDifference(page.items, data, (w) => String(w?.id)) : "data is not an array";
        expect.that(!difference, `page ${i + 1}: data holds the workbooks of items`, {
          reason: "data-copy",
          expected: ids(page.items),
          got: difference,
          res: page.res,
        });
      }
    },
  },
  {
    id: "workbooks.list.folder-filter",
    spec: "E8 (folderId)",
    level: "MUST",
    title: "folderId lists only the workbooks directly in that folder, and all of them; a folder id no folder has lists none, or is refused",
    needs: ["fixture:deployment", "fixture:workbookInFolder"],
    async run({ api, expect, fixture }) {
      const inFolder = fixture("workbookInFolder");
      const dep = fixture("deployment").id;
      const walk = await walkCursor<Workbook>(api, listPath(dep), { first: WHOLE_PAGE, query: { folderId: inFolder.folderId! } });
      const others = walk.items.filter((w) => w?.folderId !== inFolder.folderId);
      expect.that(others.length === 0, `folderId=${inFolder.folderId} lists only workbooks of that folder`, {
        reason: "folder-filter",
        expected: `folderId ${inFolder.folderId} on every item`,
        got: others.slice(0, 5).map((w) => ({ id: w?.id, folderId: w?.folderId })),
        res: walk.pages.at(-1)?.res,
      });
      expect.that(ids(walk.items).includes(String(inFolder.id)), `folderId=${inFolder.folderId} lists workbook ${inFolder.id}, which is in that folder`, {
        expected: `workbook ${inFolder.id} listed`,
        got: ids(walk.items),
        res: walk.pages.at(-1)?.res,
        reason: "folder-filter",
      });
      // A folder that does not exist contains no workbook: its list is empty, unless the server refuses
      // the id (the spec names no answer for it); a list of other folders' workbooks ignored the filter.
      const res = await api.get(listPath(dep), { folderId: NO_FOLDER, first: WHOLE_PAGE });
      const listed = res.status === 200 && res.isJson && Array.isArray(res.body?.items) ? (res.body.items as Workbook[]) : undefined;
      const refused = res.status >= 400 && res.status < 500;
      expect.that(
        refused || (listed !== undefined && listed.every((w) => w?.folderId === NO_FOLDER)),
        `folderId=${NO_FOLDER}, a folder no workbook is in, lists none`,
        {
          expected: "200 with no workbook of another folder, or a 4xx",
          got: listed ? listed.slice(0, 5).map((w) => ({ id: w?.id, folderId: w?.folderId })) : `${res.status} ${res.text.slice(0, 160)}`,
          res,
          reason: "unknown-folder-empty",
        },
      );
    },
  },
  {
    id: "workbooks.list.folder-filter-every-page",
    spec: "E8 (folderId; first, after)",
    level: "MUST",
    title: "Walked in small pages, folderId keeps to that folder on every page, and the walk yields every workbook of the folder",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const all = wholeList(await walkCursor<Workbook>(api, listPath(dep), { first: WHOLE_PAGE, endpoint: "E8" }), "workbooks").items;
      const folder = fullestFolder(all);
      if (folder === undefined) throw new NotExercised("no folder holds two of the listed workbooks: a filtered walk needs two to span two pages");
      const whole = ids(all.filter((w) => w?.folderId === folder));
      const first = smallestPagesOf(whole.length);
      // A server that drops the filter walks the unfiltered list: the walk must reach its wrong pages, not stop short.
      const walk = wholeList(await walkCursor<Workbook>(api, listPath(dep), { first, query: { folderId: folder }, maxPages: all.length + 2 }), "workbooks");
      for (const [i, page] of walk.pages.entries()) {
        const others = page.items.filter((w) => w?.folderId !== folder);
        expect.that(others.length === 0, `page ${i + 1} of folderId=${folder} at first=${first} lists only workbooks of that folder`, {
          expected: `folderId ${folder} on every item`,
          got: others.slice(0, 5).map((w) => ({ id: w?.id, folderId: w?.folderId })),
          res: page.res,
          reason: "filter-every-page",
        });
      }
      expectWalkCovers(expect, ids(walk.items), whole, `workbook of folder ${folder}`, walk.pages.at(-1)?.res);
    },
  },
  {
    id: "workbooks.get.schema",
    spec: "E9; Resources / Workbook",
    level: "MUST",
    title: "Getting a workbook answers 200 with a Workbook",
    needs: ["fixture:deployment", "fixture:workbook"],
    async run({ api, expect, fixture }) {
      expect.ok(await api.call("getWorkbook", { deploymentId: fixture("deployment").id, workbookId: fixture("workbook").id }), "Workbook");
    },
  },
  {
    id: "workbooks.get.matches-list-item",
    spec: "E9; E8",
    level: "MUST",
    title:
      "A workbook's get, for one listed workbook of each shape the list shows (empty or null fields, with or without a dashboard, ...), is a Workbook with the same id, deploymentId, name, type, folderId, slug and createdAt as its list item",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      // Workbooks may sit past the first page (a newest-first server may open with reports): pages are read until a sample is found.
      const walk = await walkCursor<Workbook>(api, listPath(dep), { first: WHOLE_PAGE, stopAfter: SAMPLE_PAGES, endpoint: "E8" });
      const listed: any[] = oneOfEachShape(walk.items.filter(isWorkbook), GET_SAMPLE);
      if (!listed.length) throw new NotExercised(`no WORKBOOK item in the ${walk.pages.length} page(s) of E8 read (${walk.items.length} item(s))`);
      for (const item of listed) {
        const res = await api.call("getWorkbook", { deploymentId: dep, workbookId: item.id });
        const got = expect.ok(res, "Workbook");
        for (const field of COMPARED) {
          const [a, b] = [item[field], got[field]];
          if (a === undefined || b === undefined) continue;
          const same = field === "createdAt" && typeof a === "string" && typeof b === "string" ? sameTimestamp(a, b) : isDeepStrictEqual(a, b);
          expect.that(same, `workbook ${item.id}: ${field} of the get equals the list item's`, { reason: "same-field", expected: a, got: b, res });
        }
      }
    },
  },
  {
    id: "workbooks.get.unknown-id-404",
    spec: "E9; Errors 2 (404: workbook missing or in another deployment)",
    level: "MUST",
    title: "Getting a workbook id that does not exist answers 404",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const { api, expect, fixture } = ctx;
      const dep = fixture("deployment").id;
      const items = wholeList(await walkCursor<Workbook>(api, listPath(dep), { first: WHOLE_PAGE, endpoint: "E8" }), "workbooks").items;
      const listed = items.map((w) => Number(w?.id)).filter(Number.isSafeInteger);
      // A 404 proves nothing from a server without E9: a listed workbook that reads shows it is served.
      const known = items.find((w) => isWorkbook(w) && Number.isSafeInteger(w?.id))?.id;
      if (known !== undefined)
        ctx.require(await api.call("getWorkbook", { deploymentId: dep, workbookId: known }), "E9", `reading workbook ${known}, which E8 lists`);
      const unknown = Math.max(0, ...listed) + 1_000_000;
      expect.status(await api.call("getWorkbook", { deploymentId: dep, workbookId: unknown }), 404, `workbook ${unknown} (far above every listed id)`);
    },
  },
  {
    id: "workbooks.get.other-deployment-404",
    spec: "E9; Errors 2 (404: workbook missing or in another deployment)",
    level: "MUST",
    title: "A workbook addressed under another deployment answers 404",
    needs: ["fixture:deployment", "fixture:otherDeployment", "fixture:workbook"],
    async run({ api, expect, fixture }) {
      const ours = fixture("workbook");
      const other = fixture("otherDeployment").id;
      const res = await api.call("getWorkbook", { deploymentId: other, workbookId: ours.id });
      // Ids might be scoped per deployment: the other deployment's own workbook of that id is no leak.
      if (res.status === 200 && res.isJson && String(res.body?.deploymentId) === other)
        throw new NotExercised(`deployment ${other} has a workbook ${ours.id} of its own: ids are scoped per deployment here`);
      expect.status(res, 404, `workbook ${ours.id} of deployment ${fixture("deployment").id} under deployment ${other}`);
    },
  },
]);

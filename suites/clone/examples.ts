import type { Api } from "../../core/transport/api.js";
import { group } from "../../core/model/check.js";
import type { CheckContext } from "../../core/model/context.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { walkCursor, wholeList } from "../../core/transport/pagination.js";
import { dashboardReportIds, idsAt, knownReportIds, reportRefPaths, withRefsHidden } from "./report-refs.js";
import { copiesBefore, expectNoCopyMade } from "./refused-clone.js";
import { createFolder, createWorkbook, deletedItem } from "../lib/scratch-items.js";
import { workbooksPath } from "../lib/workbook-calls.js";
import { inFolder, requirePublishedShown, shownFolderId } from "../lib/workbook-place.js";
import { duplicate, expectAnswerIsStored, unlessAtWorkbookLimit, ownerOf, ownWorkbook, putBySlug, readWorkbook, workbookPath } from "../lib/workbook-writes.js";

const SHARED = { shared: true };

/**
 * Clones `id` (E10) and reads the clone back (E9): the answer, and the record as stored. A clone
 * that does not answer blocks the check (E10's owner, clone.answer.is-the-stored-clone, fails).
 */
async function cloneAndRead(ctx: CheckContext, dep: string, id: number, api: Api = ctx.api) {
  const res = await duplicate(ctx.scratch, api, dep, id);
  unlessAtWorkbookLimit(res, `cloning workbook ${id}`);
  ctx.require(res, "E10", `cloning workbook ${id}`, (r) => r.isJson && Number.isSafeInteger(r.body?.id));
  const answer = ctx.expect.ok(res, "Workbook");
  const stored = await readWorkbook(ctx, api, dep, answer.id);
  return { answer, res, clone: stored.workbook, cloneRes: stored.res };
}

/** The entries of `value` under the keys of `like`: a copy may add keys of its own, not lose or change any. */
const keysOf = (value: any, like: Record<string, unknown>) => Object.fromEntries(Object.keys(like).map((k) => [k, value?.[k]]));

/** A meta whose `dashboardDraft`, where a server keeps the draft there (E11 rule 2), names reports by placeholder: E10 rule 2 rewrites them in a clone. */
const draftRefsHidden = (meta: any, known: Set<number>, source: any) =>
  meta && typeof meta === "object" && "dashboardDraft" in meta
    ? { ...meta, dashboardDraft: withRefsHidden(meta.dashboardDraft, reportRefPaths(source?.dashboardDraft, known)) }
    : meta;

/** What cloning must leave alone on the source (States: "source unchanged"). */
const content = (w: any) => ({
  name: w.name,
  folderId: w.folderId,
  slug: w.slug,
  meta: w.meta,
  calculatedFields: w.calculatedFields,
  dashboardDraft: w.dashboardDraft,
  publishedDashboard: w.publishedDashboard,
});

/** The checks of E10 rule 2 on one side of a dashboard: the clone names copies, never the source's reports. */
async function expectReferencesRewritten(ctx: CheckContext, side: "dashboardDraft" | "publishedDashboard") {
  const dep = ctx.fixture("deployment").id;
  const { workbook: source } = await readWorkbook(ctx, ctx.api, dep, ctx.fixture("publishedWorkbook").id);
  // The clone is read where the source holds its references, whatever they are called.
  const known = await knownReportIds(ctx.api, dep, [source.publishedDashboard]);
  const draftPaths = reportRefPaths(source.dashboardDraft, known);
  const publishedPaths = reportRefPaths(source.publishedDashboard?.config, known);
  const refsOf = (w: any) => (side === "dashboardDraft" ? idsAt(w.dashboardDraft, draftPaths) : dashboardReportIds(w.publishedDashboard, publishedPaths));
  const sourceRefs = refsOf(source);
  if (!sourceRefs.length) throw new NotExercised(`the published workbook ${source.id} names no report in its ${side}`);
  const allSourceReports = new Set([...idsAt(source.dashboardDraft, draftPaths), ...dashboardReportIds(source.publishedDashboard, publishedPaths)]);
  const { clone, cloneRes: res } = await cloneAndRead(ctx, dep, source.id);
  const cloneRefs = refsOf(clone);
  ctx.expect.equal(cloneRefs.length, sourceRefs.length, `the clone's ${side} holds as many report references as the source's`, {
    res: res,
    reason: "ref-count",
  });
  const reused = [...new Set(cloneRefs.filter((id) => allSourceReports.has(id)))];
  ctx.expect.that(reused.length === 0, `every report reference in the clone's ${side} points to a copied report, none to the source's`, {
    reason: "refs-rewritten",
    expected: "only ids of the copied reports",
    got: `source report ids: ${reused.join(", ")}`,
    res,
  });
  ctx.expect.equal(new Set(cloneRefs).size, new Set(sourceRefs).size, `distinct reports of the source stay distinct copies in the clone's ${side}`, {
    res: res,
    reason: "refs-distinct",
  });
}

/** A clone of a workbook of the check's own: shows that E10 answers before a check relies on a refusal of it. */
async function cloneOwn(ctx: CheckContext, dep: string): Promise<void> {
  await cloneAndRead(ctx, dep, (await ownWorkbook(ctx, ctx.api, dep)).workbook.id);
}

export const cloneChecks = group("clone", [
  {
    id: "clone.answer.is-the-stored-clone",
    spec: "E10 (Response 200: the new Workbook)",
    level: "MUST",
    title: "Cloning answers 200 with the new Workbook, as E9 reads it next",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { workbook } = await ownWorkbook(ctx, ctx.api, dep, { meta: { cloned: "yes" } });
      const res = await duplicate(ctx.scratch, ctx.api, dep, workbook.id);
      unlessAtWorkbookLimit(res, `cloning workbook ${workbook.id}`);
      const answer = ctx.expect.ok(res, "Workbook");
      ctx.expect.that(answer.id !== workbook.id, "the answer is a new workbook, not the source", {
        expected: `an id other than ${workbook.id}`,
        got: answer.id,
        res,
        reason: "new-workbook",
      });
      await expectAnswerIsStored(ctx, ctx.api, dep, answer, res, "the clone's answer");
    },
  },
  {
    id: "clone.name.copy-of",
    spec: "E10 rule 1",
    level: "MUST",
    title: "The clone is named `Copy of {original name}`",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const { answer: clone, res } = await cloneAndRead(ctx, dep, workbook.id);
      ctx.expect.equal(clone.name, `Copy of ${workbook.name}`, "the clone's name", { res, reason: "name" });
    },
  },
  {
    id: "clone.copy.full-copy",
    spec: "E10 rule 1",
    level: "MUST",
    title: "The clone is a full copy: meta, calculated fields, dashboard draft and published dashboard (apart from which reports they name)",
    needs: ["writes", "fixture:deployment", "fixture:publishedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { workbook: source } = await readWorkbook(ctx, ctx.api, dep, ctx.fixture("publishedWorkbook").id);
      const known = await knownReportIds(ctx.api, dep, [source.publishedDashboard]);
      const { answer, res, clone, cloneRes } = await cloneAndRead(ctx, dep, source.id);
      const draftPaths = reportRefPaths(source.dashboardDraft, known);
      const publishedPaths = reportRefPaths(source.publishedDashboard?.config, known);
      ctx.expect.equal(
        draftRefsHidden(keysOf(answer.meta, source.meta), known, source.meta),
        draftRefsHidden(source.meta, known, source.meta),
        "the clone's meta holds the source's, apart from the report ids of a draft kept in meta.dashboardDraft",
        { res, reason: "meta-copied" },
      );
      ctx.expect.equal(keysOf(answer.calculatedFields, source.calculatedFields), source.calculatedFields, "the clone's calculatedFields hold the source's", {
        res: res,
        reason: "calculated-fields",
      });
      ctx.expect.equal(
        withRefsHidden(clone.dashboardDraft ?? null, draftPaths),
        withRefsHidden(source.dashboardDraft ?? null, draftPaths),
        "the clone's dashboard draft is the source's, apart from the report ids",
        { res: cloneRes, reason: "draft-copied" },
      );
      ctx.expect.that(clone.publishedDashboard != null, "the clone carries a copy of the source's published dashboard", {
        expected: "a publishedDashboard",
        got: clone.publishedDashboard,
        res: cloneRes,
        reason: "dashboard-copied",
      });
      ctx.expect.equal(
        withRefsHidden(clone.publishedDashboard.config, publishedPaths),
        withRefsHidden(source.publishedDashboard.config, publishedPaths),
        "the cloned dashboard's config is the source's, apart from the report ids",
        { res: cloneRes, reason: "dashboard-config" },
      );
      ctx.expect.equal(
        clone.publishedDashboard.reportSnapshots?.length,
        source.publishedDashboard.reportSnapshots?.length,
        "the cloned dashboard has one report snapshot per snapshot of the source",
        { res: cloneRes, reason: "snapshots-copied" },
      );
    },
  },
  {
    id: "clone.independence.source-unchanged",
    spec: "E10 rule 2; States and transitions (clone: source unchanged)",
    level: "MUST",
    title: "Cloning leaves the source workbook unchanged: a fresh workbook of the run's own at its first clone, and one with a published dashboard",
    needs: ["writes", "fixture:deployment", "fixture:publishedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // A fresh source each run (and each confirming re-run): a server that changes a source only at its first clone shows it here.
      const fresh = (await ownWorkbook(ctx, ctx.api, dep, { meta: { stage: "source" } })).workbook.id;
      for (const id of [fresh, ctx.fixture("publishedWorkbook").id]) {
        const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, id);
        await cloneAndRead(ctx, dep, id);
        const { workbook: after, res } = await readWorkbook(ctx, ctx.api, dep, id);
        ctx.expect.equal(content(after), content(before), `source ${id} as read after cloning it`, { res, reason: "source-unchanged" });
      }
    },
  },
  {
    id: "clone.independence.source-change-not-seen",
    spec: "E10 rule 2",
    level: "MUST",
    title: "The clone is independent: a later change to the source (through its slug) does not reach the clone",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook: source } = await ownWorkbook(ctx, ctx.api, dep, { meta: { stage: "before" } });
      const { clone } = await cloneAndRead(ctx, dep, source.id);
      const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { meta: { stage: "after" } });
      const updated = ctx.expect.ok(res, "Workbook");
      ctx.expect.equal(updated.id, source.id, "the source's slug still reaches the source, not its clone", { res, reason: "slug-reaches-source" });
      const { workbook: cloneNow, res: cloneRes } = await readWorkbook(ctx, ctx.api, dep, clone.id);
      ctx.expect.equal(cloneNow.meta?.stage, "before", "the clone's meta after the source's changed", { res: cloneRes, reason: "clone-independent" });
    },
  },
  {
    id: "clone.reports.draft-references-rewritten",
    spec: "E10 rule 2",
    level: "MUST",
    title: "Every report reference in the clone's dashboard draft points to a copied report, none to the source's",
    needs: ["writes", "fixture:deployment", "fixture:publishedWorkbook"],
    run: (ctx) => expectReferencesRewritten(ctx, "dashboardDraft"),
  },
  {
    id: "clone.reports.published-references-rewritten",
    spec: "E10 rule 2",
    level: "MUST",
    title: "Every report reference in the clone's published dashboard (snapshots and widgets) points to a copied report, none to the source's",
    needs: ["writes", "fixture:deployment", "fixture:publishedWorkbook"],
    run: (ctx) => expectReferencesRewritten(ctx, "publishedDashboard"),
  },
  {
    id: "clone.embed.allow-embed-false",
    spec: "E10 rule 3",
    level: "MUST",
    title: "allowEmbed on the cloned dashboard starts false even when it is true on the source",
    needs: ["writes", "fixture:deployment", "fixture:embeddableWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { answer, res, clone, cloneRes } = await cloneAndRead(ctx, dep, ctx.fixture("embeddableWorkbook").id);
      // Both the answer and the record as stored: a server may fix one and not the other.
      for (const [w, r, which] of [
        [answer, res, "the clone's answer"],
        [clone, cloneRes, "the clone as stored"],
      ] as const) {
        ctx.expect.that(w.publishedDashboard != null, `${which} carries a copy of the source's published dashboard`, {
          expected: "a publishedDashboard",
          got: w.publishedDashboard,
          res: r,
          reason: "dashboard-copied",
        });
        ctx.expect.equal(w.publishedDashboard.allowEmbed, false, `allowEmbed of the cloned dashboard in ${which}`, { res: r, reason: "allow-embed" });
      }
    },
  },
  {
    id: "clone.placement.same-folder-with-edit",
    spec: "E10 rule 4",
    level: "MUST",
    title: "With edit access to the source's folder, the clone is created in that folder",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const folder = await createFolder(ctx, dep);
      const { workbook } = await ownWorkbook(ctx, ctx.api, dep, { folderId: folder.id });
      const { answer, res } = await cloneAndRead(ctx, dep, workbook.id);
      const placed = await inFolder(ctx, ctx.api, dep, answer.id, folder.id, { answer, witness: workbook.id });
      ctx.expect.that(placed.inside, `the clone is in the source's folder ${folder.id}, which the caller created and may edit (read from ${placed.how})`, {
        expected: `in folder ${folder.id}`,
        got: `elsewhere (${placed.how})`,
        res: placed.res ?? res,
        reason: "folder",
      });
    },
  },
  {
    id: "clone.placement.read-only-to-root",
    spec: "E10 rule 4",
    level: "MUST",
    title: "With only read access to the source's folder, the clone is created at the workspace root",
    needs: ["writes", "fixture:deployment", "token:readOnly", "fixture:readOnlyFolder"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const folderId = ctx.fixture("readOnlyFolder").id;
      const { workbook } = await ownWorkbook(ctx, ctx.api, dep, { folderId });
      const res = await duplicate(ctx.scratch, ctx.as("readOnly"), dep, workbook.id);
      unlessAtWorkbookLimit(res, `the readOnly token cloning workbook ${workbook.id}`);
      ctx.require(res, "E10", "the readOnly token cloning a workbook of fixtures.readOnlyFolder (it needs read access there and the AI BI User role)");
      const clone = ctx.expect.ok(res, "Workbook");
      ctx.expect.that(clone.folderId == null, "the clone made with read-only access to the source's folder is at the root", {
        reason: "at-root",
        expected: "folderId null",
        got: clone.folderId,
        res,
      });
    },
  },
  {
    id: "clone.placement.root-stays-root",
    spec: "E10 rule 4",
    level: "MUST",
    title: "The clone of a workbook at the root is created at the root",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { workbook } = await ownWorkbook(ctx, ctx.api, dep);
      if (workbook.folderId != null)
        throw new NotExercised(`the workbook created without folderId is in folder ${workbook.folderId}: there is no root workbook to clone`);
      const { answer: clone, res } = await cloneAndRead(ctx, dep, workbook.id);
      ctx.expect.that(clone.folderId == null, "the clone of a root workbook is at the root", {
        reason: "at-root",
        expected: "folderId null",
        got: clone.folderId,
        res,
      });
    },
  },
  {
    id: "clone.owner.caller-owns",
    spec: "E10 rule 5",
    level: "MUST",
    title: "The caller owns the clone, not the source's owner",
    needs: ["writes", "fixture:deployment", "token:readOnly", "fixture:editableFolder"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const me = ownerOf((await ownWorkbook(ctx, ctx.api, dep)).workbook);
      if (me === undefined) throw new NotVerifiable("the server shows no owner on workbooks (createdBy, user, userId are all optional)");
      const { workbook: theirs } = await ownWorkbook(ctx, ctx.as("readOnly"), dep, { folderId: ctx.fixture("editableFolder").id });
      if (ownerOf(theirs) === undefined || ownerOf(theirs) === me)
        throw new NotExercised("the readOnly token's workbook shows no owner distinct from the main token's");
      const { answer, res } = await cloneAndRead(ctx, dep, theirs.id);
      ctx.expect.equal(ownerOf(answer), me, "the owner of the clone (the caller, as shown on a workbook it created)", { res, reason: "owner" });
    },
  },
  {
    id: "clone.shared.non-creator-403",
    spec: "E10 rule 6; Errors 2",
    level: "MUST",
    title: "shared: true from a caller that is not a creator-mode embed session is a 403, and no clone is made",
    needs: ["writes", "fixture:deployment", "fixture:sharedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const id = ctx.fixture("sharedWorkbook").id;
      const before = await copiesBefore(ctx, dep, id);
      const res = await duplicate(ctx.scratch, ctx.api, dep, id, SHARED);
      ctx.expect.status(res, 403, "shared: true with the main API key");
      await expectNoCopyMade(ctx, dep, before, res, "after the refused shared clone");
    },
  },
  {
    id: "clone.shared.from-published",
    spec: "E10 rule 6",
    level: "MUST",
    title: "shared: true builds the clone from the published dashboard: fresh reports, re-published on the new workbook, at the root",
    needs: ["writes", "fixture:deployment", "token:creator", "fixture:sharedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      await cloneOwn(ctx, dep);
      const id = ctx.fixture("sharedWorkbook").id;
      const creator = ctx.as("creator");
      const res = await duplicate(ctx.scratch, creator, dep, id, SHARED);
      unlessAtWorkbookLimit(res, `the creator cloning shared workbook ${id}`);
      const answer = ctx.expect.ok(res, "Workbook");
      const folderId = await shownFolderId(creator, dep, answer.id, answer);
      if (folderId !== undefined)
        ctx.expect.that(folderId === null, "the shared clone is at the root", { expected: "folderId null", got: folderId, res, reason: "at-root" });
      const { workbook: clone, res: cloneRes } = await readWorkbook(ctx, creator, dep, answer.id);
      requirePublishedShown(clone, `the shared clone ${answer.id} read back (E9)`);
      const d = clone.publishedDashboard;
      ctx.expect.that(d != null, "the shared clone carries a re-published dashboard", {
        expected: "a publishedDashboard",
        got: d,
        res: cloneRes,
        reason: "republished",
      });
      ctx.expect.equal(d.status, "published", "the status of the re-published dashboard", { res: cloneRes, reason: "republished-status" });
      ctx.expect.equal(d.workbookId, clone.id, "the dashboard is re-published on the new workbook", { res: cloneRes, reason: "republished-on-clone" });
      // The source's snapshots are compared when the main token can read the shared workbook.
      const src = await ctx.api.get(workbookPath(dep, id));
      const published = src.status === 200 && src.isJson ? src.body?.publishedDashboard : undefined;
      if (!published) return;
      ctx.expect.equal(d.reportSnapshots.length, published.reportSnapshots.length, "one fresh report per report snapshot of the source", {
        res: cloneRes,
        reason: "fresh-snapshots",
      });
      const paths = reportRefPaths(published.config, await knownReportIds(ctx.api, dep, [published]));
      const sourceReports = new Set(dashboardReportIds(published, paths));
      const reused = [...new Set(dashboardReportIds(d, paths).filter((r) => sourceReports.has(r)))];
      ctx.expect.that(reused.length === 0, "the re-published dashboard names fresh reports, none of the source's", {
        reason: "fresh-reports",
        expected: "no source report id",
        got: `source report ids: ${reused.join(", ")}`,
        res: cloneRes,
      });
    },
  },
  {
    id: "clone.shared.unpublished-400",
    spec: "E10 rule 6; Errors 2",
    level: "MUST",
    title: "shared: true on a shared-workspace workbook without a published dashboard is a 400, and no clone is made",
    needs: ["writes", "fixture:deployment", "token:creator", "fixture:sharedUnpublishedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const id = ctx.fixture("sharedUnpublishedWorkbook").id;
      const before = await copiesBefore(ctx, dep, id);
      const res = await duplicate(ctx.scratch, ctx.as("creator"), dep, id, SHARED);
      ctx.expect.status(res, 400, "shared clone of a workbook with no published dashboard");
      await expectNoCopyMade(ctx, dep, before, res, "after the refused shared clone");
    },
  },
  {
    id: "clone.limit.reached-400",
    spec: "E10 rule 7; Errors 2; Limits",
    level: "MUST",
    title: "Cloning when the plan's workbook limit is reached is a 400, and no workbook is created",
    needs: ["writes", "fixture:workbookLimitDeployment"],
    async run(ctx) {
      const { id: dep, workbookId } = ctx.fixture("workbookLimitDeployment");
      // Only this check writes into that deployment: its list holds still around the refused clone.
      const listed = async () =>
        wholeList(await walkCursor(ctx.api, workbooksPath(dep), { first: 100, endpoint: "E8" }), "workbooks").items.map((w: any) => w?.id);
      const before = await listed();
      ctx.expect.status(await duplicate(ctx.scratch, ctx.api, dep, workbookId), 400, "clone in a deployment whose workbook limit is reached");
      ctx.expect.equal(await listed(), before, `the workbooks E8 lists in deployment ${dep} after the refused clone`, { reason: "nothing-created" });
    },
  },
  {
    id: "clone.missing.unknown-id-404",
    spec: "E10 rule 8; Errors 2",
    level: "MUST",
    title: "Cloning a workbook that does not exist is a 404",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      await cloneOwn(ctx, dep);
      const gone = await deletedItem(ctx, dep, "WORKBOOK");
      ctx.expect.status(await duplicate(ctx.scratch, ctx.api, dep, gone.id), 404, "clone of a deleted workbook");
    },
  },
  {
    id: "clone.missing.other-deployment-404",
    spec: "E10 rule 8; Errors 2",
    level: "MUST",
    title: "Cloning, under one deployment, a workbook of another deployment is a 404",
    needs: ["writes", "fixture:deployment", "fixture:namedOtherDeployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      await cloneOwn(ctx, dep);
      const theirs = await createWorkbook(ctx, ctx.fixture("namedOtherDeployment").id);
      ctx.expect.status(await duplicate(ctx.scratch, ctx.api, dep, theirs.id), 404, "clone of another deployment's workbook");
    },
  },
]);

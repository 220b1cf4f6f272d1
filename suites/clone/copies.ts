import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { dashboardReportIds, idsAt, knownReportIds, reportRefPaths, withRefsHidden } from "./report-refs.js";
import { cloneAndRead } from "./clone-and-read.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { workbooksPath } from "../lib/workbook-calls.js";
import { TOOL_NAME } from "../../core/model/names.js";
import { duplicate, expectAnswerIsStored, unlessAtWorkbookLimit, ownWorkbook, putBySlug, readWorkbook } from "../lib/workbook-writes.js";

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

/**
 * The oldest workbook other than `fixture` whose draft holds widgets (where the list shows drafts), that no run made (not
 * the tool's name, not a clone's "Copy of"), preferring one no other check clones (the fixtures they clone are published
 * workbooks), read as the fixtures are, from the first pages of E8: its first clone in the run is likely this check's. A
 * server once rewrote a source's draft in place at its first clone only, and the fixture may have been cloned by then.
 */
async function anotherDraftedWorkbook(ctx: CheckContext, dep: string, fixture: number): Promise<number | undefined> {
  const walk = await walkCursor<any>(ctx.api, workbooksPath(dep), { first: 50, stopAfter: 10 }).catch(() => undefined);
  const drafted = (walk?.items ?? [])
    .filter((w) => (w?.type === undefined || w.type === "WORKBOOK") && Number.isSafeInteger(w.id) && w.id !== fixture)
    .filter((w) => Array.isArray(w.dashboardDraft?.widgets) && w.dashboardDraft.widgets.length > 0)
    .filter((w) => !TOOL_NAME.test(String(w.name)) && !String(w.name).startsWith("Copy of "))
    .sort((a, b) => Number(a.publishedDashboard != null) - Number(b.publishedDashboard != null) || a.id - b.id);
  return drafted[0]?.id;
}

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

/** E10 rules 1-3: what the clone holds (the answer, its name, a full copy), its independence from the source, and the copied dashboard's report references and allowEmbed. */
export const cloneCopyChecks = group("clone", [
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
    title: "The clone is named `Copy of {original name}`, an original name in plain ASCII or with letters and signs beyond it",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // The name classes a clone's name is built from (core/api/input-domain.ts: plain, non-ASCII): a server may build it byte by byte.
      for (const name of [ctx.scratch.name("workbook"), `${ctx.scratch.name("wb")} Ünïcode Ωmega 数据 ✓`]) {
        const { workbook } = await ownWorkbook(ctx, ctx.api, dep, { name });
        const { answer: clone, res } = await cloneAndRead(ctx, dep, workbook.id);
        ctx.expect.equal(clone.name, `Copy of ${workbook.name}`, `the name of the clone of ${JSON.stringify(workbook.name)}`, { res, reason: "name" });
      }
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
        withRefsHidden(clone.publishedDashboard!.config, publishedPaths),
        withRefsHidden(source.publishedDashboard!.config, publishedPaths),
        "the cloned dashboard's config is the source's, apart from the report ids",
        { res: cloneRes, reason: "dashboard-config" },
      );
      ctx.expect.equal(
        clone.publishedDashboard!.reportSnapshots?.length,
        source.publishedDashboard!.reportSnapshots?.length,
        "the cloned dashboard has one report snapshot per snapshot of the source",
        { res: cloneRes, reason: "snapshots-copied" },
      );
    },
  },
  {
    id: "clone.independence.source-unchanged",
    spec: "E10 rule 2; States and transitions (clone: source unchanged)",
    level: "MUST",
    title:
      "Cloning leaves the source workbook unchanged: a fresh workbook of the run's own at its first clone, a drafted workbook no other check clones, a clone of the published workbook at its first clone (its draft names reports of its own), and the published workbook",
    needs: ["writes", "fixture:deployment", "fixture:publishedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // A fresh source each run (and each confirming re-run): a server that changes a source only at its first clone shows it here.
      const fresh = (await ownWorkbook(ctx, ctx.api, dep, { meta: { stage: "source" } })).workbook.id;
      const fixture = ctx.fixture("publishedWorkbook").id;
      const another = await anotherDraftedWorkbook(ctx, dep, fixture);
      // A clone's draft names copies of its own (E10 rule 2), wherever the server keeps a draft: a source whose draft names
      // reports of its own, at its first clone.
      const { answer: cloned } = await cloneAndRead(ctx, dep, fixture);
      for (const id of [fresh, ...(another === undefined ? [] : [another]), cloned.id, fixture]) {
        const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, id);
        await cloneAndRead(ctx, dep, id);
        const { workbook: after, res } = await readWorkbook(ctx, ctx.api, dep, id);
        ctx.expect.equal(content(after), content(before), `source ${id} as read after cloning it`, { res, reason: "source-unchanged" });
      }
    },
  },
  {
    id: "clone.independence.own-dashboard",
    spec: "E10 rule 2 (the clone is independent of the original); Resources / Dashboard (id, publicId)",
    level: "MUST",
    title: "The clone's published dashboard is a dashboard of its own: its id and its publicId are not the source's",
    needs: ["writes", "fixture:deployment", "fixture:publishedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { workbook: source } = await readWorkbook(ctx, ctx.api, dep, ctx.fixture("publishedWorkbook").id);
      const { clone, cloneRes } = await cloneAndRead(ctx, dep, source.id);
      if (!source.publishedDashboard || !clone.publishedDashboard)
        throw new NotExercised("the source or its clone shows no published dashboard: clone.copy.full-copy judges the copy");
      for (const key of ["id", "publicId"] as const)
        ctx.expect.that(clone.publishedDashboard[key] !== source.publishedDashboard[key], `the clone's published dashboard has a ${key} of its own`, {
          expected: `not ${JSON.stringify(source.publishedDashboard[key])}, the source's`,
          got: clone.publishedDashboard[key],
          res: cloneRes,
          reason: "own-dashboard",
        });
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
    title: "allowEmbed on the cloned dashboard starts false even when it is true on the source, and the source's stays as it was",
    needs: ["writes", "fixture:deployment", "fixture:embeddableWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const sourceId = ctx.fixture("embeddableWorkbook").id;
      const before = await readWorkbook(ctx, ctx.api, dep, sourceId);
      if (before.workbook.publishedDashboard?.allowEmbed !== true)
        throw new NotExercised(
          `workbook ${sourceId} reads allowEmbed ${JSON.stringify(before.workbook.publishedDashboard?.allowEmbed)} now: no source whose true the clone must not take`,
        );
      const { answer, res, clone, cloneRes } = await cloneAndRead(ctx, dep, sourceId);
      // The clone is independent of its source (E10 rule 2; States: source unchanged): a server once wrote the clone's false to the dashboard it shares with the source.
      const after = await readWorkbook(ctx, ctx.api, dep, sourceId);
      ctx.expect.equal(after.workbook.publishedDashboard?.allowEmbed, true, `allowEmbed of the source's dashboard after the clone`, {
        res: after.res,
        reason: "source-unchanged",
      });
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
        ctx.expect.equal(w.publishedDashboard!.allowEmbed, false, `allowEmbed of the cloned dashboard in ${which}`, { res: r, reason: "allow-embed" });
      }
    },
  },
]);

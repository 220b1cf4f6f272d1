import fc from "fast-check";
import type { CheckContext } from "../../core/check/context.js";
import { invalidValues, validValues } from "../../generators/index.js";
import { createFolder } from "./scratch-items.js";
import { ownWorkbook, trackAnswered, workbookPath } from "./workbook-writes.js";
import { type BadBody, type Stage, badBodies, notJsonBodies, sender, spelledAsValid } from "./negative-bodies.js";
import { atOnce } from "./at-once.js";

/** The valid upsert renames the run's own workbook and merges meta into it; it must read as it was. */
export async function upsertStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const [folder, { slug, workbook }] = await atOnce([createFolder(ctx, dep), ownWorkbook(ctx, ctx.api, dep)]);
  // The draft too, where the record shows it beside meta (where a draft shows is not shown): a broken draft taken changes only it.
  const kept = (w: any) => ({ name: w?.name, meta: w?.meta, folderId: w?.folderId ?? null, dashboardDraft: w?.dashboardDraft ?? null });
  let before = kept(workbook);
  const meta = validValues(ctx.schemas.schema("UpsertWorkbookRequest").properties.meta);
  const base = fc.record({ name: fc.constant(`${workbook.name} renamed`), meta });
  // A folderId, when a case adds one, looks like the run's own folder, not like someone else's.
  const opts = { base, nullIsAbsent: true, optionalRoot: true, overrides: { "/folderId": fc.constant(folder.id) } };
  return {
    cases: badBodies(ctx, "UpsertWorkbookRequest", opts),
    notJson: notJsonBodies(base),
    send: sender("upsertWorkbookBySlug", { deploymentId: dep, slug }, (res) => trackAnswered(ctx.scratch, dep, res)),
    // A merged meta cannot be taken back: the workbook as it is now is what later cases must keep.
    // Read as JSON, not judged by the schema (the invariant's verdict): a broken draft a case got
    // stored is that case's failure, never one of a later case that only found it there.
    async restore(api) {
      before = kept(ctx.expect.ok(await api.get(workbookPath(dep, workbook.id))));
    },
    lenient: spelledAsValid(ctx, "UpsertWorkbookRequest"),
    async unchanged(api) {
      const res = await api.get(workbookPath(dep, workbook.id));
      ctx.expect.equal(kept(ctx.expect.ok(res)), before, "the workbook holding the slug keeps its name, meta, draft and folder", {
        res: res,
        reason: "holder-unchanged",
      });
    },
  };
}

/**
 * E11 rule 2: a sent meta.dashboardDraft is validated as elsewhere, so a draft that breaks
 * DashboardConfig anywhere, however deep, is refused. Only the draft is sent: the workbook the
 * slug holds must keep its name, meta and folder. TABS_CONTAINER, still accepted, is never a break.
 */
export async function draftStage(ctx: CheckContext): Promise<Stage> {
  const stage = await upsertStage(ctx);
  const cases = invalidValues(ctx.schemas.schema("DashboardConfig"), { nullIsAbsent: true, optionalRoot: true })
    .filter((c) => !JSON.stringify(c.value).includes(LEGACY_WIDGET_TYPE))
    .map((c): BadBody => ({ kind: c.kind, at: `/meta/dashboardDraft${c.at}`, body: { meta: { dashboardDraft: c.value } } }));
  // Only drafts are sent: a body that is not JSON is the upsert property's case, not a draft's.
  return { ...stage, cases, notJson: [] };
}

const LEGACY_WIDGET_TYPE = "TABS_CONTAINER";

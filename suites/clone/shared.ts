import type { CheckContext } from "../../core/check/context.js";
import type { Api } from "../../core/transport/api.js";
import type { Response } from "../../core/transport/http.js";
import type { Workbook } from "../../core/api/schema-types.js";
import { group } from "../../core/check/check.js";
import { dashboardReportIds, knownReportIds, reportRefPaths, withRefsHidden } from "./report-refs.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { asBothShow } from "../lib/values.js";
import { copiesBefore, expectNoCopyMade } from "./refused-clone.js";
import { cloneOwn } from "./clone-and-read.js";
import { requirePublishedShown, shownFolderId } from "../lib/workbook-place.js";
import { duplicate, ownerOf, putBySlug, unlessAtWorkbookLimit, readWorkbook, workbookPath } from "../lib/workbook-writes.js";

/** The body of a shared clone (E10 rule 6). */
const SHARED = { shared: true };

/**
 * The creator-mode caller's shared clone of the sharedWorkbook fixture, once a clone of the check's own showed that E10
 * answers (a missing route blocks the check under its owner): its answer, the caller and the source's id.
 */
async function sharedCloneByCreator(ctx: CheckContext, dep: string): Promise<{ answer: Workbook; res: Response; creator: Api; id: number }> {
  await cloneOwn(ctx, dep);
  const id = ctx.fixture("sharedWorkbook").id;
  const creator = ctx.as("creator");
  const res = await duplicate(ctx.scratch, creator, dep, id, SHARED);
  unlessAtWorkbookLimit(res, `the creator cloning shared workbook ${id}`);
  return { answer: ctx.expect.ok(res, "Workbook"), res, creator, id };
}

/** E10 rule 6: `shared: true`, refused to a caller that is not a creator-mode embed session and on an unpublished workbook, else built from the published dashboard. */
export const cloneSharedChecks = group("clone", [
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
    spec: "E10 rules 6 and 3",
    level: "MUST",
    title:
      "shared: true builds the clone from the published dashboard: fresh reports, re-published on the new workbook, at the root, allowEmbed false where the source's is true",
    needs: ["writes", "fixture:deployment", "token:creator", "fixture:sharedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { answer, res, creator, id } = await sharedCloneByCreator(ctx, dep);
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
      ctx.expect.equal(d!.status, "published", "the status of the re-published dashboard", { res: cloneRes, reason: "republished-status" });
      ctx.expect.equal(d!.workbookId, clone.id, "the dashboard is re-published on the new workbook", { res: cloneRes, reason: "republished-on-clone" });
      // The source's snapshots are compared when the main token can read the shared workbook.
      const src = await ctx.api.get(workbookPath(dep, id));
      const published = src.status === 200 && src.isJson ? src.body?.publishedDashboard : undefined;
      if (!published) return;
      // E10 rule 3 holds on the shared path too: a server once copied the source's allowEmbed there only.
      if (published.allowEmbed === true)
        ctx.expect.equal(d!.allowEmbed, false, "allowEmbed of the shared clone's dashboard, the source's being true", { res: cloneRes, reason: "allow-embed" });
      ctx.expect.equal(d!.reportSnapshots.length, published.reportSnapshots.length, "one fresh report per report snapshot of the source", {
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
    id: "clone.shared.draft-from-published",
    spec: "E10 rule 6 (the same config seeds the draft; the unpublished draft is not copied); E10 rule 5 (the caller owns the new workbook)",
    level: "MUST",
    title:
      "A shared clone's draft is the source's published config, its report references aside, not the source's own draft; and the creator-mode caller owns the clone",
    needs: ["writes", "fixture:deployment", "token:creator", "fixture:sharedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const id = ctx.fixture("sharedWorkbook").id;
      const src = await ctx.api.get(workbookPath(dep, id));
      const published = src.status === 200 && src.isJson ? src.body?.publishedDashboard : undefined;
      if (!published?.config) throw new NotExercised(`the main key reads no published config of shared workbook ${id} to compare the clone's draft with`);
      const { answer, creator } = await sharedCloneByCreator(ctx, dep);
      const { workbook: clone, res: cloneRes } = await readWorkbook(ctx, creator, dep, answer.id);
      if (!("dashboardDraft" in clone)) throw new NotVerifiable(`the shared clone ${answer.id} read back (E9) shows no dashboardDraft (an optional field)`);
      const paths = reportRefPaths(published.config, await knownReportIds(ctx.api, dep, [published]));
      // As far as both show them: a server may show an optional field of a draft and of a published config either way.
      const [draft, config] = asBothShow(withRefsHidden(clone.dashboardDraft, paths), withRefsHidden(published.config, paths));
      ctx.expect.equal(draft, config, "the shared clone's draft is the published config", {
        res: cloneRes,
        reason: "draft-copied",
      });
      // The caller, as a workbook it creates shows it: a creator-mode session that may not create one leaves the owner unjudged.
      const made = await putBySlug(ctx.scratch, creator, dep, ctx.scratch.slug("wb"), { name: ctx.scratch.name("workbook") });
      const me = made.status >= 200 && made.status < 300 && made.isJson ? ownerOf(made.body) : undefined;
      if (me !== undefined && ownerOf(clone) !== undefined)
        ctx.expect.equal(ownerOf(clone), me, "the owner of the shared clone (the caller, as shown on a workbook it created)", {
          res: cloneRes,
          reason: "owner",
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
]);

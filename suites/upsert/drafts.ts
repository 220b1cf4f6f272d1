import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { requireDraftShown } from "../lib/workbook-place.js";
import { ownWorkbook, putBySlug, readWorkbook, upsertContent, widgetPosition, workbookPath } from "../lib/workbook-writes.js";
import { LIMITS } from "../../core/api/operations.js";

/** E11 rule 2 (a meta.dashboardDraft is validated as elsewhere): the draft checks of the upsert group. */

/** Widgets that do not match DashboardWidget: an unknown type, a missing position. */
const INVALID_WIDGETS = {
  unknownType: { id: "w-bad", type: "NOT_A_WIDGET", position: widgetPosition(0, 0, 2, 2) },
  noPosition: { id: "w-nowhere", type: "TEXT", config: { text: "x" } },
};

/**
 * A request with a widget that does not match DashboardWidget is refused whole (E11 rule 2: the
 * draft is validated): nothing of it applied, and no server error. The status is not named: a
 * 4xx is judged by upsert.draft.invalid-widget-4xx (SHOULD), where `rejected4xx` is set.
 */
async function expectDraftRefused(ctx: CheckContext, widget: unknown, rejected4xx = false) {
  const dep = ctx.fixture("deployment").id;
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, { meta: { marker: "before" } });
  const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
  const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, {
    name: ctx.scratch.name("changed"),
    meta: { marker: "after", dashboardDraft: { title: "invalid", widgets: [widget] } },
  });
  if (rejected4xx) return ctx.expect.clientError(res, "a meta.dashboardDraft whose widget does not match DashboardWidget is rejected with a 4xx");
  ctx.expect.that(res.status < 500, "a meta.dashboardDraft whose widget does not match DashboardWidget is no server error", {
    expected: "a status below 500",
    got: `${res.status}`,
    res,
    reason: "no-5xx",
  });
  const { workbook: after, res: readRes } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
  ctx.expect.equal(upsertContent(after), upsertContent(before), "nothing of the refused request is applied (name, meta, dashboardDraft)", {
    res: readRes,
    reason: "not-applied",
  });
}

/** Every widget with `id` in the draft (the dashboardDraft field, or meta.dashboardDraft where a server keeps it). */
const widgetsWithId = (w: any, id: string): any[] =>
  [w?.dashboardDraft?.widgets, w?.meta?.dashboardDraft?.widgets]
    .filter(Array.isArray)
    .flat()
    .filter((x: any) => x?.id === id);

/** Upserts a draft with one TABS_CONTAINER widget into a workbook of the run's own: it must be accepted and kept (by its id). */
async function sendLegacyTabs(ctx: CheckContext): Promise<{ found: any[]; readRes: Response }> {
  const dep = ctx.fixture("deployment").id;
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
  const widget = { id: "w-legacy-tabs", type: "TABS_CONTAINER", position: widgetPosition(0, 0, 12, 6), config: { tabs: [{ title: "One", widgetIds: [] }] } };
  const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { meta: { dashboardDraft: { kind: "CLASSIC", title: "tabs", widgets: [widget] } } });
  ctx.expect.ok(res, "Workbook");
  const { workbook: stored, res: readRes } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
  requireDraftShown(stored, `workbook ${workbook.id} read back (E9)`);
  const found = widgetsWithId(stored, widget.id);
  ctx.expect.that(found.length > 0, "the sent widget is kept in the dashboard draft", {
    expected: `a widget with id ${widget.id}`,
    got: stored.dashboardDraft ?? stored.meta?.dashboardDraft ?? null,
    res: readRes,
    reason: "widget-kept",
  });
  return { found, readRes };
}

/** Limits: DashboardAppSource entry is at most 255 characters. */
const ENTRY_MAX = LIMITS.appEntryLength;

/**
 * Upserts a draft whose app entry is `length` characters long (the limit, or one over it) into a
 * workbook of the run's own: the answer, and every entry the workbook then shows (the
 * dashboardDraft field, or meta.dashboardDraft where a server keeps it).
 */
async function sendEntry(ctx: CheckContext, length: number): Promise<{ res: Response; entry: string; stored: unknown[]; readRes: Response }> {
  const dep = ctx.fixture("deployment").id;
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
  const entry = `src/${"a".repeat(length - "src/.tsx".length)}.tsx`;
  const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { meta: { dashboardDraft: { kind: "APP", title: "app", app: { entry } } } });
  // Read as served, not through the Workbook schema: what was stored is the question, not the record's shape.
  const readRes = await ctx.api.get(workbookPath(dep, workbook.id));
  const stored = ctx.expect.json(readRes);
  ctx.expect.status(readRes, 200, `reading workbook ${workbook.id} back (E9)`);
  return {
    res,
    entry,
    stored: [stored?.dashboardDraft?.app?.entry, stored?.meta?.dashboardDraft?.app?.entry].filter((e) => e !== undefined && e !== null),
    readRes,
  };
}

export const upsertDraftChecks = group("upsert", [
  {
    id: "upsert.draft.bad-widget-type-rejected",
    spec: "E11 rule 2; Resources / DashboardWidget",
    level: "MUST",
    title: "A meta.dashboardDraft with a widget of an unknown type is refused: nothing is applied, and it is no server error",
    needs: ["writes", "fixture:deployment"],
    run: (ctx) => expectDraftRefused(ctx, INVALID_WIDGETS.unknownType),
  },
  {
    id: "upsert.draft.widget-without-position-rejected",
    spec: "E11 rule 2; Resources / DashboardWidget",
    level: "MUST",
    title: "A meta.dashboardDraft with a widget lacking its required position is refused: nothing is applied, and it is no server error",
    needs: ["writes", "fixture:deployment"],
    run: (ctx) => expectDraftRefused(ctx, INVALID_WIDGETS.noPosition),
  },
  {
    id: "upsert.draft.invalid-widget-4xx",
    spec: "E11 rule 2; Resources / DashboardWidget",
    // SHOULD: the draft is validated (E11 rule 2), but no status is named for an invalid one.
    level: "SHOULD",
    title: "A meta.dashboardDraft with a widget of an unknown type, or lacking its position, is rejected with a 4xx",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      for (const widget of Object.values(INVALID_WIDGETS)) await expectDraftRefused(ctx, widget, true);
    },
  },
  {
    id: "upsert.draft.app-entry-over-255-not-stored",
    spec: "Limits (Dashboard app entry: max 255); Resources / DashboardAppSource; E11 rule 2 (meta.dashboardDraft validated)",
    // MUST: the limit is stated, so a longer entry is never stored, whole or cut short; how it is refused is not (see the SHOULD below).
    level: "MUST",
    title:
      "A meta.dashboardDraft whose app entry is 256 characters long is no server error, and the workbook never holds that entry, neither whole nor silently cut to fit",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const { res, entry, stored, readRes } = await sendEntry(ctx, ENTRY_MAX + 1);
      ctx.expect.that(res.status < 500, "an app entry over 255 characters is no server error", {
        expected: "a status below 500",
        got: `${res.status}`,
        res,
        reason: "no-5xx",
      });
      ctx.expect.that(!stored.includes(entry), `the ${entry.length}-character entry is not stored as sent`, {
        expected: `no entry over ${ENTRY_MAX} characters`,
        got: `an entry of ${entry.length} characters`,
        res: readRes,
        reason: "entry-stored",
      });
      const cut = stored.filter((e) => typeof e === "string" && e !== entry && entry.startsWith(e));
      ctx.expect.that(cut.length === 0, `the ${entry.length}-character entry is not silently cut to fit`, {
        expected: "the request refused, or the entry left out",
        got: cut.map((e) => `an entry of ${(e as string).length} characters, the start of the one sent`),
        res: readRes,
        reason: "entry-truncated",
      });
    },
  },
  {
    id: "upsert.draft.app-entry-over-255-4xx",
    spec: "Limits (Dashboard app entry: max 255); E11 rule 2",
    // SHOULD: the limit is stated, the status of its refusal is not.
    level: "SHOULD",
    title: "A meta.dashboardDraft whose app entry is over 255 characters is rejected with a 4xx (the limit is stated, its refusal status is not)",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      ctx.expect.clientError((await sendEntry(ctx, ENTRY_MAX + 1)).res, "an app entry over 255 characters is rejected with a 4xx");
    },
  },
  {
    id: "upsert.draft.tabs-container-accepted",
    spec: "E11 rule 2; Resources / DashboardWidget (TABS_CONTAINER still accepted and converted)",
    level: "MUST",
    title: "A TABS_CONTAINER widget is accepted, kept, and stored converted (no longer as TABS_CONTAINER)",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const { found, readRes } = await sendLegacyTabs(ctx);
      for (const w of found)
        ctx.expect.that(w.type !== "TABS_CONTAINER", "the TABS_CONTAINER widget is stored converted", {
          reason: "tabs-converted",
          expected: "a type other than TABS_CONTAINER",
          got: w.type,
          res: readRes,
        });
    },
  },
  {
    id: "upsert.draft.tabs-container-converted",
    spec: "Resources / DashboardWidget (a CONTAINER with config.layout tabs is a tabbed container)",
    // SHOULD: the spec says TABS_CONTAINER is converted, not into what; a tabbed CONTAINER is the
    // form it describes, PARENT another widget type the same revision introduced.
    level: "SHOULD",
    title: 'A TABS_CONTAINER widget is stored as a CONTAINER with config.layout "tabs"',
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const { found, readRes } = await sendLegacyTabs(ctx);
      for (const w of found)
        ctx.expect.equal({ type: w.type, layout: w.config?.layout }, { type: "CONTAINER", layout: "tabs" }, "the stored form of the TABS_CONTAINER widget", {
          res: readRes,
          reason: "tabs-converted",
        });
    },
  },
  {
    id: "upsert.draft.app-entry-255-kept",
    spec: "Limits (Dashboard app entry: max 255); Resources / DashboardAppSource; E11 rule 2",
    level: "MUST",
    title: "A meta.dashboardDraft whose app entry is exactly 255 characters, the limit, is accepted, and the workbook then holds that entry whole",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const { res, entry, stored, readRes } = await sendEntry(ctx, ENTRY_MAX);
      ctx.expect.status(res, 200, `an app entry of ${ENTRY_MAX} characters, at the limit`, "entry-at-limit-accepted");
      if (!stored.length)
        throw new NotVerifiable("E9 shows the app entry neither in dashboardDraft nor in meta.dashboardDraft (both optional): what was stored cannot be read");
      const other = stored.filter((e) => e !== entry);
      ctx.expect.that(other.length === 0, `the ${ENTRY_MAX}-character entry is stored whole`, {
        expected: `the entry sent (${ENTRY_MAX} characters)`,
        got: other.map((e) => (typeof e === "string" ? `an entry of ${e.length} characters${entry.startsWith(e) ? ", the start of the one sent" : ""}` : e)),
        res: readRes,
        reason: "entry-kept",
      });
    },
  },
]);

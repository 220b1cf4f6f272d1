import type { Workbook } from "../../core/api/schema-types.js";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { groupedById } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { forAll } from "../../core/run/property.js";
import { dashboardConfig, deepMerge, dressSlug, LEGACY_TABS_CONTAINER, meta, shallowMerge, slugVariant } from "../../generators/workspace.js";
import { expectWorkbook } from "../lib/workbook-calls.js";
import { requireDraftShown } from "../lib/workbook-place.js";
import { ownWorkbook, putBySlug, workbookPath } from "../lib/workbook-writes.js";
import { isObject } from "../lib/values.js";
import { WORKSPACE_WRITES } from "../../core/model/needs.js";

/** "Merged" does not say how deep: key by key is the spec's reading, a recursive merge is tolerated. */
const MERGE_READINGS = [
  { name: "key by key", merge: shallowMerge },
  { name: "recursive", merge: deepMerge },
];

/** `shown` holds everything `sent` does; a sent null may be shown as null or left out; servers may add fields. */
function covers(shown: unknown, sent: unknown): boolean {
  if (sent === null) return shown === null || shown === undefined;
  if (isObject(sent)) return isObject(shown) && Object.entries(sent).every(([k, v]) => covers(shown[k], v));
  return isDeepStrictEqual(shown, sent);
}

/** How a shown draft departs from the one sent, TABS_CONTAINER widgets converted; undefined when it does not. */
function draftDeparture(shown: unknown, sent: SentDraft): string | undefined {
  if (!isObject(shown)) return "no draft is shown";
  const { widgets, ...rest } = sent;
  for (const [k, v] of Object.entries(rest)) if (!covers(shown[k], v)) return `${k} is not the one sent`;
  const listed: unknown[] = Array.isArray(shown.widgets) ? shown.widgets : [];
  if (listed.length !== widgets.length) return `${listed.length} widgets shown for ${widgets.length} sent`;
  for (const w of widgets) {
    const s = listed.filter(isObject).find((x) => x.id === w.id);
    if (!s) return `widget ${w.id} is not shown`;
    if (w.type !== LEGACY_TABS_CONTAINER) {
      if (!covers(s, w)) return `widget ${w.id} (${w.type}) is not the one sent`;
    } else {
      const layout = isObject(s.config) ? s.config.layout : undefined;
      if (s.type !== "CONTAINER" || layout !== "tabs" || !isDeepStrictEqual(s.position, w.position))
        return `widget ${w.id}, sent as TABS_CONTAINER, is shown as ${s.type} with config.layout ${JSON.stringify(layout)}, not as a tabbed CONTAINER in the same position`;
    }
  }
  return undefined;
}

/** A dashboard draft as a trial sends it (generators/workspace.ts): its widgets, some TABS_CONTAINER. */
type SentDraft = { widgets: { id: string; type: string; position?: unknown; config?: object | null }[] };

/** The sent draft as a server should show it, for the report. */
function converted(draft: SentDraft): SentDraft {
  return {
    ...draft,
    widgets: draft.widgets.map((w) => (w.type === LEGACY_TABS_CONTAINER ? { ...w, type: "CONTAINER", config: { ...w.config, layout: "tabs" } } : w)),
  };
}

/** Where the draft shows is not shown: the workbook's dashboardDraft, or meta.dashboardDraft. */
function expectDraftKept(ctx: CheckContext, wb: Workbook, sent: SentDraft, res: Response, when: string): void {
  requireDraftShown(wb, `the workbook ${when}`);
  const departures = [wb.dashboardDraft, wb.meta?.dashboardDraft].map((shown) => draftDeparture(shown, sent));
  if (departures.includes(undefined)) return;
  ctx.expect.fail(`${when}: the draft is kept with each TABS_CONTAINER as a tabbed CONTAINER, but ${departures[0]}`, {
    reason: "tabs-converted",
    expected: converted(sent),
    got: wb.dashboardDraft ?? wb.meta?.dashboardDraft,
    res,
  });
}

export const upsertPropertyChecks = groupedById([
  {
    id: "upsert.slug.any-variant",
    spec: "E11 rule 1",
    level: "MUST",
    title: "Any variant of a slug with surrounding spaces or tabs and any letters capitalised reaches the workbook holding the slug",
    kind: "property",
    needs: [...WORKSPACE_WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      await forAll(ctx, slugVariant, async (variant, api) => {
        const sent = dressSlug(slug, variant);
        const res = await putBySlug(ctx.scratch, api, dep, sent, { name: workbook.name });
        const wb = expectWorkbook(ctx, res, `PUT by-slug/${JSON.stringify(sent)}`);
        ctx.expect.equal(wb.id, workbook.id, `${JSON.stringify(sent)}, trimmed and lowercased, is ${slug}: it reaches workbook ${workbook.id}`, {
          res,
          reason: "slug-reaches",
        });
      });
    },
  },
  {
    id: "upsert.meta.merge-any",
    spec: "E11 rule 2",
    level: "MUST",
    title: "After any sequence of upserts on one slug, meta is the merge of the metas sent: a key sent again takes the later value, a key not sent again stays",
    kind: "property",
    needs: [...WORKSPACE_WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      await forAll(
        ctx,
        fc.array(meta, { minLength: 2, maxLength: 3 }),
        async (metas, api) => {
          const slug = ctx.scratch.slug("meta");
          const res = await putBySlug(ctx.scratch, api, dep, slug, { name: ctx.scratch.name("meta"), meta: metas[0] });
          ctx.require(res, "E11", "creating the workbook by slug");
          const created = expectWorkbook(ctx, res, "creating the workbook by slug");
          // A server may add keys of its own on create; each key sent is there as sent.
          for (const [k, v] of Object.entries(metas[0]))
            ctx.expect.equal(created.meta?.[k], v, `meta.${k} of the new workbook is the value sent`, { res: res, reason: "meta-sent" });
          let readings = MERGE_READINGS.map((r) => ({ ...r, meta: created.meta }));
          for (const [i, sent] of metas.slice(1).entries()) {
            const step = await putBySlug(ctx.scratch, api, dep, slug, { meta: sent });
            const wb = expectWorkbook(ctx, step, `upsert ${i + 2} of ${metas.length}`);
            const next = readings.map((r) => ({ ...r, meta: r.merge(r.meta, sent) }));
            readings = next.filter((r) => isDeepStrictEqual(wb.meta, r.meta));
            ctx.expect.that(
              readings.length > 0,
              `after upsert ${i + 2} of ${metas.length}, meta is the merge of what was sent (${next.map((r) => r.name).join(" or ")})`,
              { reason: "meta-merged", expected: next[0].meta, got: wb.meta, res: step },
            );
          }
          const back = await api.get(workbookPath(dep, created.id));
          const stored = expectWorkbook(ctx, back, "reading the workbook back (E9)");
          ctx.expect.that(
            readings.some((r) => isDeepStrictEqual(stored.meta, r.meta)),
            "the workbook read back holds the merged meta",
            { expected: readings[0].meta, got: stored.meta, res: back, reason: "meta-merged" },
          );
        },
        { maxRuns: 50 },
      );
    },
  },
  {
    id: "upsert.draft.valid-accepted",
    spec: "E11 rule 2 (a meta.dashboardDraft is validated as elsewhere); Resources / DashboardConfig, DashboardWidget",
    level: "MUST",
    title:
      "Any dashboard draft the Resources allow, sent as meta.dashboardDraft, is taken: a responsive layout of null at each breakpoint, nested in a widget, included",
    kind: "property",
    needs: [...WORKSPACE_WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug } = await ownWorkbook(ctx, ctx.api, dep);
      // "each a position or null": a null at every breakpoint on every run (a server once took only positions there).
      const position = { x: 0, y: 0, w: 4, h: 2 };
      const layouts = ["lg", "md", "sm", "xs", "xxs"].map((at) => ({ sm: position, [at]: null }));
      const examples = layouts.map((responsiveLayouts, i) => ({ widgets: [{ id: `w${i}`, type: "TEXT", position, responsiveLayouts }] }));
      await forAll(
        ctx,
        dashboardConfig,
        async (draft, api) => {
          const res = await putBySlug(ctx.scratch, api, dep, slug, { meta: { dashboardDraft: draft } });
          ctx.expect.that(res.status >= 200 && res.status < 300, "a draft the Resources allow is taken", {
            expected: "a 2xx",
            got: `${res.status} ${res.text.slice(0, 200)}`,
            res,
            reason: "valid-draft-taken",
          });
        },
        { examples },
      );
    },
  },
  {
    id: "upsert.draft.legacy-tabs-any",
    spec: "Resources / DashboardWidget (TABS_CONTAINER); E11 rule 2",
    level: "SHOULD",
    title: 'Any dashboard draft sent as meta.dashboardDraft is kept widget by widget, each TABS_CONTAINER turned into a CONTAINER with config.layout "tabs"',
    kind: "property",
    needs: [...WORKSPACE_WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      await forAll(ctx, dashboardConfig, async (draft, api) => {
        const res = await putBySlug(ctx.scratch, api, dep, slug, { meta: { dashboardDraft: draft } });
        expectDraftKept(ctx, expectWorkbook(ctx, res, "sending the draft"), draft, res, "in the upsert's answer");
        const back = await api.get(workbookPath(dep, workbook.id));
        expectDraftKept(ctx, expectWorkbook(ctx, back, "reading the workbook back (E9)"), draft, back, "read back (E9)");
      });
    },
  },
]);

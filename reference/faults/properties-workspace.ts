import { convertLegacyWidgets, LEGACY_TABS } from "../dashboard.js";
import type { Fault } from "../http.js";
import type { Req } from "../http.js";
import { itemRefs } from "../routes/item-refs.js";
import { workbookRecord } from "../serialize.js";
import type { Store } from "../store.js";

/*
 * Faults that only generated inputs find: each hides behind inputs the example checks do not
 * send (a tab around a slug, a nested object of three keys, a second legacy widget, a failure in
 * the middle of a batch, a folder listed after a move).
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const key = (i: { type?: unknown; id?: unknown }) => `${i?.type}:${i?.id}`;

/** The distinct items of a bulk move, in the order sent, and the status each failed with (none: moved). */
function batchOutcome(req: Req, body: any): { type: string; id: number; status?: number }[] {
  const failed = new Map<string, number>((body.failed as any[]).map((f) => [key(f), f.error?.status]));
  return itemRefs(req.body).map((ref) => ({ ...ref, status: failed.get(key(ref)) }));
}

/** Where the last upsert or clone left each workbook, per server: the index E8 wrongly filters by. */
const folderIndex = new WeakMap<Store, Map<number, number | null>>();

export const workspacePropertyFaults: Fault[] = [
  {
    name: "slug-trim-spaces-only",
    breaks: "E11 rule 1",
    description: "the slug is trimmed of spaces only: a tab around it is kept, so the variant misses the workbook and creates another",
    because: { "upsert.slug.any-variant": "slug-reaches" },
    behaviour: { normaliseSlug: (slug) => slug.replace(/^ +| +$/g, "").toLowerCase() },
  },
  {
    name: "meta-merge-drops-large-objects",
    breaks: "E11 rule 2",
    description: "merging meta loses every stored key whose value is an object of more than two keys",
    because: { "upsert.meta.merge-any": "meta-merged" },
    behaviour: {
      mergeMeta: (stored, sent) => ({ ...Object.fromEntries(Object.entries(stored).filter(([, v]) => !(isObject(v) && Object.keys(v).length > 2))), ...sent }),
    },
  },
  {
    name: "draft-first-legacy-tabs-only",
    breaks: "Resources / DashboardWidget (TABS_CONTAINER converted server-side)",
    description: "only the first TABS_CONTAINER widget of a sent draft is converted to a tabbed CONTAINER; later ones are stored as sent",
    because: { "upsert.draft.legacy-tabs-any": "tabs-converted" },
    behaviour: {
      convertDashboardDraft: (draft: any) => {
        if (!isObject(draft) || !Array.isArray(draft.widgets)) return draft;
        const first = draft.widgets.findIndex((w: any) => w?.type === LEGACY_TABS);
        return { ...draft, widgets: draft.widgets.map((w: any, i: number) => (i === first ? convertLegacyWidgets({ widgets: [w] }).widgets[0] : w)) };
      },
    },
  },
  {
    name: "bulk-move-lands-at-root-after-failure",
    breaks: "E12; States (bulk move)",
    description: "the item right after a failed one lands at the workspace root instead of the destination, yet is reported as moved there",
    because: { "bulk-move.batch.invariants": "reads-back" },
    routes: ["E12"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200) return body;
      const outcome = batchOutcome(req, body);
      for (const [i, item] of outcome.entries())
        if (i > 0 && outcome[i - 1].status !== undefined && item.status === undefined) app.store.items.get(item.id)!.folderId = null;
      return body;
    },
  },
  {
    name: "bulk-move-access-skipped-after-missing",
    breaks: "E12; Authentication 4 (per item, the single-item rules)",
    description: "the item right after a missing one is moved without its access check",
    because: { "bulk-move.batch.inaccessible": "in-failed" },
    routes: ["E12"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200) return body;
      const destination: number | null = req.body.folderId;
      let { moved, failed } = body;
      const outcome = batchOutcome(req, body);
      for (const [i, item] of outcome.entries()) {
        const stored = app.store.items.get(item.id);
        if (i === 0 || outcome[i - 1].status !== 404 || item.status !== 403 || !stored) continue;
        if (stored.type === "FOLDER" && app.b.nestsInItself(app.store, stored, destination)) continue;
        failed = failed.filter((f: any) => key(f) !== key(item));
        moved = [...moved, workbookRecord(app.store, app.b.placeItem(stored, destination))];
      }
      return { moved, failed };
    },
  },
  {
    name: "bulk-move-failed-by-status",
    breaks: "E12 Rules (applied one at a time in the given order)",
    description: "failed lists its items sorted by status, not in the order they were sent",
    because: { "bulk-move.batch.order": "order" },
    routes: ["E12"],
    respond: ({ status, body }) => (status === 200 ? { ...body, failed: [...body.failed].sort((a: any, b: any) => a.error.status - b.error.status) } : body),
  },
  {
    name: "workbook-list-stale-after-move",
    breaks: "E8 (folderId filter); States (bulk move)",
    description:
      "E8's folderId filter reads an index that upserts and clones keep and bulk moves do not: a moved workbook is still listed in its old folder, not in its new one",
    because: { "model.workspace.sequence": "folder-contents" },
    routes: ["E10", "E11", "E8"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200) return body;
      let index = folderIndex.get(app.store);
      if (!index) folderIndex.set(app.store, (index = new Map()));
      if (req.method !== "GET") {
        index.set(body.id, body.folderId);
        return body;
      }
      const raw = req.query.get("folderId");
      if (raw === null || raw === "null") return body;
      const listed = [...app.store.items.values()]
        .filter(
          (w) =>
            w.type === "WORKBOOK" && String(w.deploymentId) === req.params.deploymentId && (index.has(w.id) ? index.get(w.id) : w.folderId) === Number(raw),
        )
        .sort((a, b) => a.id - b.id)
        .map((w) => workbookRecord(app.store, w));
      return { ...body, items: listed, data: listed, count: listed.length };
    },
  },
];

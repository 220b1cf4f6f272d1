import { itemRefs } from "../routes/item-refs.js";
import { ok, type App, type Fault } from "../http.js";
import type { Item } from "../store.js";
import { workbookRecord } from "../serialize.js";

/** The faults of the group bulk-delete (suites/bulk-delete/): each makes a check of it fail, for the reason its `because` names. */
/** Per reference app, the workbooks a bulk delete removed, as they were (fault bulk-deleted-workbook-still-readable). */
const archived = new WeakMap<App, Map<number, Item>>();

/** The folders a bulk delete names. */
const foldersSent = (body: unknown) =>
  new Set(
    itemRefs(body)
      .filter((r) => r.type === "FOLDER")
      .map((r) => r.id),
  );

export const bulkDeleteFaults: Fault[] = [
  {
    name: "bulk-delete-refused-report-removed",
    breaks: "E14 rule 1 (delete items in bulk with per-item failures)",
    description: "a report the caller may only read is reported in failed with 403, and deleted all the same",
    because: { "bulk-delete.items.refused-item-intact": "still-there" },
    operations: ["bulkDeleteWorkspaceItems"],
    handle: async ({ app, next }) => {
      const reply = await next();
      const failed: unknown = (reply.body as { failed?: unknown } | undefined)?.failed;
      if (Array.isArray(failed))
        for (const f of failed as { type?: string; id?: number; error?: { status?: number } }[])
          if (f.type === "REPORT" && f.error?.status === 403 && typeof f.id === "number") app.store.items.delete(f.id);
      return reply;
    },
  },
  {
    name: "bulk-deleted-workbook-still-readable",
    breaks: "E14 rule 1; Errors 2 (404: workbook missing)",
    description: "a workbook a bulk delete removed leaves the list, but E9 still reads it, marked archived",
    because: { "bulk-delete.items.per-item-failures": "gone-on-read" },
    routes: ["E9"],
    operations: ["bulkDeleteWorkspaceItems"],
    handle: async ({ req, app, next }) => {
      const kept = archived.get(app) ?? new Map<number, Item>();
      archived.set(app, kept);
      if (req.params.workbookId === undefined) {
        const before = new Map(app.store.items);
        const reply = await next();
        for (const [id, item] of before) if (item.type === "WORKBOOK" && !app.store.items.has(id)) kept.set(id, item);
        return reply;
      }
      const item = kept.get(Number(req.params.workbookId));
      if (!item || app.store.items.has(item.id)) return next();
      return ok({ ...workbookRecord(app.store, item), archived: true });
    },
  },
  {
    name: "bulk-delete-folder-contents-to-parent",
    breaks: "E14 rule 1 (facts: deleting a folder moves its direct contents to the root)",
    description: "a deleted folder's contents move to the folder's parent, not to the root (the same for a folder at the root)",
    because: { "bulk-delete.items.folder-contents-to-root": "contents-to-root" },
    operations: ["bulkDeleteWorkspaceItems"],
    handle: async ({ app, next }) => {
      const parentOf = new Map([...app.store.items.values()].filter((i) => i.type === "FOLDER").map((f) => [f.id, f.folderId]));
      const within = new Map([...app.store.items.values()].map((i) => [i.id, i.folderId]));
      const reply = await next();
      for (const item of app.store.items.values()) {
        const was = within.get(item.id);
        if (item.folderId === null && was != null && !app.store.items.has(was)) item.folderId = parentOf.get(was) ?? null;
      }
      return reply;
    },
  },
  {
    name: "bulk-delete-failures-unreported",
    breaks: "E14 rule 1 (per-item failures)",
    description: "bulk delete answers failed: [] even when an item was missing",
    because: { "bulk-delete.items.per-item-failures": "failure-reported" },
    operations: ["bulkDeleteWorkspaceItems"],
    respond: ({ status, body, req }) => (status === 200 ? { ...body, failed: [] } : body),
  },
  {
    name: "bulk-delete-duplicates-kept",
    breaks: "E14 rule 1 (facts: duplicates collapsed)",
    description: "bulk delete handles a duplicate entry again, which then fails as missing",
    because: { "bulk-delete.items.duplicates-collapsed": "no-duplicate-failure" },
    behaviour: { bulkDeleteRefs: (body) => (body as any).items.flatMap((i: any) => itemRefs({ items: [i] })) },
  },
  {
    name: "bulk-delete-rolls-back",
    breaks: "E14 rule 1 (facts: no rollback)",
    description: "when an item of a bulk delete fails, the items deleted before it are restored (the answer still lists them as deleted)",
    because: { "bulk-delete.items.no-rollback": "stays-deleted" },
    operations: ["bulkDeleteWorkspaceItems"],
    handle: async ({ req, app, next }) => {
      const before = new Map(app.store.items);
      const reply = await next();
      if (reply.status === 200 && (reply.body as { failed: unknown[] }).failed.length)
        for (const [id, item] of before) if (!app.store.items.has(id)) app.store.items.set(id, item);
      return reply;
    },
  },
  {
    name: "bulk-delete-forbidden-as-404",
    breaks: "E14 rule 1 (facts: 403 without manage access)",
    description: "bulk delete reports an item the caller may only read as missing (404) instead of forbidden (403)",
    because: { "bulk-delete.items.forbidden-reported": "forbidden-403" },
    operations: ["bulkDeleteWorkspaceItems"],
    respond: ({ status, body, req }) =>
      status === 200 ? { ...body, failed: body.failed.map((f: any) => (f.error.status === 403 ? { ...f, error: { ...f.error, status: 404 } } : f)) } : body,
  },
  {
    name: "bulk-delete-forbidden-deleted-anyway",
    breaks: "E14 rule 1 (per-item failures)",
    description: "bulk delete reports an item the caller may not delete as failed with 403, and deletes it all the same",
    because: { "bulk-delete.items.forbidden-reported": "still-there" },
    operations: ["bulkDeleteWorkspaceItems"],
    respond: ({ status, body, req, app }) => {
      if (status === 200) for (const f of body.failed) if (f.error.status === 403) app.store.items.delete(f.id);
      return body;
    },
  },
  {
    name: "bulk-delete-refused-workbook-loses-reports",
    breaks: "E14 rule 1 (per-item failures)",
    description:
      "bulk delete removes a workbook's reports before it checks the caller's access to the workbook: the workbook is reported failed with 403 and stays, without its reports",
    because: { "bulk-delete.items.refused-item-intact": "still-there" },
    operations: ["bulkDeleteWorkspaceItems"],
    handle: ({ req, app, next }) => {
      const workbooks = new Set(
        itemRefs(req.body)
          .filter((r) => r.type === "WORKBOOK")
          .map((r) => r.id),
      );
      for (const item of [...app.store.items.values()]) if (item.workbookId !== undefined && workbooks.has(item.workbookId)) app.store.items.delete(item.id);
      return next();
    },
  },
  {
    name: "bulk-delete-report-kept",
    breaks: "E14 rule 1 (facts: items of WORKBOOK, REPORT, FOLDER)",
    description: "bulk delete lists a REPORT item in deleted but leaves it in place; workbooks and folders are deleted",
    because: { "bulk-delete.items.mixed-kinds": "still-there" },
    behaviour: { bulkDeleteRefs: (body) => itemRefs(body).filter((r) => r.type !== "REPORT") },
    operations: ["bulkDeleteWorkspaceItems"],
    respond: ({ status, body, req }) =>
      status === 200 ? { ...body, deleted: [...body.deleted, ...itemRefs(req.body).filter((r) => r.type === "REPORT")] } : body,
  },
  {
    name: "bulk-delete-folder-with-sub-folders",
    breaks: "E14 rule 1 (facts: 400 a folder that still has sub-folders)",
    description: "a folder that still holds sub-folders is deleted like any other: its sub-folders move to the root",
    because: { "bulk-delete.items.folder-with-sub-folder-400": "sub-folders-400" },
    operations: ["bulkDeleteWorkspaceItems"],
    handle: ({ req, app, next }) => {
      const sent = foldersSent(req.body);
      for (const item of app.store.items.values()) if (item.type === "FOLDER" && item.folderId != null && sent.has(item.folderId)) item.folderId = null;
      return next();
    },
  },
  {
    name: "bulk-delete-refused-folder-emptied",
    breaks: "E14 rule 1 (facts: 400 a folder that still has sub-folders)",
    description: "a folder's direct workbooks and reports are moved to the root before its sub-folders are looked at: a delete refused for them has emptied it",
    because: { "bulk-delete.items.folder-with-sub-folder-400": "still-there" },
    operations: ["bulkDeleteWorkspaceItems"],
    handle: ({ req, app, next }) => {
      const sent = foldersSent(req.body);
      for (const item of app.store.items.values()) if (item.type !== "FOLDER" && item.folderId != null && sent.has(item.folderId)) item.folderId = null;
      return next();
    },
  },
];

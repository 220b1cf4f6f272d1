import { sameItem } from "./kit/bulk-move.js";
import { itemRefs, MAX_BATCH } from "../routes/item-refs.js";
import { HttpError, type Fault } from "../http.js";
import { cleanBehaviour } from "../behaviour.js";
import { batchOutcome, key } from "./kit/properties-workspace.js";
import { workbookRecord } from "../serialize.js";
import { accessTo, atLeast } from "../access.js";

/** The faults of the group bulk-move (suites/bulk-move/): each makes a check of it fail, for the reason its `because` names. */
export const bulkMoveFaults: Fault[] = [
  {
    name: "bulk-move-collapses-by-id",
    breaks: "E12 (duplicates are collapsed so one entry per distinct item; mixed kinds allowed)",
    description: "duplicates are collapsed by id alone: a folder sent after a workbook reference with the same id is dropped, neither moved nor failed",
    because: { "bulk-move.items.kind-and-id-distinct": "kinds-distinct" },
    behaviour: {
      bulkMoveItems: (body: any) => {
        const refs = itemRefs(body);
        return refs.filter((r, i) => refs.findIndex((o) => o.id === r.id) === i);
      },
    },
  },
  {
    name: "bulk-move-failed-status-500",
    breaks: "E12; Errors 2",
    description: "a missing item (or one of another deployment) is reported in failed with status 500 instead of 404",
    because: { "bulk-move.failures.missing-404": "failure-status", "bulk-move.failures.other-deployment-404": "failure-status" },
    routes: ["E12"],
    respond: ({ body }) =>
      Array.isArray(body?.failed)
        ? { ...body, failed: body.failed.map((f: any) => (f.error.status === 404 ? { ...f, error: { ...f.error, status: 500 } } : f)) }
        : body,
  },
  {
    name: "bulk-move-missing-reported-403",
    breaks: "E12 (failed: 404 item missing or in another deployment)",
    description: "a missing item (or one of another deployment) is reported in failed with status 403, as if it were only out of reach",
    because: { "bulk-move.failures.missing-404": "failure-status", "bulk-move.failures.other-deployment-404": "failure-status" },
    routes: ["E12"],
    respond: ({ body }) =>
      Array.isArray(body?.failed)
        ? { ...body, failed: body.failed.map((f: any) => (f.error.status === 404 ? { ...f, error: { ...f.error, status: 403 } } : f)) }
        : body,
  },
  {
    name: "bulk-move-flat-failures",
    breaks: "E12 (Response); Errors 3",
    description: "failed entries carry message and status at the top level instead of under error",
    because: { "bulk-move.response.schema": "schema:BulkMoveResponse" },
    routes: ["E12"],
    respond: ({ body }) => (Array.isArray(body?.failed) ? { ...body, failed: body.failed.map(({ error, ...f }: any) => ({ ...f, ...error })) } : body),
  },
  {
    name: "bulk-move-duplicates-kept",
    breaks: "E12 (Body: duplicates collapsed)",
    description: "every entry of items is answered, so a duplicated item appears in moved or failed more than once",
    because: { "bulk-move.items.each-once": "each-once" },
    routes: ["E12"],
    respond: ({ status, body, req }) => {
      if (status !== 200) return body;
      const sent: any[] = req.body.items;
      return { moved: sent.map((s) => body.moved.find(sameItem(s))).filter(Boolean), failed: sent.map((s) => body.failed.find(sameItem(s))).filter(Boolean) };
    },
  },
  {
    name: "bulk-move-into-descendant",
    breaks: "E12 (400 invalid move)",
    description: "a folder may be moved into its own descendant, leaving a cycle",
    because: { "bulk-move.failures.into-descendant-400": "in-failed" },
    behaviour: { nestsInItself: () => false },
  },
  {
    name: "bulk-move-into-grandchild",
    breaks: "E12 (400 invalid move)",
    description:
      "only a move into the folder's own child is refused: the descendant check looks at the destination's parent alone, so a folder moves into its grandchild, leaving a cycle",
    because: { "bulk-move.failures.into-descendant-400": "in-failed" },
    behaviour: {
      nestsInItself: (store, folder, destinationId) =>
        destinationId === folder.id || (destinationId != null && store.items.get(destinationId)?.folderId === folder.id),
    },
  },
  {
    name: "bulk-move-rollback",
    breaks: "E12 Rules (no rollback)",
    description: "when any item fails, the items moved before it are moved back (yet still listed in moved)",
    because: { "bulk-move.apply.no-rollback": "reads-back" },
    routes: ["E12"],
    handle: async ({ app, next }) => {
      const before = new Map([...app.store.items.values()].map((i) => [i.id, i.folderId]));
      const reply = await next();
      const { moved, failed } = reply.body as { moved: { id: number }[]; failed: unknown[] };
      if (reply.status === 200 && failed.length) for (const m of [...moved].reverse()) app.b.placeItem(app.store.items.get(m.id)!, before.get(m.id)!);
      return reply;
    },
  },
  {
    name: "bulk-move-reverse-order",
    breaks: "E12 Rules (applied in the given order)",
    description: "moved lists the items in the reverse of the order they were sent",
    because: { "bulk-move.response.moved-in-order": "moved-order" },
    routes: ["E12"],
    respond: ({ body }) => (Array.isArray(body?.moved) ? { ...body, moved: [...body.moved].reverse() } : body),
  },
  {
    name: "bulk-move-over-limit",
    breaks: "Limits (up to 100 items per bulk move)",
    description: "a batch of more than 100 items is accepted; the entries past the 100th are silently ignored",
    because: { "bulk-move.request.over-limit-rejected": "client-error" },
    behaviour: { bulkMoveItems: (body: any) => itemRefs(Array.isArray(body?.items) ? { ...body, items: body.items.slice(0, MAX_BATCH) } : body) },
  },
  {
    name: "bulk-move-over-limit-applied",
    breaks: "Limits (up to 100 items per bulk move); E12 (Body)",
    description: "a batch of more than 100 items answers 400, but its first 100 items are moved first",
    because: { "bulk-move.request.over-limit-rejected": "nothing-moved" },
    routes: ["E12"],
    handle: async ({ req, next }) => {
      const items = req.body?.items;
      if (!Array.isArray(items) || items.length <= MAX_BATCH) return next();
      req.body = { ...req.body, items: items.slice(0, MAX_BATCH) };
      await next();
      return { status: 400, body: { error: `at most ${MAX_BATCH} items per request` } };
    },
  },
  {
    name: "bulk-move-destination-coerced",
    breaks: "E12 (Body: folderId integer or null)",
    description: "a folderId that is not an integer is read as the root instead of rejected",
    because: { "bulk-move.request.malformed-rejected": "client-error" },
    behaviour: { bulkMoveDestination: (value: unknown) => (Number.isSafeInteger(value) ? (value as number) : null) },
  },
  {
    name: "bulk-move-destination-unchecked",
    breaks: "E12 (destination folder)",
    description: "a destination folder that does not exist is accepted and items are moved under it",
    because: { "bulk-move.destination.missing-folder": "in-failed" },
    behaviour: { isFolderOf: () => true },
  },
  {
    name: "bulk-move-missing-destination-403",
    breaks: "E12 (failed: 404 missing, 400 invalid move)",
    description: "a destination folder that does not exist is reported per item, each failing with 403",
    because: { "bulk-move.destination.missing-folder": "failure-status" },
    behaviour: { missingDestinationStatus: () => 403 },
  },
  {
    name: "bulk-move-access-unchecked",
    breaks: "E12; Authentication 4 (per-item access)",
    description: "items are moved whatever the caller's access to them and to the destination",
    because: { "bulk-move.failures.no-access-403": "in-failed" },
    behaviour: { mayMove: () => true },
  },
  {
    name: "bulk-move-reports-unchecked",
    breaks: "E12; Authentication 4 (per item, the single-item rules)",
    description: "a report is moved without its access check; workbooks and folders are still checked",
    because: { "bulk-move.failures.no-access-403": "in-failed" },
    routes: ["E12"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200) return body;
      let { moved, failed } = body;
      for (const f of body.failed) {
        const stored = app.store.items.get(f.id);
        if (f.type !== "REPORT" || f.error?.status !== 403 || !stored) continue;
        failed = failed.filter((x: any) => key(x) !== key(f));
        moved = [...moved, workbookRecord(app.store, app.b.placeItem(stored, req.body.folderId))];
      }
      return { moved, failed };
    },
  },
  {
    name: "bulk-move-not-applied",
    breaks: "States (bulk move); E12 Rules",
    description: "items are reported in moved but stay where they were",
    because: {
      "bulk-move.apply.reads-back": "reads-back",
      "bulk-move.response.empty-failed-all-applied": "reads-back",
      "bulk-move.apply.no-rollback": "reads-back",
    },
    behaviour: { placeItem: (item, folderId) => ({ ...item, folderId }) },
  },
  {
    name: "bulk-move-root-ignored",
    breaks: "E12 (Body: null means the workspace root)",
    description: "folderId null leaves items where they are (yet reports them moved)",
    because: { "bulk-move.apply.reads-back": "reads-back" },
    behaviour: {
      placeItem: (item, folderId) => {
        if (folderId !== null) item.folderId = folderId;
        return item;
      },
    },
  },
  {
    name: "bulk-move-other-deployment",
    breaks: "E12; Errors 2 (404 item in another deployment)",
    description: "an item of another deployment is found, and moved",
    because: { "bulk-move.failures.other-deployment-404": "in-failed" },
    behaviour: { itemBelongsTo: () => true },
  },
  {
    name: "bulk-move-refuses-100",
    breaks: "Limits (up to 100 items per bulk move); E12 (Body)",
    description: "the limit is off by one: a batch of exactly 100 items is refused with a 400 (99 pass)",
    because: { "bulk-move.request.at-limit-accepted": "at-limit-accepted" },
    behaviour: {
      bulkMoveItems: (body: any) => {
        if (Array.isArray(body?.items) && body.items.length >= MAX_BATCH) throw new HttpError(400, `fewer than ${MAX_BATCH} items per request`);
        return itemRefs(body);
      },
    },
  },
  {
    name: "bulk-move-report-left-in-place",
    breaks: "E12 (Body: mixed kinds); States (bulk move)",
    description: "a REPORT item is reported in moved (with the destination) but stays where it was; workbooks and folders move",
    because: { "bulk-move.apply.mixed-kinds": "reads-back" },
    behaviour: { placeItem: (item, folderId) => (item.type === "REPORT" ? { ...item, folderId } : cleanBehaviour.placeItem(item, folderId)) },
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
    name: "bulk-move-moved-shows-old-folder",
    breaks: "E12 (moved: Workbook records as the single-item move returns them)",
    description: "moved workbooks are stored in the destination, but moved shows them at the root, where they came from",
    because: { "bulk-move.response.moved-as-stored": "answer-as-stored" },
    routes: ["E12"],
    respond: ({ status, body }) =>
      status === 200 && Array.isArray(body?.moved) ? { ...body, moved: body.moved.map((m: any) => ({ ...m, folderId: null })) } : body,
  },
  {
    name: "bulk-move-destination-any-item",
    breaks: "E12 (destination folder)",
    description:
      "the destination is looked up among every workspace item of the deployment: a workbook's id is taken as a folder and the items are moved under it",
    because: { "bulk-move.destination.other-kind": "in-failed" },
    behaviour: { isFolderOf: (item, deploymentId) => item !== undefined && item.deploymentId === deploymentId },
  },
  {
    name: "bulk-move-foreign-destination-filed",
    breaks: "E12 (failed: the rest reported, not applied); States and transitions (bulk move)",
    description: "a destination folder of another deployment is refused (404) only after the items were filed under it",
    because: { "bulk-move.destination.other-deployment": "reads-back" },
    routes: ["E12"],
    handle: ({ req, app, next }) => {
      const body = req.body as { items?: unknown; folderId?: unknown } | undefined;
      const dest = typeof body?.folderId === "number" ? app.store.items.get(body.folderId) : undefined;
      const dep = Number(req.params.deploymentId);
      if (dest?.type !== "FOLDER" || dest.deploymentId === dep || !Array.isArray(body?.items)) return next();
      for (const ref of body.items) {
        const item = app.store.items.get(Number((ref as { id?: unknown } | null)?.id));
        if (item?.deploymentId === dep) item.folderId = dest.id;
      }
      return next();
    },
  },
  {
    name: "bulk-move-access-all-or-nothing",
    breaks: "E12 Rules (access checked per item: permitted items applied, the rest reported)",
    description: "when any item of a batch is refused for access, the whole batch is refused: every item is reported failed with 403 and none moves",
    because: { "bulk-move.access.mixed-batch-per-item": "own-items-move" },
    routes: ["E12"],
    handle: async ({ req, app, next }) => {
      const before = new Map([...app.store.items.values()].map((i) => [i.id, i.folderId]));
      const reply = await next();
      const body = reply.body as { moved: { id: number }[]; failed: { error: { status: number } }[] };
      if (reply.status !== 200 || !body.failed.some((f) => f.error.status === 403)) return reply;
      for (const m of [...body.moved].reverse()) app.b.placeItem(app.store.items.get(m.id)!, before.get(m.id)!);
      const failed = batchOutcome(req, body).map(({ type, id }) => ({
        type,
        id,
        error: { status: 403, message: "the batch holds an item the caller may not move" },
      }));
      return { status: 200, body: { moved: [], failed } };
    },
  },
  {
    name: "bulk-move-refusal-rolls-back",
    breaks: "E12 Rules (earlier moves are not rolled back when a later item fails)",
    description: "when an item is refused for access (403), the items moved before it are moved back, yet still listed in moved; other failures undo nothing",
    because: { "bulk-move.access.mixed-batch-per-item": "reads-back" },
    routes: ["E12"],
    handle: async ({ app, next }) => {
      const before = new Map([...app.store.items.values()].map((i) => [i.id, i.folderId]));
      const reply = await next();
      const { moved, failed } = reply.body as { moved: { id: number }[]; failed: { error: { status: number } }[] };
      if (reply.status === 200 && failed.some((f) => f.error.status === 403))
        for (const m of [...moved].reverse()) app.b.placeItem(app.store.items.get(m.id)!, before.get(m.id)!);
      return reply;
    },
  },
  {
    name: "bulk-move-destination-access-unchecked",
    breaks: "E12 (per item, the single-item rules); Authentication 4 (edit access to the destination folder)",
    description: "only the item's own access is checked: an item the caller may edit moves into a folder it may only read",
    because: { "bulk-move.access.read-only-destination": "in-failed" },
    behaviour: { mayMove: (itemAccess) => atLeast(itemAccess, "edit") },
  },
  {
    name: "bulk-move-refused-destination-applied",
    breaks: "E12 Rules (access is checked per item: permitted items are applied and the rest reported)",
    description:
      "an item the caller may edit, refused (403) for want of edit access to the destination folder, is reported in failed and filed into that folder all the same",
    because: { "bulk-move.access.refused-destination-stays": "reads-back" },
    routes: ["E12"],
    handle: async ({ req, app, next }) => {
      const reply = await next();
      const dest = (req.body as { folderId?: unknown } | undefined)?.folderId;
      if (reply.status !== 200 || typeof dest !== "number") return reply;
      for (const f of (reply.body as { failed: { id: number; error: { status: number } }[] }).failed) {
        const item = app.store.items.get(f.id);
        if (f.error.status === 403 && item && atLeast(accessTo(app.store, req.user, item), "edit")) app.b.placeItem(item, dest);
      }
      return reply;
    },
  },
];

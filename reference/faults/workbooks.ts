import { laterPage } from "./kit/invariants.js";
import { eachWorkbook } from "./kit/workbooks-read.js";
import { refusalAnsweredAs, notFound } from "./kit/policies.js";
import type { Fault } from "../http.js";

/** The faults of the group workbooks (suites/workbooks/): each makes a check of it fail, for the reason its `because` names. */
export const workbooksFaults: Fault[] = [
  {
    name: "get-folder-path-nearest-only",
    breaks: "Resources / Workbook (folderPath); E9",
    description: "E9 cuts a folderPath of two ancestors or more to the nearest one; E8's list shows it whole",
    because: { "workbooks.folder-path.every-read-path": "folder-path-every-ancestor" },
    routes: ["E9"],
    respond: ({ body }) => (Array.isArray(body?.folderPath) && body.folderPath.length >= 2 ? { ...body, folderPath: body.folderPath.slice(-1) } : body),
  },
  {
    name: "folder-path-cut-at-three",
    breaks: "Resources / Workbook (folderPath: ancestors of the containing folder)",
    description: "the walk up the folder chain stops after three folders: an item four folders deep or more loses its top ancestors, on every read path",
    because: { "workbooks.folder-path.every-read-path": "folder-path-every-ancestor" },
    routes: ["E8", "E9"],
    respond: eachWorkbook((w) => (Array.isArray(w?.folderPath) && w.folderPath.length > 3 ? { ...w, folderPath: w.folderPath.slice(-3) } : w)),
  },
  {
    name: "workbooks-count-last-page-plus-one",
    breaks: "E8 (count: total accessible ignoring pagination)",
    description: "count is one above the total on the last page of a walk (a page reached with after), right on every other",
    because: { "workbooks.list.count-matches-walk": "count-matches" },
    routes: ["E8"],
    respond: ({ status, body, req }) =>
      status === 200 && req.query.get("after") && body?.pageInfo?.hasNextPage === false && typeof body.count === "number"
        ? { ...body, count: body.count + 1 }
        : body,
  },
  {
    name: "end-cursor-repeats-on-every-list",
    breaks: "Pagination styles 2; E8",
    description: "on the workbooks list, a page after the first answers the cursor it was asked with as its endCursor: a walk never ends",
    because: { "workbooks.list.cursor-walk": "walk:repeated-cursor" },
    routes: ["E8"],
    respond: ({ status, body, req }) =>
      status === 200 && laterPage(req.query) && body?.pageInfo ? { ...body, pageInfo: { ...body.pageInfo, endCursor: req.query.get("after") } } : body,
  },
  {
    name: "workbooks-meta-dropped",
    breaks: "Resources / Workbook (meta required)",
    description: "workbook records of the list and of a single get lack meta",
    because: { "workbooks.list.schema": "schema:WorkbooksListResponse", "workbooks.get.schema": "schema:Workbook" },
    routes: ["E8", "E9"],
    respond: eachWorkbook(({ meta, ...w }) => w),
  },
  {
    name: "workbooks-created-at-yesterday",
    breaks: "Resources / Workbook (createdAt is a date or date-time)",
    description: 'createdAt reads "yesterday" instead of a date',
    // A malformed timestamp is the timestamps invariant's defect: the schema checks fail for it too (expect.schema's "timestamp").
    because: { "workbooks.list.schema": "timestamp", "workbooks.get.schema": "timestamp", "resources.timestamps.every-answer": "timestamp" },
    routes: ["E8", "E9"],
    respond: eachWorkbook((w) => ({ ...w, createdAt: "yesterday" })),
  },
  {
    name: "workbooks-folder-filter-ignored",
    breaks: "E8 (folderId filter)",
    description: "the folderId filter is ignored: every workbook is listed",
    because: { "workbooks.list.folder-filter": "folder-filter" },
    behaviour: { listedInFolder: () => true },
  },
  {
    name: "cursor-repeats-last-item",
    breaks: "Pagination styles 2",
    description: "a page after a cursor starts with the last item of the previous page (and the walk never reaches the last item)",
    because: { "workbooks.list.cursor-walk": "repeated" },
    behaviour: { pageSlice: (list, start, count) => list.slice(Math.max(0, start - 1), Math.max(0, start - 1) + count) },
  },
  {
    name: "workbooks-count-too-low",
    breaks: "E8 (count: total accessible ignoring pagination)",
    description: "count is one below the number of accessible workbooks",
    because: { "workbooks.list.count-not-below-walk": "count-not-below", "workbooks.list.count-matches-walk": "count-matches" },
    routes: ["E8"],
    respond: ({ status, body }) => (status === 200 && typeof body.count === "number" ? { ...body, count: Math.max(0, body.count - 1) } : body),
  },
  {
    name: "workbooks-count-ignores-access",
    breaks: "E8 (count: total accessible ignoring pagination)",
    description: "count is every workbook of the deployment, whatever the caller may read: right for an admin, too high for a user below AI BI User",
    because: { "workbooks.list.count-matches-walk-viewer": "count-matches" },
    routes: ["E8"],
    respond: ({ status, body, req, app }) =>
      status === 200 && typeof body.count === "number"
        ? { ...body, count: [...app.store.items.values()].filter((i) => i.type === "WORKBOOK" && String(i.deploymentId) === req.params.deploymentId).length }
        : body,
  },
  {
    name: "workbooks-data-differs",
    breaks: "E8; Versioning 2 (data is the deprecated copy of items)",
    description: "the deprecated data array leaves out the last item of the page",
    because: { "workbooks.list.data-mirrors-items": "data-copy" },
    routes: ["E8"],
    respond: ({ status, body }) => (status === 200 ? { ...body, data: body.items.slice(0, -1) } : body),
  },
  {
    name: "workbook-get-name-differs",
    breaks: "E9",
    description: "a single get answers a different name than the list shows",
    because: { "workbooks.get.matches-list-item": "same-field" },
    routes: ["E9"],
    respond: eachWorkbook((w) => ({ ...w, name: `${w.name} (draft)` })),
  },
  {
    name: "workbook-get-empty-calculated-fields-null",
    breaks: "E9; Resources / Workbook (calculatedFields: object, required)",
    description: "a single get answers calculatedFields null where the workbook has none (the list still shows {})",
    because: { "workbooks.get.matches-list-item": "schema:Workbook" },
    routes: ["E9"],
    respond: eachWorkbook((w) => (w.calculatedFields && !Object.keys(w.calculatedFields).length ? { ...w, calculatedFields: null } : w)),
  },
  {
    name: "workbook-other-deployment-served",
    breaks: "E9; Errors 2",
    description: "a workbook is served under any deployment's path, not only its own",
    because: { "workbooks.get.other-deployment-404": "status" },
    behaviour: { itemBelongsTo: () => true },
  },
  {
    name: "workbook-unknown-id-500",
    breaks: "E9; Errors 2",
    description: "a missing workbook answers 500 instead of 404",
    because: { "workbooks.get.unknown-id-404": "status", "workbooks.get.other-deployment-404": "status" },
    routes: ["E9"],
    handle: refusalAnsweredAs(500, notFound("workbook")),
  },
  {
    name: "workbook-unknown-id-400",
    breaks: "E9; Errors 2",
    description: "getting a missing workbook (or one of another deployment) answers 400, as if the id were malformed, instead of 404",
    because: { "workbooks.get.unknown-id-404": "status", "workbooks.get.other-deployment-404": "status" },
    routes: ["E9"],
    handle: refusalAnsweredAs(400, notFound("workbook")),
  },
  {
    name: "workbooks-unknown-folder-lists-all",
    breaks: "E8 (folderId filter)",
    description: "a folderId that no folder has is dropped as if not sent: the workbooks list answers every workbook",
    because: { "workbooks.list.folder-filter": "unknown-folder-empty" },
    operations: ["listWorkbooks"],
    handle: ({ req, app, next }) => {
      const id = Number(req.query.get("folderId"));
      const known = [...app.store.items.values()].some((i) => i.type === "FOLDER" && i.id === id);
      if (req.query.has("folderId") && Number.isSafeInteger(id) && id >= 0 && !known) req.query.delete("folderId");
      return next();
    },
  },
  {
    name: "workbooks-negative-folder-id-accepted",
    breaks: "E8 (folderId: integer, minimum 0)",
    description: "folderId=-1 is read as no folder filter: the workbooks list answers 200 with every workbook",
    because: { "workbooks.list.folder-id-below-minimum-rejected": "client-error" },
    operations: ["listWorkbooks"],
    handle: ({ req, next }) => {
      if (Number(req.query.get("folderId")) < 0) req.query.delete("folderId");
      return next();
    },
  },
];

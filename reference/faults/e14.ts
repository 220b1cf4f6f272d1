import { accessTo, atLeast } from "../access.js";
import { e14 } from "../e14/state.js";
import { type Fault, HttpError, ok } from "../http.js";
import { deploymentOf } from "../routes/common.js";
import { itemRefs } from "../routes/item-refs.js";
import { DBT_STATUSES, DBT_TRIGGERS } from "../routes/e14/dbt-sync.js";
import { EMBED_ACTIONS } from "../routes/e14/platform.js";
import { SORT_BYS } from "../routes/e14/reports.js";
import { ATTRIBUTE_TYPES, NOTIFICATION_OPERATORS } from "../routes/e14/resources.js";

/** The rules the spec states about E14 families, each broken once (a reference/e14/behaviour.ts seam, a policy of the endpoint, or an answer rewritten). */

export const e14Faults: Fault[] = [
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
    name: "reports-sort-by-last-viewed-refused",
    breaks: "E14 rule 5 (sortBy values)",
    description: "the reports list refuses sortBy=lastViewedAt with a 400",
    because: { "reports.list.sort-by-values": "sort-by-accepted" },
    operations: ["listReports"],
    handle: ({ req, next }) => {
      const left = SORT_BYS.filter((s) => s !== "lastViewedAt");
      if (req.query.get("sortBy") === "lastViewedAt") throw new HttpError(400, `sortBy must be one of ${left.join(", ")}`);
      return next();
    },
  },
  {
    name: "reports-name-sort-ignored",
    breaks: "E14 rule 5 (sortBy name)",
    description: "sortBy=name is accepted but the reports come in creation order",
    because: { "reports.list.sorted-by-name": "sorted" },
    behaviour: { reportSortValue: (r, sortBy) => (sortBy === "name" ? r.createdAt : ((r as any)[sortBy] ?? "")) },
  },
  {
    name: "reports-last-viewed-cursor",
    breaks: "E14 rule 5 (no cursor with lastViewedAt)",
    description: "sorted by lastViewedAt, the reports list still pages with a cursor",
    because: { "reports.list.last-viewed-no-cursor": "no-cursor", "reports.list.last-viewed-no-cursor-offered": "cursor-offered" },
    behaviour: { cursorWhenSortedByLastViewed: () => true },
  },
  {
    name: "search-ignored",
    breaks: "E14 rule 5 (search); E14 rule 6 (users search); E14 rule 11 (search on users and groups)",
    description: "the search query of the reports, users and groups lists is accepted and ignored",
    because: { "reports.list.search-filter": "only-matches", "users.list.search": "only-matches", "groups.list.search": "only-matches" },
    behaviour: { searchMatches: () => true },
  },
  {
    name: "reports-folder-filter-ignored",
    breaks: "E14 rule 5 (folderId filter)",
    description: "the folderId filter of the reports list is accepted and ignored",
    because: { "reports.list.folder-filter": "only-matches" },
    behaviour: { reportInFolder: () => true },
  },
  {
    name: "reports-external-workbook-filter-ignored",
    breaks: "E14 rule 5 (externalWorkbookId filter)",
    description: "the externalWorkbookId filter of the reports list is accepted and ignored",
    because: { "reports.list.external-workbook-filter": "only-matches" },
    behaviour: { reportInExternalWorkbook: () => true },
  },
  {
    name: "placement-needs-edit-access",
    breaks: "Authentication 4 (connect report: read access)",
    description: "placing a report in a spreadsheet needs edit access to the report",
    because: { "reports.placement.read-access-suffices": "read-suffices" },
    operations: ["connectReportWorkbook", "disconnectReportWorkbook", "refreshReport"],
    handle: ({ req, app, next }) => {
      const r = app.store.items.get(Number(req.params.reportId));
      const access = r?.type === "REPORT" && String(r.deploymentId) === req.params.deploymentId ? accessTo(app.store, req.user, r) : undefined;
      if (access && atLeast(access, "read") && !atLeast(access, "edit")) throw new HttpError(403, "edit access to the report is required");
      return next();
    },
  },
  {
    name: "branch-delete-orphans-children",
    breaks: "E14 rule 4 (children re-parented)",
    description: "deleting a branch leaves its children pointing at the deleted branch",
    because: { "branches.delete.children-reparented": "reparented" },
    operations: ["deleteBranch"],
    handle: async ({ req, app, next }) => {
      const deleted = req.query.get("branchName");
      const children = deploymentOf(app, req).branches.filter((b) => deleted && b.parentBranch === deleted);
      const reply = await next();
      if (reply.status === 200) for (const c of children) c.parentBranch = deleted!;
      return reply;
    },
  },
  {
    name: "files-written-outside-dev-mode",
    breaks: "E14 rule 2 (writes only on dev-mode branches)",
    description: "data-model files are written on any branch, in dev mode or not",
    because: { "data-model.files.write-needs-dev-mode": "refused-outside-dev-mode" },
    behaviour: { fileWriteAllowed: () => true },
  },
  {
    name: "validate-compile-errors-400",
    breaks: "E14 rule 3; Errors 4",
    description: "a branch that does not compile validates as a 400 request error",
    because: { "data-model.validate.compile-errors-200": "status-200" },
    operations: ["validateDataModel"],
    handle: async ({ req, next }) => {
      const reply = await next();
      return (reply.body as { valid?: boolean }).valid === false ? { ...reply, status: 400 } : reply;
    },
  },
  {
    name: "e14-lists-without-page-info",
    breaks: "E14 rule 11 (cursor pagination, 0.4.0); Pagination styles 2",
    description: "the branches, data-model files, regions and user attributes lists answer without pageInfo",
    because: {
      "branches.list.cursor": "page-info",
      "data-model.files.cursor": "page-info",
      "regions.list.cursor": "page-info",
      "user-attributes.list.cursor": "page-info",
    },
    operations: ["listBranches", "listDataModelFiles", "listRegions", "listUserAttributes"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !body || typeof body !== "object") return body;
      const { pageInfo: _dropped, ...rest } = body;
      return rest;
    },
  },
  {
    name: "files-first-ignored",
    breaks: "E14 rule 11 (cursor pagination of files)",
    description: "the data-model files list ignores first and answers every file",
    because: { "data-model.files.cursor": "first-honoured" },
    operations: ["listDataModelFiles"],
    handle: ({ req, next }) => {
      req.query.delete("first");
      return next();
    },
  },
  {
    name: "users-bulk-unknown-fails-all",
    breaks: "E14 rule 6 (per-user failures)",
    description: "a bulk user action naming one missing user fails whole with a 404",
    because: { "users.bulk.per-user-failures": "per-user-answer" },
    operations: ["bulkUserAction"],
    handle: async ({ req, app, next }) => {
      const admins = e14(app.store).users;
      const before = new Map([...admins].map(([id, a]) => [id, { ...a }]));
      const reply = await next();
      const unknown = (reply.body as { failed: { userId: number; error: { status: number } }[] }).failed.find((f) => f.error.status === 404);
      if (!unknown) return reply;
      // Nothing is applied: every user's record is put back as it was.
      for (const id of [...admins.keys()]) before.has(id) ? Object.assign(admins.get(id)!, before.get(id)) : admins.delete(id);
      throw new HttpError(404, `user ${unknown.userId} not found`);
    },
  },
  {
    name: "attribute-type-number-array-refused",
    breaks: "E14 rule 7 (attribute types)",
    description: "user attributes of type number_array are refused",
    because: { "user-attributes.types.accepted": "type-accepted" },
    operations: ["createUserAttribute", "updateUserAttribute"],
    handle: ({ req, next }) => {
      const left = ATTRIBUTE_TYPES.filter((t) => t !== "number_array");
      if (req.body?.type === "number_array") throw new HttpError(400, `type must be one of ${left.join(", ")}`);
      return next();
    },
  },
  {
    name: "notification-empty-operators-refused",
    breaks: "E14 rule 12 (operators is_empty, is_not_empty)",
    description: "notification filters refuse the operators is_empty and is_not_empty",
    because: { "notifications.filters.empty-operators": "operator-accepted" },
    operations: ["createNotification", "updateNotification"],
    handle: ({ req, next }) => {
      const left = NOTIFICATION_OPERATORS.filter((o) => !o.endsWith("empty"));
      const filters: unknown = req.body?.filters;
      if (Array.isArray(filters) && filters.some((f) => !left.includes(f?.operator)))
        throw new HttpError(400, `each filter is {member, operator: ${left.join(" | ")}, values?}`);
      return next();
    },
  },
  {
    name: "embed-access-none-refused",
    breaks: "E14 rule 8 (actions read and none)",
    description: "embed access accepts read but refuses none",
    because: { "embed.access.actions": "action-accepted" },
    operations: ["setEmbedAccess"],
    handle: ({ req, next }) => {
      const left = EMBED_ACTIONS.filter((a) => a !== "none");
      if (req.body?.action === "none") throw new HttpError(400, `action must be one of ${left.join(", ")}`);
      return next();
    },
  },
  {
    name: "logs-filters-ignored",
    breaks: "E14 rule 9 (source and container filters)",
    description: "the logs accept source and container and ignore them",
    because: { "logs.filter.source": "only-that-source", "logs.filter.container": "only-that-container" },
    behaviour: { logMatches: () => true },
  },
  {
    name: "dbt-poll-answers-another-job",
    breaks: "E14 rule 10 (poll)",
    description: "polling a dbt sync answers another job's id",
    because: { "dbt-sync.run.poll-result-logs": "same-job" },
    operations: ["getDbtSync"],
    respond: ({ status, body, req }) => (status === 200 ? { ...body, id: `${body.id}-other` } : body),
  },
  {
    name: "dbt-cancel-ignored",
    breaks: "E14 rule 10 (cancel)",
    description: "cancelling a running dbt sync answers 200 and lets it run on",
    because: { "dbt-sync.cancel.stops": "stopped" },
    operations: ["cancelDbtSync"],
    handle: async ({ req, app, next }) => {
      const job = e14(app.store).dbtJobs.find((j) => j.id === req.params.syncJobId);
      if (!job) return next();
      const running = { status: job.status, finishedAt: job.finishedAt };
      const reply = await next();
      if (reply.status !== 200) return reply;
      Object.assign(job, running);
      return ok({ ...(reply.body as object), ...running });
    },
  },
  {
    name: "dbt-history-trigger-ignored",
    breaks: "E14 rule 10 (history filtered by trigger)",
    description: "the dbt sync history filters by status but ignores trigger",
    because: { "dbt-sync.history.filters": "only-that-trigger" },
    behaviour: { dbtHistoryMatches: (job, status) => !status || job.status === status },
  },
  ...["createdAt", "updatedAt", "lastViewedAt"].map(
    (date): Fault => ({
      name: `reports-${date}-sort-by-name`,
      breaks: `E14 rule 5 (sortBy ${date})`,
      description: `sortBy=${date} is accepted but the reports come in name order (the other sortBy values order right)`,
      because: { "reports.list.sorted-by-dates": `sorted:${date}` },
      behaviour: { reportSortValue: (r, sortBy) => (sortBy === date ? r.name : ((r as any)[sortBy] ?? "")) },
    }),
  ),
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
    name: "users-bulk-forbidden-applies",
    breaks: "E14 rule 6 (user administration)",
    description: "any caller may apply bulk user actions: the read-only caller's DEACTIVATE is applied",
    because: { "users.bulk.forbidden-not-applied": "refused" },
    behaviour: { administersUsers: () => true },
  },
  {
    name: "users-bulk-duplicate-twice",
    breaks: "E14 rule 6 (bulk actions with per-user failures)",
    description: "a user named twice in a bulk action is applied once, and the second entry is reported as a per-user failure",
    because: { "users.bulk.duplicate-once": "no-duplicate-failure" },
    operations: ["bulkUserAction"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !Array.isArray(req.body?.userIds)) return body;
      const twice = (req.body.userIds as number[]).filter((id, i, all) => all.indexOf(id) !== i);
      return {
        ...body,
        failed: [...body.failed, ...twice.map((userId) => ({ userId, error: { status: 409, message: `user ${userId} was already handled in this request` } }))],
      };
    },
  },
  {
    name: "users-bulk-forbidden-reported-yet-applied",
    breaks: "E14 rule 6 (bulk actions with per-user failures)",
    description: "a caller without the admin permission gets every user of its bulk action reported as a 403 failure, but the action is applied",
    because: { "users.bulk.forbidden-not-applied": "not-applied" },
    behaviour: { administersUsers: () => true },
    operations: ["bulkUserAction"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || req.user.permissions.has("AuditLogManage")) return body;
      return {
        ...body,
        succeeded: [],
        failed: [
          ...body.failed,
          ...body.succeeded.map((userId: number) => ({ userId, error: { status: 403, message: "user administration needs an admin" } })),
        ],
      };
    },
  },
  // Every status of the dbt sync history, each filter value broken alone.
  ...DBT_STATUSES.map(
    (value): Fault => ({
      name: `dbt-history-status-${value}-ignored`,
      breaks: "E14 rule 10 (history filtered by status)",
      description: `the dbt sync history filtered by status=${value} lists runs of every status (the other status values, and trigger, filter)`,
      because: { "dbt-sync.history.filters": "only-that-status" },
      behaviour: {
        dbtHistoryMatches: (job, status, trigger) => (!status || status === value || job.status === status) && (!trigger || job.trigger === trigger),
      },
    }),
  ),
  ...DBT_TRIGGERS.map(
    (value): Fault => ({
      name: `dbt-history-trigger-${value}-ignored`,
      breaks: "E14 rule 10 (history filtered by trigger)",
      description: `the dbt sync history filtered by trigger=${value} lists runs of every trigger (the other trigger values, and status, filter)`,
      because: { "dbt-sync.history.filters": "only-that-trigger" },
      behaviour: {
        dbtHistoryMatches: (job, status, trigger) => (!status || job.status === status) && (!trigger || trigger === value || job.trigger === trigger),
      },
    }),
  ),
];

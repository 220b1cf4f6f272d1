/**
 * The rules of the spec, as data: every numbered rule and every section a check can cite, in the
 * project's own words, and the points the spec leaves "not shown" (no check may invent a MUST
 * there). `conformance coverage` and docs/coverage.md map them to the checks that cite them.
 * Ids are what a check's `spec` field cites: `E11 rule 3`, `Errors 2`, `Resources / Workbook`.
 */
export interface SpecRule {
  id: string;
  /** The rule, paraphrased. */
  text: string;
  /** Why no check can hold a server to it (mostly: the spec leaves it "not shown"). */
  notTestable?: string;
}

const NOT_SHOWN = 'the spec says "not shown"';

const RULES = [
  {
    id: "Pagination styles 1",
    text: "Offset lists take offset (default 0, min 0) and limit (default 20, min 1) and answer pagination {offset, limit, total}.",
  },
  { id: "Pagination styles 2", text: "Cursor lists take first (min 1) and after, answer items and pageInfo, and keep the deprecated data, count, pagination." },

  { id: "Resources / Deployment", text: "A deployment list item has id, name and created_at (ISO 8601 date-time)." },
  {
    id: "Resources / Deployment (other fields)",
    text: "Fields of a deployment beyond id, name, created_at.",
    notTestable: `${NOT_SHOWN}: extra fields are accepted, none required`,
  },
  {
    id: "Resources / Environment",
    text: "An environment has id, type (production, staging, development), branch, user, api_credentials; the control-plane shape (name, api_credentials keyed by kind) is a documented variant.",
  },
  {
    id: "Resources / Environment (required fields)",
    text: "Which environment fields are required.",
    notTestable: `${NOT_SHOWN}: no field is held to presence beyond what the checks need to find one`,
  },
  {
    id: "Resources / Environment variable",
    text: "An env var has name and value; a name containing PASS, SECRET, TOKEN, KEY or CREDENTIAL has its value masked as [ENCRYPTED].",
  },
  { id: "Resources / Metadata token result", text: "The token result holds token (a JWT), created_at, and expires_at = created_at + expires_in seconds." },
  { id: "Resources / Branch", text: "The staging toggle answers a branch with id, name, parentBranch, lastHash, isStagingEnvironmentEnabled." },
  { id: "Resources / Deployment version entry", text: "A version entry has releaseChannelVersion, version, releaseChannel, isLatestInChannel, isCurrent." },
  { id: "Resources / PageInfo", text: "pageInfo has hasNextPage and hasPreviousPage (required), startCursor and endCursor (optional, nullable)." },
  { id: "Resources / Workbook", text: "A workbook's fields, their types and which are required; *At timestamps are date or date-time." },
  { id: "Resources / ResourceOwner", text: "An owner has id and email, and nullable firstName and picture." },
  { id: "Resources / DashboardConfig", text: "Dashboard config fields (kind CLASSIC or APP, widgets, layout, app...), all optional and nullable." },
  { id: "Resources / DashboardAppSource", text: "An app source's entry is at most 255 characters." },
  { id: "Resources / DashboardLayout", text: "Layout breakpoints, cols, paddings, margins and row height." },
  {
    id: "Resources / DashboardWidget",
    text: "A widget has id, a type from the listed enum, and an integer position; TABS_CONTAINER is still accepted and converted.",
  },
  { id: "Resources / Dashboard", text: "A published dashboard's fields; status is draft, published or archived." },
  { id: "Resources / ReportSnapshot", text: "A report snapshot's fields; kind is vega, table, kpi, html or map." },
  { id: "Resources / Workspace item reference", text: "An item reference is {type: WORKBOOK | REPORT | FOLDER, id: integer}." },
  {
    id: "Resources / other resources",
    text: "Fields of folders, reports, notifications, users and the rest named only in E14.",
    notTestable: `${NOT_SHOWN}: only presence of the endpoints, never their shapes, can be checked`,
  },

  {
    id: "States / Branch staging",
    text: "Enabling staging on a shared branch sets isStagingEnvironmentEnabled and lists its environment as staging; disabling clears the flag.",
  },
  { id: "States / Bulk move", text: "A bulk move sets each movable item's folder (a folder's parent) to the destination and lists it in moved." },
  { id: "States / Clone", text: "A clone creates a new workbook and leaves the source unchanged." },
  {
    id: "States / Dashboard status transitions",
    text: "How a dashboard moves between draft, published and archived.",
    notTestable: `${NOT_SHOWN}: the transitions are not described`,
  },
  { id: "States / Build state", text: "The build/deploy state values of a branch.", notTestable: `${NOT_SHOWN}: no values are listed` },

  { id: "E1", text: "GET /api/v1/deployments lists the caller's deployments in data.deployments with offset pagination." },
  {
    id: "E2",
    text: "GET .../environments lists environments (type filter, offset and cursor parameters, items/pageInfo and deprecated data/pagination; pagination may be null).",
  },
  {
    id: "E3",
    text: "POST .../tokens-for-meta-sync with a required security_context object and an optional expires_in (seconds, default 86400) issues a metadata-only token.",
  },
  {
    id: "E4",
    text: "PUT .../branches/staging-environment with enabled and branchName or branchId toggles a shared branch's staging; personal and production branches are rejected.",
  },
  { id: "E5", text: "GET .../versions lists the head of each channel plus older versions the account has run." },
  { id: "E6", text: "PUT /deployments/{id} merges the sent fields only; templateVariables merges key by key." },
  { id: "E6 rule 1", text: "releaseChannelVersion must be listed by E5, given as 1.7.20, v1.7.20 or the image reference; anything else is a 400." },
  { id: "E6 rule 2", text: "Sending only releaseChannel moves the deployment to that channel's latest version." },
  { id: "E6 rule 3", text: "The container image follows from the version and cannot be set directly." },
  {
    id: "E6 (field types)",
    text: "Types of the update-deployment fields beyond their names.",
    notTestable: `${NOT_SHOWN}: only the named fields' effects are checked`,
  },
  { id: "E7", text: "GET /audit-logs/export streams a CSV, filtered by start, end, search, eventName and userEmail; needs the feature and AuditLogManage." },
  { id: "E8", text: "GET .../workbooks lists workbooks with items, deprecated data and count, and pageInfo; folderId filters, first and after page." },
  { id: "E9", text: "GET .../workbooks/{id} answers the workbook." },
  { id: "E10", text: "POST .../duplicate clones a workbook (optional body {shared: boolean}) and answers the new workbook." },
  { id: "E10 rule 1", text: "The clone copies reports and the published dashboard and is named Copy of {name}." },
  { id: "E10 rule 2", text: "The clone's dashboard and draft point to the copied reports; the clone is independent of the source." },
  { id: "E10 rule 3", text: "View history and policies are not copied; allowEmbed starts false." },
  { id: "E10 rule 4", text: "With edit access to the source's folder the clone lands there; with read access only, or from the root, at the root." },
  { id: "E10 rule 5", text: "The caller needs read access and AI BI User or higher, and owns the clone." },
  {
    id: "E10 rule 6",
    text: "shared: true (creator-mode sessions only) clones from the shared workspace's published dashboard to the root; no published dashboard is a 400, a non-creator caller a 403.",
  },
  { id: "E10 rule 7", text: "At the plan's workbook limit the clone fails with 400." },
  { id: "E10 rule 8", text: "A missing workbook, or one of another deployment, is a 404." },
  { id: "E11", text: "PUT .../workbooks/by-slug/{slug} with folderId, meta, name answers the workbook." },
  { id: "E11 rule 1", text: "The slug is trimmed and lowercased before matching." },
  {
    id: "E11 rule 2",
    text: "An existing slug is updated (only sent fields change, meta merged, a dashboardDraft validated); otherwise a workbook is created.",
  },
  { id: "E11 rule 3", text: "Re-applying the same request changes nothing." },
  {
    id: "E11 rule 4",
    text: "Update needs edit access (with folderId also manage access and edit access to the destination); create needs AI BI User or higher.",
  },
  {
    id: "E11 rule 5",
    text: "Create-or-update is decided and access-checked up front; a concurrent change of the slug's holder is a 409 upsert_branch_changed, not applied, retryable.",
  },
  { id: "E11 rule 6", text: "A missing deployment is a 404." },
  {
    id: "E11 (required fields)",
    text: "Which of name, folderId, meta the upsert body requires.",
    notTestable: `${NOT_SHOWN}: a missing field is never held to an answer`,
  },
  {
    id: "E12",
    text: "POST .../workspace/bulk-move moves up to 100 distinct items (duplicates collapsed) to folderId (null: root) one at a time in order, each in its own transaction, access per item; 200 with moved and failed {message, status} (403, 404, 400).",
  },
  { id: "E13", text: "GET .../env-vars lists env vars with cursor paging, items, deprecated data and pageInfo; secret-named values masked." },
  { id: "E14", text: "The additional endpoints exist with their named purpose (among them GET /api/v1/spec, the OpenAPI document)." },
  {
    id: "E14 rule 1",
    text: "Workspace bulk delete deletes items with per-item failures (facts: items 1..100, duplicates collapsed, no rollback, 403/404/400 per item).",
  },
  { id: "E14 rule 2", text: "Data-model files are written (and removed, renamed) only on dev-mode branches." },
  { id: "E14 rule 3", text: "Data-model validation compiles a branch; compile errors are answered 200 with valid=false." },
  {
    id: "E14 rule 4",
    text: "A branch is deleted by branchName as a query parameter; its children are re-parented; removeOnUpstream also deletes the remote ref.",
  },
  {
    id: "E14 rule 5",
    text: "The reports list takes folderId, externalWorkbookId, search, and sortBy createdAt, updatedAt, lastViewedAt or name; sorted by lastViewedAt it has no cursor.",
  },
  { id: "E14 rule 6", text: "User administration: bulk actions DEACTIVATE, ACTIVATE, DELETE with per-user failures; the users list takes a search query." },
  { id: "E14 rule 7", text: "User attribute types are string, number, boolean, string_array and number_array." },
  { id: "E14 rule 8", text: "Embed access of a workbook is read or changed per embed tenant or for all embed users, with actions read and none." },
  { id: "E14 rule 9", text: "Container logs filter by source (production, dev) and container (INIT, MAIN, vector, api-proxy and the server container)." },
  { id: "E14 rule 10", text: "dbt sync: start (optional branchName, ref), poll, cancel, result, logs; the run history filters by status and trigger." },
  {
    id: "E14 rule 12",
    text: "Scheduled notifications under a deployment carry dashboard filters (operators include is_empty and is_not_empty) and time grains.",
  },
  {
    id: "E14 rule 13",
    text: "A report's spreadsheet placement is addressed by placementId, or by externalWorkbookId + sheetName + anchorCell, to connect, refresh and remove it.",
  },
  {
    id: "E14 rule 14",
    text: "Data-model files are renamed (files/rename), uploaded in chunks (upload start, file, finish) and listed with their hashes (file-hashes).",
  },
  {
    id: "E14 rule 11",
    text: "0.4.0: cursor pagination on env vars, branches, files, regions, user attributes and others; search on the users and groups lists.",
  },
  {
    id: "E14 (shapes)",
    text: "Request and response shapes of the E14 endpoints.",
    notTestable: `${NOT_SHOWN}: a check may only see that an endpoint answers, not judge its body`,
  },
  {
    id: "E2 (bound parameter names)",
    text: "Which query parameters carry the environments list's three numeric bounds.",
    notTestable: `${NOT_SHOWN}: the bounds are checked only on the named offset, limit, first`,
  },

  { id: "Authentication 1", text: "Every endpoint takes Authorization: Bearer <API key>; the same key works on /api/v1 and /build/api/v1." },
  { id: "Authentication 2", text: "The credential is an account API key." },
  { id: "Authentication 3", text: "E3 tokens are separate JWTs, valid only on metadata endpoints, refused for data queries." },
  {
    id: "Authentication 4",
    text: "The access rules per operation (audit export, clone, shared clone, upsert update and create, bulk move, report placement).",
  },
  { id: "Authentication 5", text: "Policy actions include SecretsManage and DownloadData." },
  { id: "Authentication (key scoping)", text: "How an API key is created or scoped.", notTestable: `${NOT_SHOWN}: outside the API under test` },

  { id: "Events (outbound delivery)", text: "Webhooks or other outbound event delivery.", notTestable: `${NOT_SHOWN}: nothing to call` },
  {
    id: "Events (audit names and columns)",
    text: "The full list of audit event names and CSV columns.",
    notTestable: `${NOT_SHOWN}: columns are found by content, not by a fixed list`,
  },

  { id: "Errors 1", text: "Control-plane errors are a JSON object with an error string." },
  { id: "Errors 2", text: "The status codes: 400, 403, 404 and 409 (upsert_branch_changed, transient) for the listed conditions." },
  { id: "Errors 3", text: "Bulk move answers 200 to a well-formed request and reports failures per item as {message, status}." },
  {
    id: "Errors 4",
    text: "Data-model validation reports compile errors with 200 and valid=false (the server's own document shows how a branch is named and the file written).",
  },
  {
    id: "Errors 5",
    text: "The status of rejecting a non-shared or production branch on E4.",
    notTestable: `${NOT_SHOWN}: any 4xx is accepted; the flag must stay unchanged`,
  },
  {
    id: "Errors 6",
    text: "The status for a missing or invalid token.",
    notTestable: `${NOT_SHOWN}: checked at SHOULD (401, from how real servers answer), never MUST`,
  },
  {
    id: "Errors 7",
    text: "Error bodies of platform endpoints beyond the 409 code and per-item bulk errors.",
    notTestable: `${NOT_SHOWN}: {error} or {message} both accepted`,
  },

  {
    id: "Limits",
    text: "Default page size 20 and offset 0 (offset lists), first min 1, 100 items per bulk move, token lifetime 86400 s, app entry max 255, plan workbook limit (clone 400).",
  },
  {
    id: "Limits (rate, maxima, cursor default)",
    text: "Rate limits, maximum limit and first, default cursor page size.",
    notTestable: `${NOT_SHOWN}: a 429 is waited out, never a verdict; large pages are accepted`,
  },

  {
    id: "Versioning 1",
    text: "Paths carry /api/v1 and /build/api/v1; GET /api/v1/spec serves an OpenAPI 3.1 document titled as a platform API, version 1.0.0.",
  },
  { id: "Versioning 2", text: "The legacy data, count, pagination stay on cursor lists, deprecated in favour of items and pageInfo." },
  {
    id: "Versioning 3",
    text: "The revision history of the interface description (0.1.x to 0.4.0).",
    notTestable:
      "history, not behaviour: what it removed or added is checked through the rules it changed (TABS_CONTAINER, cursor lists) and in the served document (the embed tenant path, the removed session field and endpoints)",
  },
  { id: "Versioning 4", text: "The support window and removal schedule of deprecated fields.", notTestable: `${NOT_SHOWN}` },
] as const satisfies readonly SpecRule[];

/** A rule a check may cite and a range may cover: a renamed rule is a compile error where it is named. */
export type RuleId = (typeof RULES)[number]["id"];

export const specRules: readonly SpecRule[] = RULES;

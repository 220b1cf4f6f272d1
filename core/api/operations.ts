import type { CheckId } from "../model/ids.js";
import type { SchemaName } from "./schemas.js";
import { operationKey } from "./match.js";

/**
 * The spec's operations and the vocabulary it fixes, as data: the one model of the API that the
 * suite (core/api/match.ts, core/transport/client.ts) and the reference's router both read, like
 * schemas/. Adding an endpoint is a line here; nothing else lists paths.
 */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type SpecSection = "E1" | "E2" | "E3" | "E4" | "E5" | "E6" | "E7" | "E8" | "E9" | "E10" | "E11" | "E12" | "E13";
/** How a list pages (Pagination styles): offset/limit, first/after, both (E2), or not at all. */
export type Pagination = "offset" | "cursor" | "cursor and offset" | "none";

export const API_PREFIX = "/api/v1";
export const BUILD_PREFIX = "/build/api/v1";
export type Prefix = typeof API_PREFIX | typeof BUILD_PREFIX;

/**
 * What a run may send to an operation, by what it changes: "read" changes nothing; "writes" what
 * the run makes and removes (--allow-writes); each opt-in (core/api/settings.ts OPT_INS) what only
 * a user who granted it lets the run touch; "never" what no document-driven check sends (a build,
 * a sync, dev mode, a branch), sent only by the checks written for it, under --allow-writes. A
 * write of the server's document the table has no row for is "unnamed-operations". The door
 * (core/run/door.ts), the write plan and the document-driven checks read it here.
 */
export type WriteClass =
  | "read"
  | "writes"
  | "never"
  | "admin-writes"
  | "unremovable-writes"
  | "deployment-changes"
  | "deployment-lifecycle"
  | "git-operations"
  | "unnamed-operations";

export interface Operation {
  name: string;
  section: SpecSection | "E14";
  method: Method;
  /** The whole request path, prefix included; `{name}` is a placeholder. */
  path: string;
  prefix: Prefix;
  write: WriteClass;
  /**
   * A POST or PATCH whose second sending leaves the state the first left ("enable or disable",
   * "start", "reset", a per-item bulk action; E3's token, which no operation lists or revokes): safe
   * to send again after a 429 or 503, as a PUT is (core/transport/read-back.ts). Absent: not known.
   */
  resendable?: true;
  /** A write whose record is read elsewhere than at its own path: the row that reads it (E6's settings). */
  readBy?: string;
  /** The fields of the record the write changes, where the spec lists them (E6): compared and put back whichever a body carried. */
  fields?: readonly string[];
  /** How the list pages (Pagination styles): every E1-E13 row says; an E14 row where the spec names it a cursor list (`cursorPaged`). */
  pagination?: Pagination;
}

/** The row of an operation whose second sending leaves the same state (Operation.resendable). */
const resendable = <O extends Operation>(op: O): O & { resendable: true } => ({ ...op, resendable: true });

/** An E14 list the spec names cursor-paginated: 0.4.0's branches, files, regions, user attributes (E14 rule 11); 0.1.x's folders, reports. */
const cursorPaged = <O extends Operation>(op: O): O & { pagination: "cursor" } => ({ ...op, pagination: "cursor" });

/** Whether a row's list takes `first` and `after` (Pagination styles 2): E2, E8, E13 and the E14 lists the spec names so. */
export const pagedByCursor = (op: Pick<Operation, "pagination">): boolean => op.pagination === "cursor" || op.pagination === "cursor and offset";

export interface SpecifiedOperation extends Operation {
  section: SpecSection;
  /** The id of the check that fails when this operation does not answer as the spec says (core/api/endpoints.ts). */
  owner: CheckId;
  pagination: Pagination;
  /** The schema the spec gives the answer, per status where it shows one. */
  answers: Answers;
  /** The schema the spec gives the request body, where it shows one: `api.call` types the body it sends by it. */
  request?: SchemaName;
}

type Answers = Partial<Record<number, SchemaName>>;

/** The row of an operation whose request body the spec shows (SpecifiedOperation.request). */
const sending = <O extends SpecifiedOperation, const S extends SchemaName>(op: O, request: S): O & { request: S } => ({ ...op, request });

/** A row keeps its name and its path as literal types: `OperationName` and each operation's parameters (`ParamsOf`) are read from them. */
type Row<O extends Operation, N extends string, P extends Prefix, R extends string> = O & { name: N; path: `${P}${R}` };

const spec = <const N extends string, const P extends Prefix, const R extends string, const A extends Answers>(
  section: SpecSection,
  name: N,
  method: Method,
  prefix: P,
  rest: R,
  owner: CheckId,
  pagination: Pagination,
  answers: A,
  write: WriteClass = method === "GET" ? "read" : "writes",
): Row<SpecifiedOperation, N, P, R> & { answers: A } => ({
  name,
  section,
  method,
  path: `${prefix}${rest}`,
  prefix,
  owner,
  pagination,
  answers,
  write,
});

const D = "/deployments/{deploymentId}";

/** E1-E13: the operations whose rules and shapes the spec states, in section order. */
export const SPECIFIED_OPERATIONS = [
  spec("E1", "listDeployments", "GET", API_PREFIX, "/deployments", "deployments.list.schema", "offset", { 200: "DeploymentsListResponse" }),
  spec("E2", "listEnvironments", "GET", API_PREFIX, `${D}/environments`, "environments.list.schema", "cursor and offset", { 200: "EnvironmentsListResponse" }),
  resendable(
    sending(
      spec("E3", "createMetadataToken", "POST", API_PREFIX, `${D}/environments/{environmentId}/tokens-for-meta-sync`, "tokens.create.schema", "none", {
        200: "MetadataTokenResponse",
      }),
      "MetadataTokenRequest",
    ),
  ),
  sending(
    spec("E4", "setStagingEnvironment", "PUT", BUILD_PREFIX, `${D}/branches/staging-environment`, "staging.enable.by-name", "none", { 200: "BranchResponse" }),
    "StagingToggleRequest",
  ),
  spec("E5", "listVersions", "GET", API_PREFIX, `${D}/versions`, "versions.list.schema", "none", { 200: "VersionsListResponse" }),
  {
    ...spec("E6", "updateDeployment", "PUT", API_PREFIX, D, "deployment-update.version.listed-forms", "none", {}, "deployment-changes"),
    request: "UpdateDeploymentRequest",
    readBy: "getDeploymentSettings",
    fields: [
      "releaseChannel",
      "releaseChannelVersion",
      "releaseChannelVersionHold",
      "templateVariables",
      "cloudProvider",
      "region",
      "template",
      "defaultLaunchpadViewGroup",
      "launchpadTabs",
    ],
  },
  spec("E7", "exportAuditLog", "GET", API_PREFIX, "/audit-logs/export", "audit.export.content-type-csv", "none", {}),
  spec("E8", "listWorkbooks", "GET", API_PREFIX, `${D}/workbooks`, "workbooks.list.schema", "cursor", { 200: "WorkbooksListResponse" }),
  spec("E9", "getWorkbook", "GET", API_PREFIX, `${D}/workbooks/{workbookId}`, "workbooks.get.schema", "none", { 200: "Workbook" }),
  sending(
    spec("E10", "duplicateWorkbook", "POST", API_PREFIX, `${D}/workbooks/{workbookId}/duplicate`, "clone.answer.is-the-stored-clone", "none", {
      200: "Workbook",
    }),
    "CloneWorkbookRequest",
  ),
  sending(
    spec("E11", "upsertWorkbookBySlug", "PUT", API_PREFIX, `${D}/workbooks/by-slug/{slug}`, "upsert.create.absent-slug-creates", "none", {
      200: "Workbook",
      409: "ConflictError",
    }),
    "UpsertWorkbookRequest",
  ),
  // Per item (E12): a second move finds each item where the first put it.
  resendable(
    sending(
      spec("E12", "bulkMoveWorkspaceItems", "POST", API_PREFIX, `${D}/workspace/bulk-move`, "bulk-move.response.schema", "none", { 200: "BulkMoveResponse" }),
      "BulkMoveRequest",
    ),
  ),
  spec("E13", "listEnvVars", "GET", API_PREFIX, `${D}/env-vars`, "env-vars.list.schema", "cursor", { 200: "EnvVarsListResponse" }),
] as const satisfies readonly SpecifiedOperation[];

const e14 = <const N extends string, const P extends Prefix, const R extends string>(
  name: N,
  method: Method,
  prefix: P,
  rest: R,
  write: WriteClass = method === "GET" ? "read" : "writes",
): Row<Operation, N, P, R> => ({
  name,
  section: "E14",
  method,
  path: `${prefix}${rest}`,
  prefix,
  write,
});

/**
 * E14's table, one operation a line where the table names the method and the path, as the spec
 * writes it (trailing slashes included); the rows that say "CRUD" or `/...` name no path and are
 * left out. Shapes are not shown: a server's own document says them.
 */
export const E14_OPERATIONS = [
  e14("getSpec", "GET", API_PREFIX, "/spec"),
  e14("getAppConfig", "GET", API_PREFIX, "/app-config"),
  e14("getDeploymentSettings", "GET", API_PREFIX, `${D}/settings`),
  e14("deleteDeployment", "DELETE", API_PREFIX, D, "deployment-lifecycle"),
  e14("setEnvVars", "PUT", API_PREFIX, `${D}/env-vars`, "unremovable-writes"),
  e14("getBuildStatus", "GET", API_PREFIX, `${D}/build-status`),
  e14("getLogs", "GET", API_PREFIX, `${D}/logs`),
  e14("listPods", "GET", API_PREFIX, `${D}/pods`),
  e14("advanceCreationStep", "POST", API_PREFIX, `${D}/creation-step/advance`, "deployment-lifecycle"),
  resendable(e14("resetCreationStep", "POST", API_PREFIX, `${D}/creation-step/reset`, "deployment-lifecycle")),
  cursorPaged(e14("listRegions", "GET", API_PREFIX, "/regions/")),
  e14("createDeployment", "POST", BUILD_PREFIX, "/deployments/", "deployment-lifecycle"),
  cursorPaged(e14("listDataModelFiles", "GET", BUILD_PREFIX, `${D}/data-model/files`)),
  e14("writeDataModelFiles", "PUT", BUILD_PREFIX, `${D}/data-model/files`, "never"),
  e14("deleteDataModelFiles", "DELETE", BUILD_PREFIX, `${D}/data-model/files`, "never"),
  e14("renameDataModelFiles", "POST", BUILD_PREFIX, `${D}/data-model/files/rename`, "never"),
  e14("validateDataModel", "GET", BUILD_PREFIX, `${D}/data-model/validate`),
  e14("startUpload", "POST", BUILD_PREFIX, `${D}/data-model/upload/start`, "never"),
  e14("uploadFile", "POST", BUILD_PREFIX, `${D}/data-model/upload/file`, "never"),
  // Finishing an upload again writes the same file (or finds the upload done): its second sending leaves the same state.
  resendable(e14("finishUpload", "POST", BUILD_PREFIX, `${D}/data-model/upload/finish`, "never")),
  e14("getFileHashes", "GET", BUILD_PREFIX, `${D}/data-model/file-hashes`),
  resendable(e14("startDevMode", "POST", BUILD_PREFIX, `${D}/dev-mode`, "never")),
  e14("stopDevMode", "DELETE", BUILD_PREFIX, `${D}/dev-mode`, "never"),
  cursorPaged(e14("listBranches", "GET", BUILD_PREFIX, `${D}/branches`)),
  e14("createBranch", "POST", BUILD_PREFIX, `${D}/branches`, "never"),
  e14("deleteBranch", "DELETE", BUILD_PREFIX, `${D}/branches`, "never"),
  e14("commitBranch", "POST", BUILD_PREFIX, `${D}/commit`, "git-operations"),
  e14("pullBranch", "POST", BUILD_PREFIX, `${D}/pull`, "git-operations"),
  e14("mergeBranch", "POST", BUILD_PREFIX, `${D}/merge`, "git-operations"),
  e14("mergeToDefault", "POST", BUILD_PREFIX, `${D}/merge-to-default`, "git-operations"),
  e14("connectGithub", "POST", BUILD_PREFIX, `${D}/github/connect`, "git-operations"),
  e14("startDbtSync", "POST", API_PREFIX, `${D}/dbt-sync`, "never"),
  e14("listDbtSyncs", "GET", API_PREFIX, `${D}/dbt-sync`),
  e14("getDbtSync", "GET", API_PREFIX, `${D}/dbt-sync/{syncJobId}`),
  e14("cancelDbtSync", "DELETE", API_PREFIX, `${D}/dbt-sync/{syncJobId}`, "never"),
  e14("getDbtSyncResult", "GET", API_PREFIX, `${D}/dbt-sync/{syncJobId}/result`),
  e14("getDbtSyncLogs", "GET", API_PREFIX, `${D}/dbt-sync/{syncJobId}/logs`),
  // Per item, no rollback: a second delete finds the items the first deleted gone.
  resendable(e14("bulkDeleteWorkspaceItems", "POST", API_PREFIX, `${D}/workspace/bulk-delete`)),
  e14("upsertReportByPublicId", "PUT", API_PREFIX, `${D}/reports/by-public-id/{publicId}`),
  e14("connectReportWorkbook", "PUT", API_PREFIX, `${D}/reports/{reportId}/connect-workbook`),
  e14("disconnectReportWorkbook", "DELETE", API_PREFIX, `${D}/reports/{reportId}/connect-workbook`),
  e14("refreshReport", "PUT", API_PREFIX, `${D}/reports/{reportId}/refresh`),
  cursorPaged(e14("listReports", "GET", API_PREFIX, `${D}/reports`)),
  cursorPaged(e14("listFolders", "GET", API_PREFIX, `${D}/folders`)),
  e14("getEmbedAccess", "GET", API_PREFIX, `${D}/workbooks/{workbookId}/embed-access`),
  e14("setEmbedAccess", "PUT", API_PREFIX, `${D}/workbooks/{workbookId}/embed-access`),
  resendable(e14("setDashboardEmbedding", "PATCH", API_PREFIX, "/embed/dashboard/{publicId}", "admin-writes")),
  e14("runDashboardPython", "POST", API_PREFIX, "/embed/dashboard/{publicId}/python-run", "admin-writes"),
  e14("listUsers", "GET", API_PREFIX, "/users"),
  e14("createUser", "POST", API_PREFIX, "/users", "admin-writes"),
  e14("getUser", "GET", API_PREFIX, "/users/{id}"),
  e14("updateUser", "PUT", API_PREFIX, "/users/{id}", "admin-writes"),
  // A second deactivation finds the user inactive; a second delete finds it gone.
  resendable(e14("bulkUserAction", "POST", API_PREFIX, "/users/bulk", "admin-writes")),
  cursorPaged(e14("listUserAttributes", "GET", API_PREFIX, "/user-attributes/")),
  e14("createUserAttribute", "POST", API_PREFIX, "/user-attributes/", "admin-writes"),
  e14("getTenantSettings", "GET", API_PREFIX, "/tenant/settings"),
  e14("updateTenantSettings", "PUT", API_PREFIX, "/tenant/settings", "admin-writes"),
  e14("listOauthIntegrations", "GET", API_PREFIX, "/oauth-integrations"),
  e14("listUserOauthTokens", "GET", API_PREFIX, "/user-oauth-tokens"),
  e14("listOidcTokenConfigs", "GET", API_PREFIX, "/oidc-token-configs"),
  e14("getGithubStatus", "GET", API_PREFIX, "/github/status"),
  e14("listGithubInstallations", "GET", API_PREFIX, "/github/installations"),
  e14("listGithubRepositories", "GET", API_PREFIX, "/github/installations/{installationId}/repositories"),
  e14("listGithubBranches", "GET", API_PREFIX, "/github/repositories/{owner}/{repo}/branches"),
] as const satisfies readonly Operation[];

/**
 * E14 operations the spec's table leaves under a family ("`/folders`") and facts.md names with
 * their method: called by the suite, not probed as the spec's own (core/api/spec-operations.ts).
 */
export const FACT_OPERATIONS = [
  e14("createFolder", "POST", API_PREFIX, `${D}/folders`),
  e14("deleteFolder", "DELETE", API_PREFIX, `${D}/folders/{folderId}`),
] as const satisfies readonly Operation[];

/**
 * E14 families the spec's table writes as "CRUD", `/...` or a list of names ("the users and groups
 * lists"), one operation a line: the collection, and its members under `/{id}`, as the table's
 * other families are laid out. Called by the suite where a server documents them; never probed as
 * the spec's own (core/api/spec-operations.ts), since their paths are the suite's reading of a family.
 */
const EMBED_TENANT = "/embed-tenants/{tenantId}";
const EMBED_GROUP = `${EMBED_TENANT}/groups/{embedGroupId}`;
export const FAMILY_OPERATIONS = [
  e14("listGroups", "GET", API_PREFIX, "/groups"),
  e14("createPolicy", "POST", API_PREFIX, "/policies", "admin-writes"),
  e14("deletePolicy", "DELETE", API_PREFIX, "/policies/{policyId}", "admin-writes"),
  e14("listEmbedTenants", "GET", API_PREFIX, "/embed-tenants"),
  e14("createEmbedTenant", "POST", API_PREFIX, "/embed-tenants", "admin-writes"),
  e14("deleteEmbedTenant", "DELETE", API_PREFIX, EMBED_TENANT, "admin-writes"),
  e14("createEmbedUser", "POST", API_PREFIX, `${EMBED_TENANT}/users`, "admin-writes"),
  e14("deleteEmbedUser", "DELETE", API_PREFIX, `${EMBED_TENANT}/users/{embedUserId}`, "admin-writes"),
  e14("createEmbedGroup", "POST", API_PREFIX, `${EMBED_TENANT}/groups`, "admin-writes"),
  e14("deleteEmbedGroup", "DELETE", API_PREFIX, EMBED_GROUP, "admin-writes"),
  e14("listEmbedGroupMembers", "GET", API_PREFIX, `${EMBED_GROUP}/members`),
  e14("addEmbedGroupMember", "POST", API_PREFIX, `${EMBED_GROUP}/members`, "admin-writes"),
  e14("removeEmbedGroupMember", "DELETE", API_PREFIX, `${EMBED_GROUP}/members/{memberId}`, "admin-writes"),
  e14("deleteUserAttribute", "DELETE", API_PREFIX, "/user-attributes/{attributeId}", "admin-writes"),
  e14("getUserAttributeValues", "GET", API_PREFIX, "/user-attribute-values/{userId}"),
  e14("setUserAttributeValues", "PUT", API_PREFIX, "/user-attribute-values/{userId}", "admin-writes"),
  e14("getOauthIntegration", "GET", API_PREFIX, "/oauth-integrations/{integrationId}"),
  e14("getUserOauthToken", "GET", API_PREFIX, "/user-oauth-tokens/{tokenId}"),
  e14("getOidcTokenConfig", "GET", API_PREFIX, "/oidc-token-configs/{configId}"),
  e14("createNotification", "POST", API_PREFIX, `${D}/notifications`),
  e14("updateNotification", "PUT", API_PREFIX, `${D}/notifications/{notificationId}`),
  e14("deleteNotification", "DELETE", API_PREFIX, `${D}/notifications/{notificationId}`),
  // Served by the reference's resource engine beside the rows above (reference/routes/e14/engine.ts): the rest of each family.
  e14("listNotifications", "GET", API_PREFIX, `${D}/notifications`),
  e14("getNotification", "GET", API_PREFIX, `${D}/notifications/{notificationId}`),
  e14("createGroup", "POST", API_PREFIX, "/groups"),
  e14("getGroup", "GET", API_PREFIX, "/groups/{groupId}"),
  e14("updateGroup", "PUT", API_PREFIX, "/groups/{groupId}"),
  e14("deleteGroup", "DELETE", API_PREFIX, "/groups/{groupId}"),
  e14("listPolicies", "GET", API_PREFIX, "/policies"),
  e14("getPolicy", "GET", API_PREFIX, "/policies/{policyId}"),
  e14("updatePolicy", "PUT", API_PREFIX, "/policies/{policyId}"),
  e14("getEmbedTenant", "GET", API_PREFIX, EMBED_TENANT),
  e14("updateEmbedTenant", "PATCH", API_PREFIX, EMBED_TENANT),
  e14("listEmbedUsers", "GET", API_PREFIX, `${EMBED_TENANT}/users`),
  e14("getEmbedUser", "GET", API_PREFIX, `${EMBED_TENANT}/users/{embedUserId}`),
  e14("updateEmbedUser", "PATCH", API_PREFIX, `${EMBED_TENANT}/users/{embedUserId}`),
  e14("listEmbedGroups", "GET", API_PREFIX, `${EMBED_TENANT}/groups`),
  e14("getEmbedGroup", "GET", API_PREFIX, EMBED_GROUP),
  e14("updateEmbedGroup", "PATCH", API_PREFIX, EMBED_GROUP),
  e14("createOauthIntegration", "POST", API_PREFIX, "/oauth-integrations"),
  e14("updateOauthIntegration", "PATCH", API_PREFIX, "/oauth-integrations/{integrationId}"),
  e14("deleteOauthIntegration", "DELETE", API_PREFIX, "/oauth-integrations/{integrationId}"),
  e14("createUserOauthToken", "POST", API_PREFIX, "/user-oauth-tokens"),
  e14("deleteUserOauthToken", "DELETE", API_PREFIX, "/user-oauth-tokens/{tokenId}"),
  e14("createOidcTokenConfig", "POST", API_PREFIX, "/oidc-token-configs"),
  e14("updateOidcTokenConfig", "PATCH", API_PREFIX, "/oidc-token-configs/{configId}"),
  e14("deleteOidcTokenConfig", "DELETE", API_PREFIX, "/oidc-token-configs/{configId}"),
  e14("getUserAttribute", "GET", API_PREFIX, "/user-attributes/{attributeId}"),
  e14("updateUserAttribute", "PUT", API_PREFIX, "/user-attributes/{attributeId}"),
] as const satisfies readonly Operation[];

/** Every operation the suite calls, E1-E13 first. */
export const OPERATIONS: readonly Operation[] = [...SPECIFIED_OPERATIONS, ...E14_OPERATIONS, ...FACT_OPERATIONS, ...FAMILY_OPERATIONS];

export type SpecifiedName = (typeof SPECIFIED_OPERATIONS)[number]["name"];
type NameOf<T extends readonly Operation[]> = T[number]["name"];
export type OperationName = SpecifiedName | NameOf<typeof E14_OPERATIONS> | NameOf<typeof FACT_OPERATIONS> | NameOf<typeof FAMILY_OPERATIONS>;

/** The table by name: every request the checks send names its operation. */
const BY_NAME = new Map(OPERATIONS.map((o) => [o.name, o]));

/** The operation of this name (names are unique: test/spec-operations.test.ts). */
export function operation(name: OperationName): Operation {
  return BY_NAME.get(name)!;
}

/**
 * The row that reads the record a write changes: its `readBy` (E6's settings), else the GET of its
 * own path (the env-vars list a PUT env-vars sets). Found once a row: the door asks it of every write.
 */
export function readerOf(write: Operation): Operation | undefined {
  if (!READERS.has(write))
    READERS.set(
      write,
      write.readBy
        ? operation(write.readBy as OperationName)
        : OPERATIONS.find((o) => o.method === "GET" && operationKey("GET", o.path) === operationKey("GET", write.path)),
    );
  return READERS.get(write);
}
const READERS = new Map<Operation, Operation | undefined>();

/** The E1-E13 operation of a section. */
export function specified(section: SpecSection): SpecifiedOperation {
  return SPECIFIED_OPERATIONS.find((o) => o.section === section)!;
}

// The vocabulary the spec fixes, where more than one module needs it.

/** Resources / Environment variable: a name holding one of these (as written, upper case) has its value masked. */
export const SECRET_MARKERS = ["PASS", "SECRET", "TOKEN", "KEY", "CREDENTIAL"] as const;
/** What a masked value reads. */
export const MASK = "[ENCRYPTED]";
/** E11 rule 5 / Errors 2: the code of the 409 a concurrent change of the slug's holder answers. */
export const UPSERT_CONFLICT_CODE = "upsert_branch_changed";

/** Limits, as the spec's table states them. */
export const LIMITS = {
  /** Items per bulk move (E12). */
  bulkMoveItems: 100,
  /** A dashboard app source's `entry`, in characters. */
  appEntryLength: 255,
  /** E3 `expires_in` when omitted, in seconds. */
  tokenLifetimeSeconds: 86_400,
  /** Cursor lists: the least `first`. */
  firstMinimum: 1,
  /** Offset lists: `limit` when omitted. */
  defaultLimit: 20,
} as const;

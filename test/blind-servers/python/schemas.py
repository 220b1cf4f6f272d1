"""Component schemas shared by validation and the OpenAPI document."""
from core import schema, ref, nullable, obj, arr, S, I, N, B, DT, ANYOBJ, PATH_SCHEMAS

PATH_SCHEMAS.update({
    "deploymentId": {"type": "string", "pattern": "^[0-9]+$"},
    "workbookId": {"type": "integer"},
    "reportId": {"type": "integer"},
    "folderId": {"type": "integer"},
})

ERROR = schema("Error", obj({"error": S, "code": S, "statusCode": I}, ["error", "code", "statusCode"], additional=True))

PAGE_INFO = schema("PageInfo", obj({"hasNextPage": B, "hasPreviousPage": B,
                                    "startCursor": nullable(S), "endCursor": nullable(S)},
                                   ["hasNextPage", "hasPreviousPage"]))
PAGINATION = schema("Pagination", obj({"offset": I, "limit": I, "total": I}, ["offset", "limit", "total"]))


def cursor_list_schema(name, item, legacy=True):
    props = {"items": arr(item), "pageInfo": PAGE_INFO}
    req = ["items", "pageInfo"]
    if legacy:
        props["data"] = dict(arr(item), deprecated=True)
        props["count"] = {"type": "integer", "minimum": 0, "deprecated": True}
        req += ["data", "count"]
    return schema(name, obj(props, req))


def data_of(name, inner):
    return schema(name, obj({"data": inner}, ["data"]))


DEPLOYMENT_ITEM = schema("DeploymentListItem", obj({
    "id": S, "name": S, "created_at": DT, "region": S, "cloudProvider": S, "status": S,
    "deploymentUrl": S, "creationStep": S}, ["id", "name", "created_at", "region", "cloudProvider", "status",
                                             "deploymentUrl", "creationStep"]))
DEPLOYMENTS_LIST = schema("DeploymentsListResponse", obj({
    "data": obj({"deployments": arr(DEPLOYMENT_ITEM)}, ["deployments"]), "pagination": PAGINATION},
    ["data", "pagination"]))

DEPLOYMENT = schema("Deployment", obj({
    "id": S, "name": S, "created_at": DT, "updated_at": DT, "status": S, "deploymentUrl": S,
    "cloudProvider": S, "region": S, "releaseChannel": S, "releaseChannelVersion": S,
    "version": S, "releaseChannelVersionHold": B, "image": S, "template": nullable(S),
    "templateVariables": {"type": "object", "additionalProperties": nullable(S)},
    "defaultLaunchpadViewGroup": nullable(S), "launchpadTabs": arr(S),
    "creationMethod": S, "deployMode": S, "creationStep": S, "githubRepository": nullable(S)},
    ["id", "name", "created_at", "updated_at", "status", "cloudProvider", "region", "releaseChannel",
     "releaseChannelVersion", "version", "releaseChannelVersionHold", "image", "templateVariables",
     "creationMethod", "deployMode", "creationStep"]))
DEPLOYMENT_RESP = data_of("DeploymentResponse", DEPLOYMENT)

CRED = schema("ApiCredential", obj({"type": S, "version": I, "database": S, "host": S, "port": I, "url": S},
                                   ["type", "version", "database", "host", "port", "url"]))
ENVIRONMENT = schema("Environment", obj({
    "id": S, "name": S, "type": {"type": "string", "enum": ["production", "staging", "development"]},
    "branch": S, "user": S, "api_credentials": arr(CRED), "createdAt": DT},
    ["id", "name", "type", "branch", "user", "api_credentials", "createdAt"]))
ENV_LIST = schema("EnvironmentsListResponse", obj({
    "items": arr(ENVIRONMENT), "pageInfo": PAGE_INFO, "data": dict(arr(ENVIRONMENT), deprecated=True),
    "pagination": PAGINATION}, ["items", "pageInfo", "data", "pagination"]))

META_TOKEN_REQ = schema("MetaTokenRequest", obj({
    "security_context": {"type": "object", "additionalProperties": True},
    "expires_in": {"type": "number", "exclusiveMinimum": 0, "maximum": 31536000}},
    ["security_context"]))
META_TOKEN_RESP = data_of("MetaTokenResponse", obj({
    "token": S, "created_at": DT, "expires_at": DT, "expires_in": N,
    "security_context": ANYOBJ, "scopes": arr(S)},
    ["token", "created_at", "expires_at", "expires_in", "security_context", "scopes"]))

BRANCH = schema("Branch", obj({
    "id": I, "name": S, "parentBranch": nullable(S), "lastHash": S, "isStagingEnvironmentEnabled": B,
    "kind": {"type": "string", "enum": ["production", "shared", "personal"]}, "owner": nullable(S),
    "createdAt": DT}, ["id", "name", "parentBranch", "lastHash", "isStagingEnvironmentEnabled", "kind",
                       "owner", "createdAt"]))
BRANCH_RESP = data_of("BranchResponse", BRANCH)
STAGING_REQ = schema("StagingEnvironmentRequest", obj({
    "enabled": B, "branchName": {"type": "string", "minLength": 1, "maxLength": 200},
    "branchId": I}, ["enabled"]))

VERSION = schema("DeploymentVersion", obj({
    "releaseChannelVersion": S, "version": S, "releaseChannel": S, "isLatestInChannel": B, "isCurrent": B},
    ["releaseChannelVersion", "version", "releaseChannel", "isLatestInChannel", "isCurrent"]))
VERSIONS_RESP = data_of("DeploymentVersionsResponse", arr(VERSION))

STR_OR_NULL_MAP = {"type": "object", "additionalProperties": nullable({"type": "string", "maxLength": 10000})}
DEPLOYMENT_UPDATE = schema("DeploymentUpdate", obj({
    "name": {"type": "string", "minLength": 1, "maxLength": 200},
    "cloudProvider": {"type": "string", "enum": ["hosted", "aws", "gcp"]},
    "region": {"type": "string", "minLength": 1, "maxLength": 100},
    "releaseChannel": {"type": "string", "minLength": 1, "maxLength": 100},
    "releaseChannelVersion": {"type": "string", "minLength": 1, "maxLength": 200},
    "releaseChannelVersionHold": B,
    "template": nullable({"type": "string", "maxLength": 200}),
    "templateVariables": STR_OR_NULL_MAP,
    "defaultLaunchpadViewGroup": nullable({"type": "string", "maxLength": 200}),
    "launchpadTabs": arr({"type": "string", "maxLength": 200}, maxItems=50),
    "creationMethod": {"type": "string", "enum": ["upload", "hosted", "github", "ssh"]},
    "deployMode": {"type": "string", "enum": ["git", "cli"]}}))

RESOURCE_OWNER = schema("ResourceOwner", obj({"id": I, "email": S, "firstName": nullable(S),
                                              "picture": nullable(S)}, ["id", "email", "firstName", "picture"]))
POSITION = schema("WidgetPosition", obj({"x": I, "y": I, "w": I, "h": I}, ["x", "y", "w", "h"]))
BP_INT = obj({k: nullable(I) for k in ["lg", "md", "sm", "xs", "xxs"]})
BP_POS = obj({k: nullable(POSITION) for k in ["lg", "md", "sm", "xs", "xxs"]})
WIDGET = schema("DashboardWidget", obj({
    "id": {"type": "string", "minLength": 1, "maxLength": 200},
    "type": {"type": "string", "enum": ["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER",
                                        "DIVIDER", "CONTAINER"]},
    "position": POSITION, "responsiveLayouts": nullable(BP_POS),
    "config": nullable(ANYOBJ), "style": nullable(ANYOBJ)}, ["id", "type", "position"]))
LAYOUT = schema("DashboardLayout", obj({
    "breakpoints": nullable(BP_INT), "cols": nullable(BP_INT), "containerPadding": nullable(arr(I)),
    "margin": nullable(arr(I)), "rowHeight": nullable(I)}))
APP_SRC = schema("DashboardAppSource", obj({
    "entry": nullable({"type": "string", "maxLength": 255}),
    "files": nullable({"type": "object", "additionalProperties": S}),
    "html": nullable(S),
    "manifest": nullable(obj({"dependencies": nullable({"type": "object", "additionalProperties": S}),
                              "version": nullable(I)}))}))
DASH_CONFIG = schema("DashboardConfig", obj({
    "kind": nullable({"type": "string", "enum": ["CLASSIC", "APP"]}),
    "title": nullable(S), "description": nullable(S), "widgets": nullable(arr(WIDGET, maxItems=500)),
    "layout": nullable(LAYOUT), "settings": nullable(ANYOBJ), "theme": nullable(ANYOBJ),
    "app": nullable(APP_SRC)}))

SNAPSHOT = schema("ReportSnapshot", obj({
    "id": I, "reportId": I, "versionNumber": I,
    "kind": nullable({"type": "string", "enum": ["vega", "table", "kpi", "html", "map"]}),
    "name": nullable(S), "title": nullable(S), "description": nullable(S), "sqlQuery": nullable(S),
    "pythonCode": nullable(S), "spec": {"type": ["string", "object", "null"]}, "meta": nullable(ANYOBJ),
    "isSourceReport": nullable(B),
    "fillMissingRows": nullable(obj({"member": S, "excludedDimensions": nullable(arr(S))}, ["member"])),
    "periodComparisons": nullable(arr(obj({"measure": S, "timeDimension": S,
                                           "offset": obj({"amount": I, "unit": S}, ["amount", "unit"]),
                                           "outputs": nullable(arr(S))},
                                          ["measure", "timeDimension", "offset"]))),
    "preferences": nullable(obj({"columnFormats": nullable({"type": "object", "additionalProperties": obj({
        "type": {"type": "string", "enum": ["currency", "percent", "number"]},
        "decimalPlaces": nullable(I)}, ["type"])})}))},
    ["id", "reportId", "versionNumber"]))
DASHBOARD = schema("Dashboard", obj({
    "id": I, "publicId": S, "deploymentId": I, "workbookId": I,
    "status": {"type": "string", "enum": ["draft", "published", "archived"]},
    "allowEmbed": B, "config": DASH_CONFIG, "versionNumber": I, "versionId": I,
    "reportSnapshots": arr(SNAPSHOT), "createdBy": nullable(I), "title": nullable(S),
    "description": nullable(S), "fromSharedWorkspace": nullable(B), "restrictDataDownload": nullable(B),
    "useBoardDashboards": nullable(B)},
    ["id", "publicId", "deploymentId", "workbookId", "status", "allowEmbed", "config", "versionNumber",
     "versionId", "reportSnapshots", "createdBy", "title", "description", "fromSharedWorkspace",
     "restrictDataDownload", "useBoardDashboards"]))

WORKBOOK = schema("Workbook", obj({
    "id": I, "deploymentId": I, "name": S, "type": {"type": "string", "enum": ["FOLDER", "WORKBOOK", "REPORT"]},
    "meta": ANYOBJ, "calculatedFields": ANYOBJ,
    "createdAt": {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}],
                  "description": "date (YYYY-MM-DD) for imported items, else date-time"},
    "updatedAt": DT, "createdBy": I, "userId": nullable(N), "user": nullable(RESOURCE_OWNER),
    "folderId": nullable(N), "folderPath": arr(obj({"id": I, "name": S}, ["id", "name"])),
    "isFavorite": nullable(B), "slug": nullable(S), "dashboardDraft": nullable(DASH_CONFIG),
    "dashboardPublished": nullable(DASH_CONFIG), "publishedDashboard": nullable(DASHBOARD),
    "workbookId": nullable(I), "archived": B},
    ["id", "deploymentId", "name", "type", "meta", "calculatedFields", "createdAt", "updatedAt", "createdBy",
     "userId", "user", "folderId", "folderPath", "isFavorite", "slug", "dashboardDraft", "dashboardPublished",
     "publishedDashboard", "workbookId", "archived"]))
WORKBOOKS_LIST = schema("WorkbooksListResponse", obj({
    "items": arr(WORKBOOK), "data": dict(arr(WORKBOOK), deprecated=True),
    "count": dict(nullable({"type": "integer", "minimum": 0}), deprecated=True), "pageInfo": nullable(PAGE_INFO)},
    ["items", "data", "count", "pageInfo"]))
DUP_REQ = schema("DuplicateWorkbookRequest", obj({"shared": B}))
UPSERT_REQ = schema("UpsertWorkbookRequest", obj({
    "name": {"type": "string", "minLength": 1, "maxLength": 255},
    "folderId": nullable(I),
    "meta": obj({"dashboardDraft": nullable(DASH_CONFIG)}, additional=True)}))

ITEM_REF = schema("WorkspaceItemRef", obj({"type": {"type": "string", "enum": ["WORKBOOK", "REPORT", "FOLDER"]},
                                           "id": I}, ["type", "id"]))
ITEM_ERR = schema("ItemError", obj({"message": S, "status": I}, ["message", "status"]))
FAILED_ITEM = schema("FailedWorkspaceItem", obj({"type": S, "id": I, "error": ITEM_ERR}, ["type", "id", "error"]))
BULK_MOVE_REQ = schema("BulkMoveRequest", obj({"items": arr(ITEM_REF, minItems=1, maxItems=1000),
                                               "folderId": nullable(I)}, ["items", "folderId"]))
BULK_MOVE_RESP = schema("BulkMoveResponse", obj({"moved": arr(WORKBOOK), "failed": arr(FAILED_ITEM)},
                                                ["moved", "failed"]))
BULK_DELETE_REQ = schema("BulkDeleteRequest", obj({"items": arr(ITEM_REF, minItems=1, maxItems=1000)}, ["items"]))
BULK_DELETE_RESP = schema("BulkDeleteResponse", obj({"deleted": arr(ITEM_REF), "failed": arr(FAILED_ITEM)},
                                                    ["deleted", "failed"]))

ENV_VAR = schema("EnvironmentVariable", obj({"name": S, "value": S}, ["name", "value"]))
ENV_VARS_LIST = schema("EnvVarsListResponse", obj({
    "items": arr(ENV_VAR), "data": dict(arr(ENV_VAR), deprecated=True), "pageInfo": PAGE_INFO},
    ["items", "data", "pageInfo"]))
ENV_VARS_PUT = schema("SetEnvVarsRequest", obj({"env_variables": arr(obj({
    "name": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
    "value": {"type": "string", "maxLength": 65536}}, ["name", "value"]), maxItems=200)}, ["env_variables"]))

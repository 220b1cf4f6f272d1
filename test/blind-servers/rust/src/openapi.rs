use crate::json::{self, Json};
use crate::obj;

pub struct Op { pub m: &'static str, pub p: &'static str, pub id: &'static str, pub req: &'static str, pub resp: &'static str, pub status: u16, pub q: &'static str, pub sum: &'static str }
const fn op(m: &'static str, p: &'static str, id: &'static str, req: &'static str, resp: &'static str, status: u16, q: &'static str, sum: &'static str) -> Op { Op { m, p, id, req, resp, status, q, sum } }

const D: &str = "/api/v1/deployments/{deploymentId}";
const CUR: &str = "first:int1,after:str";

pub static OPS: &[Op] = &[
    op("GET", "/api/v1/spec", "getSpec", "", "OpenApiDocument", 200, "", "The OpenAPI 3.1 document of this service"),
    op("GET", "/api/v1/app-config", "getAppConfig", "", "AppConfig", 200, "", "App configuration"),
    op("GET", "/api/v1/regions/", "listRegions", "", "List:Region", 200, CUR, "Regions available to the tenant"),
    op("GET", "/api/v1/audit-logs/export", "exportAuditLogs", "", "csv", 200, "start:str,end:str,search:str,eventName:str,userEmail:str", "Export audit log events as CSV"),
    op("GET", "/api/v1/deployments", "listDeployments", "", "DeploymentList", 200, "offset:int0,limit:int1", "List deployments (E1)"),
    op("GET", "/api/v1/deployments/{deploymentId}", "getDeployment", "", "DeploymentDetail", 200, "", "Get a deployment"),
    op("PUT", "/api/v1/deployments/{deploymentId}", "updateDeployment", "DeploymentUpdate", "DeploymentUpdateResponse", 200, "", "Update deployment settings (E6)"),
    op("DELETE", "/api/v1/deployments/{deploymentId}", "deleteDeployment", "", "Deleted", 200, "", "Delete a deployment"),
    op("GET", "/api/v1/deployments/{deploymentId}/environments", "listEnvironments", "", "EnvironmentList", 200, "type:enum:production|staging|development,offset:int0,limit:int0,first:int1,after:str", "List environments (E2)"),
    op("POST", "/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync", "createMetaToken", "MetaTokenRequest", "MetaTokenResponse", 200, "", "Create a metadata-only token (E3)"),
    op("PUT", "/build/api/v1/deployments/{deploymentId}/branches/staging-environment", "setStagingEnvironment", "StagingRequest", "BranchResponse", 200, "", "Enable/disable a branch's always-on staging environment (E4)"),
    op("GET", "/api/v1/deployments/{deploymentId}/versions", "listVersions", "", "VersionList", 200, "", "List deployment versions (E5)"),
    op("GET", "/api/v1/deployments/{deploymentId}/settings", "getDeploymentSettings", "", "DeploymentSettings", 200, "", "All deployment settings, secrets excluded"),
    op("GET", "/api/v1/deployments/{deploymentId}/env-vars", "listEnvVars", "", "EnvVarList", 200, CUR, "List environment variables (E13)"),
    op("PUT", "/api/v1/deployments/{deploymentId}/env-vars", "setEnvVars", "EnvVarPut", "EnvVarList", 200, "", "Set environment variables"),
    op("GET", "/api/v1/deployments/{deploymentId}/build-status", "getBuildStatus", "", "BuildStatus", 200, "branchName:str", "Build/deploy state of a branch"),
    op("GET", "/api/v1/deployments/{deploymentId}/logs", "getLogs", "", "List:LogEntry", 200, "source:enum:production|dev,container:enum:INIT|MAIN|vector|api-proxy|cube,first:int1,after:str", "Container logs"),
    op("GET", "/api/v1/deployments/{deploymentId}/pods", "listPods", "", "List:Pod", 200, CUR, "Pods"),
    op("POST", "/api/v1/deployments/{deploymentId}/creation-step/advance", "advanceCreationStep", "", "CreationStep", 200, "", "Advance the setup wizard"),
    op("POST", "/api/v1/deployments/{deploymentId}/creation-step/reset", "resetCreationStep", "", "CreationStep", 200, "", "Reset the setup wizard"),
    op("GET", "/api/v1/deployments/{deploymentId}/workbooks", "listWorkbooks", "", "WorkbooksListResponse", 200, "folderId:int0null,first:int1,after:str", "List workbooks (E8)"),
    op("POST", "/api/v1/deployments/{deploymentId}/workbooks", "createWorkbook", "WorkbookCreate", "Workbook", 201, "", "Create a workbook"),
    op("PUT", "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}", "upsertWorkbookBySlug", "UpsertRequest", "Workbook", 200, "", "Create or update a workbook by slug (E11)"),
    op("GET", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", "getWorkbook", "", "Workbook", 200, "", "Get a workbook (E9)"),
    op("POST", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate", "duplicateWorkbook", "CloneRequest?", "Workbook", 200, "", "Clone a workbook (E10)"),
    op("GET", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access", "getEmbedAccess", "", "EmbedAccess", 200, "", "Read dashboard embed access"),
    op("PUT", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access", "setEmbedAccess", "EmbedAccessUpdate", "EmbedAccess", 200, "", "Change dashboard embed access"),
    op("POST", "/api/v1/deployments/{deploymentId}/workspace/bulk-move", "bulkMove", "BulkMoveRequest", "BulkMoveResponse", 200, "", "Move workspace items in bulk (E12)"),
    op("POST", "/api/v1/deployments/{deploymentId}/workspace/bulk-delete", "bulkDelete", "BulkDeleteRequest", "BulkDeleteResponse", 200, "", "Delete workspace items in bulk"),
    op("GET", "/api/v1/deployments/{deploymentId}/folders", "listFolders", "", "List:Folder", 200, "parentId:int0null,first:int1,after:str", "List folders (one level)"),
    op("POST", "/api/v1/deployments/{deploymentId}/folders", "createFolder", "FolderCreate", "Folder", 201, "", "Create a folder"),
    op("DELETE", "/api/v1/deployments/{deploymentId}/folders/{folderId}", "deleteFolder", "", "Deleted", 200, "", "Delete a folder"),
    op("GET", "/api/v1/deployments/{deploymentId}/reports", "listReports", "", "List:Report", 200, "folderId:int0null,externalWorkbookId:str,search:str,sortBy:enum:createdAt|updatedAt|lastViewedAt|name,first:int1,after:str", "List reports"),
    op("PUT", "/api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}", "upsertReportByPublicId", "ReportUpsert", "Report", 200, "", "Create (201) or update (200) a report by public id"),
    op("PUT", "/api/v1/deployments/{deploymentId}/reports/{reportId}/connect-workbook", "connectWorkbook", "PlacementAddress", "PlacementResult", 200, "", "Place a report in a spreadsheet (201 when a new placement is created)"),
    op("DELETE", "/api/v1/deployments/{deploymentId}/reports/{reportId}/connect-workbook", "disconnectWorkbook", "PlacementAddress", "PlacementRemoved", 200, "", "Remove a spreadsheet placement"),
    op("PUT", "/api/v1/deployments/{deploymentId}/reports/{reportId}/refresh", "refreshReport", "PlacementAddress", "PlacementResult", 200, "", "Refresh a placement"),
    op("GET", "/api/v1/deployments/{deploymentId}/notifications", "notifications", "", "List:Notification", 200, "search:str,first:int1,after:str", "List scheduled notifications"),
    op("POST", "/api/v1/deployments/{deploymentId}/notifications", "notifications", "NotificationInput", "Notification", 201, "", "Create a scheduled notification"),
    op("GET", "/api/v1/deployments/{deploymentId}/notifications/{notificationId}", "notifications", "", "Notification", 200, "", "Get a notification"),
    op("PUT", "/api/v1/deployments/{deploymentId}/notifications/{notificationId}", "notifications", "NotificationInput", "Notification", 200, "", "Update a notification (partial)"),
    op("DELETE", "/api/v1/deployments/{deploymentId}/notifications/{notificationId}", "notifications", "", "Deleted", 200, "", "Delete a notification"),
    op("POST", "/api/v1/deployments/{deploymentId}/dbt-sync", "startDbtSync", "DbtSyncRequest?", "DbtJob", 202, "", "Start a dbt sync"),
    op("GET", "/api/v1/deployments/{deploymentId}/dbt-sync", "listDbtSyncs", "", "List:DbtJob", 200, "status:enum:queued|running|succeeded|failed|cancelled,trigger:enum:api|schedule|manual,first:int1,after:str", "dbt sync run history"),
    op("GET", "/api/v1/deployments/{deploymentId}/dbt-sync/{syncJobId}", "getDbtSync", "", "DbtJob", 200, "", "Poll a dbt sync"),
    op("DELETE", "/api/v1/deployments/{deploymentId}/dbt-sync/{syncJobId}", "cancelDbtSync", "", "DbtJob", 200, "", "Cancel a dbt sync"),
    op("GET", "/api/v1/deployments/{deploymentId}/dbt-sync/{syncJobId}/result", "getDbtSyncResult", "", "DbtResult", 200, "", "dbt sync result"),
    op("GET", "/api/v1/deployments/{deploymentId}/dbt-sync/{syncJobId}/logs", "getDbtSyncLogs", "", "List:LogEntry", 200, CUR, "dbt sync log entries"),
    op("POST", "/build/api/v1/deployments/", "createDeployment", "DeploymentCreate", "DeploymentDetail", 201, "", "Create a deployment"),
    op("GET", "/build/api/v1/deployments/{deploymentId}/data-model/files", "listFiles", "", "List:DataModelFile", 200, "branchName:str,first:int1,after:str", "List data-model files"),
    op("PUT", "/build/api/v1/deployments/{deploymentId}/data-model/files", "writeFiles", "FilesWrite", "FilesWriteResult", 200, "", "Write data-model files (dev-mode branches only)"),
    op("DELETE", "/build/api/v1/deployments/{deploymentId}/data-model/files", "deleteFiles", "FilesDelete?", "FilesDeleteResult", 200, "branchName:str,path:str", "Remove data-model files (dev-mode branches only)"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/data-model/files/rename", "renameFiles", "FilesRename", "FilesRenameResult", 200, "", "Rename data-model files"),
    op("GET", "/build/api/v1/deployments/{deploymentId}/data-model/validate", "validateDataModel", "", "ValidationResult", 200, "branchName:str", "Compile a branch"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/data-model/upload/start", "uploadStart", "UploadStart?", "UploadStarted", 201, "", "Start a chunked upload"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/data-model/upload/file", "uploadFile", "UploadFile", "UploadFileResult", 200, "", "Upload a file chunk"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/data-model/upload/finish", "uploadFinish", "UploadFinish", "UploadFinished", 200, "", "Finish an upload"),
    op("GET", "/build/api/v1/deployments/{deploymentId}/data-model/file-hashes", "fileHashes", "", "List:FileHash", 200, "branchName:str,first:int1,after:str", "File hashes"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/dev-mode", "startDevMode", "DevModeRequest?", "Branch", 200, "", "Start dev mode"),
    op("DELETE", "/build/api/v1/deployments/{deploymentId}/dev-mode", "stopDevMode", "", "DevModeStopped", 200, "branchName:str", "Stop dev mode"),
    op("GET", "/build/api/v1/deployments/{deploymentId}/branches", "listBranches", "", "List:Branch", 200, CUR, "List branches"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/branches", "createBranch", "BranchCreate", "Branch", 201, "", "Create a branch"),
    op("DELETE", "/build/api/v1/deployments/{deploymentId}/branches", "deleteBranch", "", "BranchDeleted", 200, "branchName:str,removeOnUpstream:bool", "Delete a branch (children re-parented)"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/commit", "commit", "CommitRequest", "GitResult", 200, "", "Commit a branch"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/pull", "pull", "BranchRef", "GitResult", 200, "", "Pull a branch"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/merge", "merge", "MergeRequest", "GitResult", 200, "", "Merge a branch (default target: its parent)"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/merge-to-default", "mergeToDefault", "BranchRef", "GitResult", 200, "", "Merge a branch into main"),
    op("POST", "/build/api/v1/deployments/{deploymentId}/github/connect", "githubConnect", "GithubConnect", "GithubConnected", 200, "", "Connect to a repository"),
    op("PATCH", "/api/v1/embed/dashboard/{publicId}", "patchEmbedDashboard", "EmbedDashboardPatch", "Dashboard", 200, "", "Enable/disable signed embedding"),
    op("POST", "/api/v1/embed/dashboard/{publicId}/python-run", "embedPythonRun", "PythonRunRequest", "PythonRunResult", 200, "", "Run a Python report with dashboard filters"),
    op("GET", "/api/v1/embed-tenants", "embedTenants", "", "List:EmbedTenant", 200, "search:str,first:int1,after:str", "List embed tenants"),
    op("POST", "/api/v1/embed-tenants", "embedTenants", "EmbedTenantInput", "EmbedTenant", 201, "", "Create an embed tenant"),
    op("GET", "/api/v1/embed-tenants/{tenantId}", "embedTenants", "", "EmbedTenant", 200, "", "Get an embed tenant"),
    op("PATCH", "/api/v1/embed-tenants/{tenantId}", "embedTenants", "EmbedTenantInput", "EmbedTenant", 200, "", "Update an embed tenant"),
    op("DELETE", "/api/v1/embed-tenants/{tenantId}", "embedTenants", "", "Deleted", 200, "", "Delete an embed tenant"),
    op("GET", "/api/v1/embed-tenants/{tenantId}/users", "embedUsers", "", "List:EmbedUser", 200, "search:str,first:int1,after:str", "List embed users"),
    op("POST", "/api/v1/embed-tenants/{tenantId}/users", "embedUsers", "EmbedUserInput", "EmbedUser", 201, "", "Create an embed user"),
    op("GET", "/api/v1/embed-tenants/{tenantId}/users/{embedUserId}", "embedUsers", "", "EmbedUser", 200, "", "Get an embed user"),
    op("PATCH", "/api/v1/embed-tenants/{tenantId}/users/{embedUserId}", "embedUsers", "EmbedUserInput", "EmbedUser", 200, "", "Update an embed user"),
    op("DELETE", "/api/v1/embed-tenants/{tenantId}/users/{embedUserId}", "embedUsers", "", "Deleted", 200, "", "Delete an embed user"),
    op("GET", "/api/v1/embed-tenants/{tenantId}/groups", "embedGroups", "", "List:EmbedGroup", 200, "search:str,first:int1,after:str", "List embed groups"),
    op("POST", "/api/v1/embed-tenants/{tenantId}/groups", "embedGroups", "EmbedGroupInput", "EmbedGroup", 201, "", "Create an embed group"),
    op("GET", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}", "embedGroups", "", "EmbedGroup", 200, "", "Get an embed group"),
    op("PATCH", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}", "embedGroups", "EmbedGroupInput", "EmbedGroup", 200, "", "Update an embed group"),
    op("DELETE", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}", "embedGroups", "", "Deleted", 200, "", "Delete an embed group"),
    op("GET", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members", "embedMembers", "", "List:GroupMember", 200, CUR, "List group members"),
    op("POST", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members", "embedMembers", "GroupMemberInput", "GroupMember", 201, "", "Add a group member"),
    op("DELETE", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members/{embedUserId}", "embedMembers", "", "Deleted", 200, "", "Remove a group member"),
    op("GET", "/api/v1/users", "usersCollection", "", "List:User", 200, "search:str,first:int1,after:str", "List users"),
    op("POST", "/api/v1/users", "usersCollection", "UserCreate", "User", 201, "", "Create (invite) a user"),
    op("POST", "/api/v1/users/bulk", "usersBulk", "UsersBulkRequest", "UsersBulkResult", 200, "", "Bulk activate/deactivate/delete users"),
    op("GET", "/api/v1/users/{userId}", "userItem", "", "User", 200, "", "Get a user"),
    op("PUT", "/api/v1/users/{userId}", "userItem", "UserUpdate", "User", 200, "", "Update a user (partial)"),
    op("GET", "/api/v1/user-attributes/", "userAttributes", "", "List:UserAttribute", 200, "search:str,first:int1,after:str", "List user attributes"),
    op("POST", "/api/v1/user-attributes/", "userAttributes", "UserAttributeInput", "UserAttribute", 201, "", "Create a user attribute"),
    op("GET", "/api/v1/user-attributes/{attributeId}", "userAttributes", "", "UserAttribute", 200, "", "Get a user attribute"),
    op("PUT", "/api/v1/user-attributes/{attributeId}", "userAttributes", "UserAttributeInput", "UserAttribute", 200, "", "Update a user attribute"),
    op("DELETE", "/api/v1/user-attributes/{attributeId}", "userAttributes", "", "Deleted", 200, "", "Delete a user attribute"),
    op("GET", "/api/v1/user-attribute-values/{userId}", "userAttributeValues", "", "AttributeValues", 200, "", "Attribute values of a user"),
    op("PUT", "/api/v1/user-attribute-values/{userId}", "userAttributeValues", "AttributeValuesPut", "AttributeValues", 200, "", "Set attribute values of a user"),
    op("GET", "/api/v1/tenant/settings", "tenantSettings", "", "TenantSettings", 200, "", "Tenant settings"),
    op("PUT", "/api/v1/tenant/settings", "tenantSettings", "TenantSettingsUpdate", "TenantSettings", 200, "", "Update tenant settings (partial)"),
    op("GET", "/api/v1/groups", "groups", "", "List:Group", 200, "search:str,first:int1,after:str", "List groups"),
    op("POST", "/api/v1/groups", "groups", "GroupInput", "Group", 201, "", "Create a group"),
    op("GET", "/api/v1/groups/{groupId}", "groups", "", "Group", 200, "", "Get a group"),
    op("PUT", "/api/v1/groups/{groupId}", "groups", "GroupInput", "Group", 200, "", "Update a group"),
    op("DELETE", "/api/v1/groups/{groupId}", "groups", "", "Deleted", 200, "", "Delete a group"),
    op("GET", "/api/v1/policies", "policies", "", "List:Policy", 200, CUR, "List policies"),
    op("POST", "/api/v1/policies", "policies", "PolicyInput", "Policy", 201, "", "Create a policy"),
    op("GET", "/api/v1/policies/{policyId}", "policies", "", "Policy", 200, "", "Get a policy"),
    op("PUT", "/api/v1/policies/{policyId}", "policies", "PolicyInput", "Policy", 200, "", "Update a policy"),
    op("DELETE", "/api/v1/policies/{policyId}", "policies", "", "Deleted", 200, "", "Delete a policy"),
    op("GET", "/api/v1/oauth-integrations", "oauthIntegrations", "", "List:OAuthIntegration", 200, "search:str,first:int1,after:str", "List OAuth integrations"),
    op("POST", "/api/v1/oauth-integrations", "oauthIntegrations", "OAuthIntegrationInput", "OAuthIntegration", 201, "", "Create an OAuth integration"),
    op("GET", "/api/v1/oauth-integrations/{integrationId}", "oauthIntegrations", "", "OAuthIntegration", 200, "", "Get an OAuth integration"),
    op("PUT", "/api/v1/oauth-integrations/{integrationId}", "oauthIntegrations", "OAuthIntegrationInput", "OAuthIntegration", 200, "", "Update an OAuth integration"),
    op("DELETE", "/api/v1/oauth-integrations/{integrationId}", "oauthIntegrations", "", "Deleted", 200, "", "Delete an OAuth integration"),
    op("GET", "/api/v1/user-oauth-tokens", "userOauthTokens", "", "List:UserOAuthToken", 200, CUR, "List user OAuth tokens"),
    op("POST", "/api/v1/user-oauth-tokens", "userOauthTokens", "UserOAuthTokenInput", "UserOAuthToken", 201, "", "Store a user OAuth token"),
    op("GET", "/api/v1/user-oauth-tokens/{tokenId}", "userOauthTokens", "", "UserOAuthToken", 200, "", "Get a user OAuth token"),
    op("PUT", "/api/v1/user-oauth-tokens/{tokenId}", "userOauthTokens", "UserOAuthTokenInput", "UserOAuthToken", 200, "", "Update a user OAuth token"),
    op("DELETE", "/api/v1/user-oauth-tokens/{tokenId}", "userOauthTokens", "", "Deleted", 200, "", "Delete a user OAuth token"),
    op("GET", "/api/v1/oidc-token-configs", "oidcTokenConfigs", "", "List:OidcTokenConfig", 200, "search:str,first:int1,after:str", "List OIDC token configs"),
    op("POST", "/api/v1/oidc-token-configs", "oidcTokenConfigs", "OidcTokenConfigInput", "OidcTokenConfig", 201, "", "Create an OIDC token config"),
    op("GET", "/api/v1/oidc-token-configs/{configId}", "oidcTokenConfigs", "", "OidcTokenConfig", 200, "", "Get an OIDC token config"),
    op("PUT", "/api/v1/oidc-token-configs/{configId}", "oidcTokenConfigs", "OidcTokenConfigInput", "OidcTokenConfig", 200, "", "Update an OIDC token config"),
    op("DELETE", "/api/v1/oidc-token-configs/{configId}", "oidcTokenConfigs", "", "Deleted", 200, "", "Delete an OIDC token config"),
    op("GET", "/api/v1/github/status", "githubStatus", "", "GithubStatus", 200, "", "GitHub app status"),
    op("GET", "/api/v1/github/installations", "githubInstallations", "", "List:GithubInstallation", 200, CUR, "GitHub installations"),
    op("GET", "/api/v1/github/installations/{installationId}/repositories", "githubRepositories", "", "List:GithubRepository", 200, CUR, "Repositories of an installation"),
    op("GET", "/api/v1/github/repositories/{owner}/{repo}/branches", "githubBranches", "", "List:GithubBranch", 200, CUR, "Branches of a repository"),
];

const SCHEMAS: &str = r##"{
"Error": {"type":"object","required":["error"],"properties":{"error":{"type":"string"},"statusCode":{"type":"integer"},"code":{"type":"string"}}},
"Deleted": {"type":"object","required":["deleted"],"properties":{"id":{},"deleted":{"type":"boolean"}}},
"PageInfo": {"type":"object","required":["hasNextPage","hasPreviousPage"],"properties":{"hasNextPage":{"type":"boolean"},"hasPreviousPage":{"type":"boolean"},"startCursor":{"type":["string","null"]},"endCursor":{"type":["string","null"]}}},
"Pagination": {"type":"object","required":["offset","limit","total"],"properties":{"offset":{"type":"integer"},"limit":{"type":"integer"},"total":{"type":"integer"}}},
"OpenApiDocument": {"type":"object","required":["openapi","info","paths"],"additionalProperties":true},
"AppConfig": {"type":"object","required":["appTheme","applyThemeGlobally","creatorMode","embedding","sheetsUi","timezoneSettings"],"properties":{"appTheme":{"type":"object"},"applyThemeGlobally":{"type":"boolean"},"creatorMode":{"type":"boolean"},"embedding":{"type":"object"},"sheetsUi":{"type":"object"},"timezoneSettings":{"type":"object"}}},
"Region": {"type":"object","properties":{"id":{"type":"string"},"cloudProvider":{"type":"string"},"region":{"type":"string"},"name":{"type":"string"},"available":{"type":"boolean"}}},
"Deployment": {"type":"object","required":["id","name","created_at"],"properties":{"id":{"type":"string"},"name":{"type":"string"},"created_at":{"type":"string","format":"date-time"},"cloudProvider":{"type":"string"},"region":{"type":"string"},"deploymentUrl":{"type":"string"}}},
"DeploymentDetail": {"allOf":[{"$ref":"#/components/schemas/Deployment"},{"type":"object","properties":{"releaseChannel":{"type":"string"},"releaseChannelVersion":{"type":"string"},"releaseChannelVersionHold":{"type":"boolean"},"image":{"type":"string"},"template":{"type":"string"},"templateVariables":{"type":"object"},"defaultLaunchpadViewGroup":{"type":["string","null"]},"launchpadTabs":{"type":"array"},"creationMethod":{"type":"string","enum":["upload","cloud","github","ssh"]},"deployMode":{"type":"string","enum":["git","cli"]},"creationStep":{"type":"string"},"updated_at":{"type":"string"}}}]},
"DeploymentList": {"type":"object","required":["data","pagination"],"properties":{"data":{"type":"object","required":["deployments"],"properties":{"deployments":{"type":"array","items":{"$ref":"#/components/schemas/Deployment"}}}},"pagination":{"$ref":"#/components/schemas/Pagination"}}},
"DeploymentUpdate": {"type":"object","properties":{"cloudProvider":{"type":"string","enum":["cloud","aws","gcp"]},"region":{"type":"string"},"releaseChannel":{"type":"string"},"releaseChannelVersion":{"type":"string","description":"1.7.20, v1.7.20 or cubejs/cube:v1.7.20"},"releaseChannelVersionHold":{"type":"boolean"},"template":{"type":"string"},"templateVariables":{"type":"object"},"defaultLaunchpadViewGroup":{"type":["string","null"]},"launchpadTabs":{"type":"array"},"creationMethod":{"type":"string","enum":["upload","cloud","github","ssh"]},"deployMode":{"type":"string","enum":["git","cli"]}}},
"DeploymentUpdateResponse": {"type":"object","required":["deployment"],"properties":{"deployment":{"$ref":"#/components/schemas/DeploymentDetail"}}},
"DeploymentCreate": {"type":"object","required":["name"],"properties":{"name":{"type":"string"},"cloudProvider":{"type":"string","enum":["cloud","aws","gcp"]},"region":{"type":"string"},"creationMethod":{"type":"string","enum":["upload","cloud","github","ssh"]},"deployMode":{"type":"string","enum":["git","cli"]}}},
"DeploymentSettings": {"allOf":[{"$ref":"#/components/schemas/DeploymentDetail"},{"type":"object","properties":{"environmentVariables":{"type":"array","items":{"$ref":"#/components/schemas/EnvVar"}},"secretEnvironmentVariableCount":{"type":"integer"},"sqlApi":{"type":"object"},"github":{"type":["object","null"]},"workbookLimit":{"type":["integer","null"]}}}]},
"ApiCredential": {"type":"object","properties":{"type":{"type":"string"},"version":{"type":"integer"},"database":{"type":["string","null"]},"host":{"type":["string","null"]},"port":{"type":["integer","null"]},"url":{"type":["string","null"]}}},
"Environment": {"type":"object","required":["id","type"],"properties":{"id":{"type":"string"},"name":{"type":"string"},"type":{"type":"string","enum":["production","staging","development"]},"branch":{"type":["string","null"]},"user":{"type":["string","null"]},"api_credentials":{"oneOf":[{"type":"array","items":{"$ref":"#/components/schemas/ApiCredential"}},{"type":"object","additionalProperties":true}]}}},
"EnvironmentList": {"type":"object","required":["items","pageInfo","data"],"properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/Environment"}},"pageInfo":{"$ref":"#/components/schemas/PageInfo"},"data":{"type":"array","deprecated":true,"items":{"$ref":"#/components/schemas/Environment"}},"pagination":{"oneOf":[{"$ref":"#/components/schemas/Pagination"},{"type":"null"}],"deprecated":true}}},
"MetaTokenRequest": {"type":"object","required":["security_context"],"properties":{"security_context":{"type":"object","additionalProperties":true},"expires_in":{"type":"number","exclusiveMinimum":0,"maximum":7776000,"default":86400}}},
"MetaTokenResponse": {"type":"object","required":["data"],"properties":{"data":{"type":"object","required":["token","created_at","expires_at"],"properties":{"token":{"type":"string"},"created_at":{"type":"string","format":"date-time"},"expires_at":{"type":"string","format":"date-time"},"security_context":{"type":"object"},"scopes":{"type":"array","items":{"type":"string"}}}}}},
"StagingRequest": {"type":"object","required":["enabled"],"properties":{"enabled":{"type":"boolean"},"branchName":{"type":"string"},"branchId":{"type":"integer"}}},
"Branch": {"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"},"parentBranch":{"type":["string","null"]},"lastHash":{"type":["string","null"]},"isStagingEnvironmentEnabled":{"type":"boolean"},"kind":{"type":"string","enum":["production","shared","personal"]},"devMode":{"type":"boolean"},"createdAt":{"type":"string"}}},
"BranchResponse": {"type":"object","required":["data"],"properties":{"data":{"$ref":"#/components/schemas/Branch"}}},
"BranchCreate": {"type":"object","required":["name"],"properties":{"name":{"type":"string"},"from":{"type":"string"},"activate":{"type":"boolean"}}},
"BranchDeleted": {"type":"object","properties":{"deleted":{"type":"string"},"removedOnUpstream":{"type":"boolean"},"reparented":{"type":"array","items":{"type":"string"}},"newParent":{"type":["string","null"]}}},
"BranchRef": {"type":"object","required":["branchName"],"properties":{"branchName":{"type":"string"}}},
"CommitRequest": {"type":"object","required":["branchName"],"properties":{"branchName":{"type":"string"},"message":{"type":"string"}}},
"MergeRequest": {"type":"object","required":["branchName"],"properties":{"branchName":{"type":"string"},"intoBranch":{"type":"string"}}},
"GitResult": {"type":"object","additionalProperties":true,"properties":{"branch":{"$ref":"#/components/schemas/Branch"},"commitHash":{"type":"string"},"source":{"type":"string"},"target":{"type":"string"},"mergeCommit":{"type":"string"},"updated":{"type":"boolean"}}},
"GithubConnect": {"type":"object","required":["repository"],"properties":{"repository":{"type":"string"},"branch":{"type":"string"},"installationId":{"type":"integer"}}},
"GithubConnected": {"type":"object","properties":{"deploymentId":{"type":"string"},"connected":{"type":"boolean"},"github":{"type":"object"}}},
"DevModeRequest": {"type":"object","properties":{"branchName":{"type":"string"}}},
"DevModeStopped": {"type":"object","properties":{"stopped":{"type":"array","items":{"type":"string"}},"devMode":{"type":"boolean"}}},
"VersionEntry": {"type":"object","required":["releaseChannelVersion","version","releaseChannel","isLatestInChannel","isCurrent"],"properties":{"releaseChannelVersion":{"type":"string"},"version":{"type":"string"},"releaseChannel":{"type":"string"},"isLatestInChannel":{"type":"boolean"},"isCurrent":{"type":"boolean"}}},
"VersionList": {"type":"object","required":["data"],"properties":{"data":{"type":"array","items":{"$ref":"#/components/schemas/VersionEntry"}}}},
"EnvVar": {"type":"object","required":["name","value"],"properties":{"name":{"type":"string"},"value":{"type":"string"}}},
"EnvVarList": {"type":"object","required":["items","data","pageInfo"],"properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/EnvVar"}},"data":{"type":"array","deprecated":true,"items":{"$ref":"#/components/schemas/EnvVar"}},"pageInfo":{"$ref":"#/components/schemas/PageInfo"},"count":{"type":"integer","deprecated":true},"pagination":{"$ref":"#/components/schemas/Pagination","deprecated":true}}},
"EnvVarPut": {"type":"object","required":["env_variables"],"properties":{"env_variables":{"type":"array","items":{"type":"object","required":["name","value"],"properties":{"name":{"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"value":{"type":"string"}}}}}},
"BuildStatus": {"type":"object","properties":{"deploymentId":{"type":"string"},"branchName":{"type":"string"},"status":{"type":"string","enum":["building","deployed","failed"]},"lastHash":{"type":"string"},"updatedAt":{"type":"string"}}},
"LogEntry": {"type":"object","properties":{"timestamp":{"type":"string"},"source":{"type":"string"},"container":{"type":"string"},"level":{"type":"string"},"message":{"type":"string"}}},
"Pod": {"type":"object","properties":{"name":{"type":"string"},"source":{"type":"string"},"status":{"type":"string"},"ready":{"type":"boolean"},"restarts":{"type":"integer"},"containers":{"type":"array","items":{"type":"string"}},"startedAt":{"type":"string"}}},
"CreationStep": {"type":"object","properties":{"deploymentId":{"type":"string"},"creationStep":{"type":"string"},"stepIndex":{"type":"integer"},"steps":{"type":"array","items":{"type":"string"}},"completed":{"type":"boolean"}}},
"ResourceOwner": {"type":"object","required":["id","email"],"properties":{"id":{"type":"integer"},"email":{"type":"string"},"firstName":{"type":["string","null"]},"picture":{"type":["string","null"]}}},
"Position": {"type":"object","required":["x","y","w","h"],"properties":{"x":{"type":"integer"},"y":{"type":"integer"},"w":{"type":"integer"},"h":{"type":"integer"}}},
"Breakpoints": {"type":"object","properties":{"lg":{"type":["integer","null"]},"md":{"type":["integer","null"]},"sm":{"type":["integer","null"]},"xs":{"type":["integer","null"]},"xxs":{"type":["integer","null"]}}},
"DashboardWidget": {"type":"object","required":["id","type","position"],"properties":{"id":{"type":"string"},"type":{"type":"string","enum":["CHART","TEXT","FILTER","AI","TIME_GRAIN","PARENT","SPACER","DIVIDER","CONTAINER"]},"position":{"$ref":"#/components/schemas/Position"},"responsiveLayouts":{"type":["object","null"]},"config":{"type":["object","null"]},"style":{"type":["object","null"]}}},
"DashboardLayout": {"type":"object","properties":{"breakpoints":{"$ref":"#/components/schemas/Breakpoints"},"cols":{"$ref":"#/components/schemas/Breakpoints"},"containerPadding":{"type":["array","null"],"items":{"type":"integer"}},"margin":{"type":["array","null"],"items":{"type":"integer"}},"rowHeight":{"type":["integer","null"]}}},
"DashboardAppSource": {"type":"object","properties":{"entry":{"type":["string","null"],"maxLength":255},"files":{"type":["object","null"],"additionalProperties":{"type":"string"}},"html":{"type":["string","null"]},"manifest":{"type":["object","null"],"properties":{"dependencies":{"type":["object","null"],"additionalProperties":{"type":"string"}},"version":{"type":["integer","null"]}}}}},
"DashboardConfig": {"type":"object","properties":{"kind":{"type":["string","null"],"enum":["CLASSIC","APP",null]},"title":{"type":["string","null"]},"description":{"type":["string","null"]},"widgets":{"type":["array","null"],"items":{"$ref":"#/components/schemas/DashboardWidget"}},"layout":{"$ref":"#/components/schemas/DashboardLayout"},"settings":{"type":["object","null"]},"theme":{"type":["object","null"]},"app":{"$ref":"#/components/schemas/DashboardAppSource"}}},
"ReportSnapshot": {"type":"object","required":["id","reportId","versionNumber"],"properties":{"id":{"type":"integer"},"reportId":{"type":"integer"},"versionNumber":{"type":"integer"},"kind":{"type":["string","null"],"enum":["vega","table","kpi","html","map",null]},"name":{"type":["string","null"]},"title":{"type":["string","null"]},"description":{"type":["string","null"]},"sqlQuery":{"type":["string","null"]},"pythonCode":{"type":["string","null"]},"spec":{"type":["string","object","null"]},"meta":{"type":["object","null"]},"isSourceReport":{"type":["boolean","null"]}}},
"Dashboard": {"type":"object","required":["id","publicId","deploymentId","workbookId","status","allowEmbed","config","versionNumber","versionId","reportSnapshots"],"properties":{"id":{"type":"integer"},"publicId":{"type":"string"},"deploymentId":{"type":"integer"},"workbookId":{"type":"integer"},"status":{"type":"string","enum":["draft","published","archived"]},"allowEmbed":{"type":"boolean"},"config":{"$ref":"#/components/schemas/DashboardConfig"},"versionNumber":{"type":"integer"},"versionId":{"type":"integer"},"reportSnapshots":{"type":"array","items":{"$ref":"#/components/schemas/ReportSnapshot"}},"createdBy":{"type":["integer","null"]},"title":{"type":["string","null"]},"description":{"type":["string","null"]},"fromSharedWorkspace":{"type":["boolean","null"]},"restrictDataDownload":{"type":["boolean","null"]},"useBoardDashboards":{"type":["boolean","null"]}}},
"Workbook": {"type":"object","required":["id","deploymentId","name","type","meta","calculatedFields","createdAt","updatedAt"],"properties":{"id":{"type":"integer"},"deploymentId":{"type":"integer"},"name":{"type":"string"},"type":{"type":"string","enum":["FOLDER","WORKBOOK","REPORT"]},"meta":{"type":"object","additionalProperties":true},"calculatedFields":{"type":"object"},"createdAt":{"type":"string","anyOf":[{"format":"date"},{"format":"date-time"}]},"updatedAt":{"type":"string","anyOf":[{"format":"date"},{"format":"date-time"}]},"createdBy":{"type":"integer"},"userId":{"type":["number","null"]},"user":{"oneOf":[{"$ref":"#/components/schemas/ResourceOwner"},{"type":"null"}]},"folderId":{"type":["number","null"]},"folderPath":{"type":"array","items":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}}},"isFavorite":{"type":["boolean","null"]},"slug":{"type":["string","null"]},"dashboardDraft":{"oneOf":[{"$ref":"#/components/schemas/DashboardConfig"},{"type":"null"}]},"dashboardPublished":{"oneOf":[{"$ref":"#/components/schemas/DashboardConfig"},{"type":"null"}]},"publishedDashboard":{"oneOf":[{"$ref":"#/components/schemas/Dashboard"},{"type":"null"}]}}},
"WorkbooksListResponse": {"type":"object","required":["items","data"],"properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/Workbook"}},"data":{"type":"array","deprecated":true,"items":{"$ref":"#/components/schemas/Workbook"}},"count":{"type":["integer","null"],"minimum":0,"deprecated":true},"pageInfo":{"oneOf":[{"$ref":"#/components/schemas/PageInfo"},{"type":"null"}]},"pagination":{"$ref":"#/components/schemas/Pagination","deprecated":true}}},
"WorkbookCreate": {"type":"object","required":["name"],"properties":{"name":{"type":"string"},"folderId":{"type":["integer","null"]},"meta":{"type":"object"}}},
"CloneRequest": {"type":"object","properties":{"shared":{"type":"boolean"}}},
"UpsertRequest": {"type":"object","properties":{"name":{"type":"string","description":"required when the slug does not exist yet"},"folderId":{"type":["integer","null"]},"meta":{"type":"object","properties":{"dashboardDraft":{"$ref":"#/components/schemas/DashboardConfig"}},"additionalProperties":true}}},
"WorkspaceItemRef": {"type":"object","required":["type","id"],"properties":{"type":{"type":"string","enum":["WORKBOOK","REPORT","FOLDER"]},"id":{"type":"integer"}}},
"ItemFailure": {"type":"object","required":["type","id","error"],"properties":{"type":{"type":"string"},"id":{"type":"integer"},"error":{"type":"object","required":["message","status"],"properties":{"message":{"type":"string"},"status":{"type":"integer"}}}}},
"BulkMoveRequest": {"type":"object","required":["items","folderId"],"properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/WorkspaceItemRef"}},"folderId":{"type":["integer","null"]}}},
"BulkMoveResponse": {"type":"object","required":["moved","failed"],"properties":{"moved":{"type":"array","items":{"$ref":"#/components/schemas/Workbook"}},"failed":{"type":"array","items":{"$ref":"#/components/schemas/ItemFailure"}}}},
"BulkDeleteRequest": {"type":"object","required":["items"],"properties":{"items":{"type":"array","minItems":1,"items":{"$ref":"#/components/schemas/WorkspaceItemRef"}}}},
"BulkDeleteResponse": {"type":"object","required":["deleted","failed"],"properties":{"deleted":{"type":"array","items":{"$ref":"#/components/schemas/WorkspaceItemRef"}},"failed":{"type":"array","items":{"$ref":"#/components/schemas/ItemFailure"}}}},
"Folder": {"allOf":[{"$ref":"#/components/schemas/Workbook"},{"type":"object","properties":{"parentId":{"type":["integer","null"]},"position":{"type":"integer"},"updatedBy":{"type":"integer"}}}]},
"FolderCreate": {"type":"object","required":["name"],"properties":{"name":{"type":"string"},"parentId":{"type":["integer","null"]},"position":{"type":"integer"}}},
"Placement": {"type":"object","properties":{"placementId":{"type":"integer"},"externalWorkbookId":{"type":"string"},"sheetName":{"type":"string"},"anchorCell":{"type":"string"},"createdAt":{"type":"string"},"refreshedAt":{"type":["string","null"]}}},
"Report": {"allOf":[{"$ref":"#/components/schemas/Workbook"},{"type":"object","properties":{"workbookId":{"type":["integer","null"]},"publicId":{"type":"string"},"kind":{"type":"string"},"sqlQuery":{"type":["string","null"]},"lastViewedAt":{"type":["string","null"]},"placements":{"type":"array","items":{"$ref":"#/components/schemas/Placement"}}}}]},
"ReportUpsert": {"type":"object","properties":{"name":{"type":"string"},"kind":{"type":"string","enum":["vega","table","kpi","html","map"]},"sqlQuery":{"type":"string"},"title":{"type":"string"},"description":{"type":"string"},"workbookId":{"type":"integer"},"spec":{"type":["string","object","null"]}}},
"PlacementAddress": {"type":"object","properties":{"placementId":{"type":"integer"},"externalWorkbookId":{"type":"string"},"sheetName":{"type":"string"},"anchorCell":{"type":"string"}}},
"PlacementResult": {"type":"object","properties":{"reportId":{"type":"integer"},"placement":{"$ref":"#/components/schemas/Placement"},"created":{"type":"boolean"},"status":{"type":"string"}}},
"PlacementRemoved": {"type":"object","properties":{"reportId":{"type":"integer"},"removed":{"$ref":"#/components/schemas/Placement"}}},
"EmbedAccess": {"type":"object","properties":{"workbookId":{"type":"integer"},"allEmbedUsers":{"type":"string","enum":["read","none"]},"tenants":{"type":"array","items":{"type":"object","properties":{"tenantId":{"type":"integer"},"action":{"type":"string","enum":["read","none"]}}}}}},
"EmbedAccessUpdate": {"type":"object","required":["action"],"properties":{"action":{"type":"string","enum":["read","none"]},"tenantId":{"type":"integer"},"allEmbedUsers":{"type":"boolean"}}},
"EmbedDashboardPatch": {"type":"object","required":["allowEmbed"],"properties":{"allowEmbed":{"type":"boolean"}}},
"PythonRunRequest": {"type":"object","required":["reportId"],"properties":{"reportId":{"type":"integer"},"filters":{"type":"array"}}},
"PythonRunResult": {"type":"object","properties":{"reportId":{"type":"integer"},"status":{"type":"string"},"result":{"type":"object"},"appliedFilters":{"type":"array"}}},
"NotificationFilter": {"type":"object","required":["member","operator"],"properties":{"member":{"type":"string"},"operator":{"type":"string","enum":["equals","not_equals","contains","not_contains","gt","gte","lt","lte","in_date_range","before_date","after_date","is_empty","is_not_empty"]},"values":{"type":["array","null"]}}},
"NotificationInput": {"type":"object","required":["name","workbookId","schedule"],"properties":{"name":{"type":"string"},"workbookId":{"type":"integer"},"schedule":{"type":"string","description":"5-field cron"},"timezone":{"type":"string"},"timeGrain":{"type":"string","enum":["hour","day","week","month","quarter","year"]},"recipients":{"type":"array","items":{"type":"string"}},"filters":{"type":"array","items":{"$ref":"#/components/schemas/NotificationFilter"}},"enabled":{"type":"boolean"}}},
"Notification": {"allOf":[{"$ref":"#/components/schemas/NotificationInput"},{"type":"object","properties":{"id":{"type":"integer"},"createdAt":{"type":"string"},"updatedAt":{"type":"string"}}}]},
"DbtSyncRequest": {"type":"object","properties":{"branchName":{"type":"string"},"ref":{"type":"string"}}},
"DbtJob": {"type":"object","properties":{"id":{"type":"integer"},"deploymentId":{"type":"string"},"status":{"type":"string","enum":["queued","running","succeeded","failed","cancelled"]},"trigger":{"type":"string"},"branchName":{"type":"string"},"ref":{"type":["string","null"]},"createdAt":{"type":"string"},"startedAt":{"type":["string","null"]},"finishedAt":{"type":["string","null"]}}},
"DbtResult": {"type":"object","properties":{"id":{"type":"integer"},"status":{"type":"string"},"result":{"type":["object","null"]}}},
"DataModelFile": {"type":"object","properties":{"path":{"type":"string"},"size":{"type":"integer"},"hash":{"type":"string"},"content":{"type":"string"}}},
"FileHash": {"type":"object","properties":{"path":{"type":"string"},"hash":{"type":"string"}}},
"FilesWrite": {"type":"object","required":["files"],"properties":{"branchName":{"type":"string"},"files":{"type":"array","items":{"type":"object","required":["path","content"],"properties":{"path":{"type":"string"},"content":{"type":"string"}}}}}},
"FilesWriteResult": {"type":"object","properties":{"branchName":{"type":"string"},"written":{"type":"array","items":{"$ref":"#/components/schemas/DataModelFile"}}}},
"FilesDelete": {"type":"object","properties":{"branchName":{"type":"string"},"paths":{"type":"array","items":{"type":"string"}}}},
"FilesDeleteResult": {"type":"object","properties":{"branchName":{"type":"string"},"deleted":{"type":"array","items":{"type":"string"}}}},
"FilesRename": {"type":"object","required":["files"],"properties":{"branchName":{"type":"string"},"files":{"type":"array","items":{"type":"object","required":["from","to"],"properties":{"from":{"type":"string"},"to":{"type":"string"}}}}}},
"FilesRenameResult": {"type":"object","properties":{"branchName":{"type":"string"},"renamed":{"type":"array","items":{"type":"object"}}}},
"ValidationResult": {"type":"object","required":["valid","errors"],"properties":{"branchName":{"type":"string"},"valid":{"type":"boolean"},"errors":{"type":"array","items":{"type":"object","properties":{"file":{"type":"string"},"line":{"type":"integer"},"message":{"type":"string"}}}},"cubes":{"type":"integer"},"views":{"type":"integer"}}},
"UploadStart": {"type":"object","properties":{"branchName":{"type":"string"}}},
"UploadStarted": {"type":"object","properties":{"uploadId":{"type":"string"},"branchName":{"type":"string"},"expiresAt":{"type":"string"}}},
"UploadFile": {"type":"object","required":["uploadId","path","content"],"properties":{"uploadId":{"type":"string"},"path":{"type":"string"},"content":{"type":"string"},"chunkIndex":{"type":"integer"}}},
"UploadFileResult": {"type":"object","properties":{"uploadId":{"type":"string"},"path":{"type":"string"},"size":{"type":"integer"},"received":{"type":"integer"}}},
"UploadFinish": {"type":"object","required":["uploadId"],"properties":{"uploadId":{"type":"string"}}},
"UploadFinished": {"type":"object","properties":{"uploadId":{"type":"string"},"branchName":{"type":"string"},"files":{"type":"integer"},"lastHash":{"type":"string"}}},
"EmbedTenantInput": {"type":"object","required":["name"],"properties":{"name":{"type":"string"},"externalId":{"type":"string"}}},
"EmbedTenant": {"allOf":[{"$ref":"#/components/schemas/EmbedTenantInput"},{"$ref":"#/components/schemas/Stamped"}]},
"EmbedUserInput": {"type":"object","required":["email"],"properties":{"email":{"type":"string"},"externalId":{"type":"string"},"name":{"type":"string"}}},
"EmbedUser": {"allOf":[{"$ref":"#/components/schemas/EmbedUserInput"},{"$ref":"#/components/schemas/Stamped"}]},
"EmbedGroupInput": {"type":"object","required":["name"],"properties":{"name":{"type":"string"},"description":{"type":"string"}}},
"EmbedGroup": {"allOf":[{"$ref":"#/components/schemas/EmbedGroupInput"},{"$ref":"#/components/schemas/Stamped"}]},
"GroupMemberInput": {"type":"object","required":["userId"],"properties":{"userId":{"type":"integer"}}},
"GroupMember": {"type":"object","properties":{"userId":{"type":"integer"},"addedAt":{"type":"string"}}},
"Stamped": {"type":"object","properties":{"id":{"type":"integer"},"createdAt":{"type":"string"},"updatedAt":{"type":"string"}}},
"User": {"type":"object","required":["id","email","role","status"],"properties":{"id":{"type":"integer"},"email":{"type":"string"},"firstName":{"type":["string","null"]},"lastName":{"type":["string","null"]},"role":{"type":"string","enum":["Viewer","AIBIUser","Developer","Admin"]},"status":{"type":"string","enum":["active","deactivated"]},"picture":{"type":["string","null"]},"permissions":{"type":"array","items":{"type":"string"}},"groupIds":{"type":"array","items":{"type":"integer"}},"creatorMode":{"type":"boolean"},"createdAt":{"type":"string"},"updatedAt":{"type":"string"}}},
"UserCreate": {"type":"object","required":["email"],"properties":{"email":{"type":"string"},"firstName":{"type":"string"},"lastName":{"type":"string"},"role":{"type":"string","enum":["Viewer","AIBIUser","Developer","Admin"]}}},
"UserUpdate": {"type":"object","properties":{"firstName":{"type":["string","null"]},"lastName":{"type":["string","null"]},"role":{"type":"string","enum":["Viewer","AIBIUser","Developer","Admin"]},"active":{"type":"boolean"}}},
"UsersBulkRequest": {"type":"object","required":["action","userIds"],"properties":{"action":{"type":"string","enum":["DEACTIVATE","ACTIVATE","DELETE"]},"userIds":{"type":"array","minItems":1,"maxItems":100,"items":{"type":"integer"}}}},
"UsersBulkResult": {"type":"object","properties":{"action":{"type":"string"},"succeeded":{"type":"array","items":{"type":"integer"}},"failed":{"type":"array","items":{"type":"object","properties":{"userId":{"type":"integer"},"error":{"type":"object","properties":{"message":{"type":"string"},"status":{"type":"integer"}}}}}}}},
"UserAttributeInput": {"type":"object","required":["name","type"],"properties":{"name":{"type":"string"},"type":{"type":"string","enum":["string","number","boolean","string_array","number_array"]},"description":{"type":["string","null"]}}},
"UserAttribute": {"allOf":[{"$ref":"#/components/schemas/UserAttributeInput"},{"$ref":"#/components/schemas/Stamped"}]},
"AttributeValues": {"type":"object","properties":{"userId":{"type":"integer"},"values":{"type":"array","items":{"type":"object","properties":{"attributeId":{"type":"integer"},"name":{"type":"string"},"type":{"type":"string"},"value":{}}}}}},
"AttributeValuesPut": {"type":"object","required":["values"],"properties":{"values":{"type":"array","items":{"type":"object","required":["attributeId"],"properties":{"attributeId":{"type":"integer"},"value":{"description":"typed per attribute; null removes"}}}}}},
"TenantSettings": {"type":"object","properties":{"name":{"type":"string"},"defaultRole":{"type":"string"},"ssoEnforced":{"type":"boolean"},"sessionTimeoutMinutes":{"type":"integer"},"allowedEmailDomains":{"type":"array","items":{"type":"string"}},"auditLogEnabled":{"type":"boolean"},"plan":{"type":"string"}}},
"TenantSettingsUpdate": {"type":"object","properties":{"name":{"type":"string"},"defaultRole":{"type":"string"},"ssoEnforced":{"type":"boolean"},"sessionTimeoutMinutes":{"type":"integer","minimum":5,"maximum":43200},"allowedEmailDomains":{"type":"array","items":{"type":"string"}},"auditLogEnabled":{"type":"boolean"}}},
"GroupInput": {"type":"object","required":["name"],"properties":{"name":{"type":"string"},"description":{"type":["string","null"]},"userIds":{"type":"array","items":{"type":"integer"}}}},
"Group": {"allOf":[{"$ref":"#/components/schemas/GroupInput"},{"$ref":"#/components/schemas/Stamped"}]},
"PolicyInput": {"type":"object","required":["principalType","principalId","resourceType","actions"],"properties":{"principalType":{"type":"string","enum":["user","group"]},"principalId":{"type":"integer"},"resourceType":{"type":"string","enum":["account","deployment","folder","workbook"]},"resourceId":{},"actions":{"type":"array","items":{"type":"string","enum":["Read","Edit","Manage","SecretsManage","DownloadData","AuditLogManage"]}}}},
"Policy": {"allOf":[{"$ref":"#/components/schemas/PolicyInput"},{"$ref":"#/components/schemas/Stamped"}]},
"OAuthIntegrationInput": {"type":"object","required":["name","provider","clientId"],"properties":{"name":{"type":"string"},"provider":{"type":"string","enum":["snowflake","databricks","bigquery","google","custom"]},"clientId":{"type":"string"},"clientSecret":{"type":"string","writeOnly":true},"authorizeUrl":{"type":"string"},"tokenUrl":{"type":"string"},"scopes":{"type":"array","items":{"type":"string"}}}},
"OAuthIntegration": {"allOf":[{"$ref":"#/components/schemas/Stamped"},{"type":"object","properties":{"name":{"type":"string"},"provider":{"type":"string"},"clientId":{"type":"string"},"clientSecretSet":{"type":"boolean"},"scopes":{"type":"array"}}}]},
"UserOAuthTokenInput": {"type":"object","required":["integrationId","userId","accessToken"],"properties":{"integrationId":{"type":"integer"},"userId":{"type":"integer"},"accessToken":{"type":"string","writeOnly":true},"refreshToken":{"type":"string","writeOnly":true},"expiresAt":{"type":"string"}}},
"UserOAuthToken": {"allOf":[{"$ref":"#/components/schemas/Stamped"},{"type":"object","properties":{"integrationId":{"type":"integer"},"userId":{"type":"integer"},"accessTokenSet":{"type":"boolean"},"refreshTokenSet":{"type":"boolean"},"expiresAt":{"type":"string"}}}]},
"OidcTokenConfigInput": {"type":"object","required":["name","issuer"],"properties":{"name":{"type":"string"},"issuer":{"type":"string"},"audience":{"type":"string"},"claimsMapping":{"type":"object"}}},
"OidcTokenConfig": {"allOf":[{"$ref":"#/components/schemas/OidcTokenConfigInput"},{"$ref":"#/components/schemas/Stamped"}]},
"GithubStatus": {"type":"object","properties":{"connected":{"type":"boolean"},"account":{"type":"string"},"installations":{"type":"integer"}}},
"GithubInstallation": {"type":"object","properties":{"id":{"type":"integer"},"account":{"type":"string"},"repositorySelection":{"type":"string"}}},
"GithubRepository": {"type":"object","properties":{"id":{"type":"integer"},"owner":{"type":"string"},"name":{"type":"string"},"fullName":{"type":"string"},"private":{"type":"boolean"},"defaultBranch":{"type":"string"}}},
"GithubBranch": {"type":"object","properties":{"name":{"type":"string"},"sha":{"type":"string"},"protected":{"type":"boolean"}}}
}"##;

fn schema_ref(n: &str) -> Json { obj! {"$ref" => format!("#/components/schemas/{}", n)} }
fn camel(m: &str, p: &str) -> String {
    let mut s = m.to_lowercase();
    for seg in p.split('/').filter(|x| !x.is_empty() && *x != "api" && *x != "v1") {
        let seg = seg.trim_matches(|c| c == '{' || c == '}');
        let mut up = true;
        for ch in seg.chars() { if ch.is_ascii_alphanumeric() { if up { s.push(ch.to_ascii_uppercase()); up = false; } else { s.push(ch); } } else { up = true; } }
    }
    s
}
fn qschema(t: &str) -> (Json, Option<String>) {
    if let Some(e) = t.strip_prefix("enum:") { return (obj! {"type" => "string", "enum" => Json::Arr(e.split('|').map(Json::from).collect())}, None); }
    match t {
        "int0" => (obj! {"type" => "integer", "minimum" => 0}, None),
        "int1" => (obj! {"type" => "integer", "minimum" => 1}, None),
        "int0null" => (obj! {"type" => Json::Arr(vec!["integer".into(), "null".into()]), "minimum" => 0}, Some("0 or the literal null selects the workspace root".into())),
        "bool" => (obj! {"type" => "boolean"}, None),
        _ => (obj! {"type" => "string"}, None),
    }
}

pub fn document() -> Json {
    let mut paths = Json::obj();
    for o in OPS.iter() {
        let dup = OPS.iter().filter(|x| x.id == o.id).count() > 1;
        let oid = if dup { camel(o.m, o.p) } else { o.id.to_string() };
        let mut params = vec![];
        for seg in o.p.split('/') { if let Some(n) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            let sch = if ["deploymentId", "environmentId", "publicId", "slug", "owner", "repo"].contains(&n) { obj! {"type" => "string"} } else { obj! {"type" => "integer"} };
            params.push(obj! {"name" => n, "in" => "path", "required" => true, "schema" => sch});
        } }
        for q in o.q.split(',').filter(|x| !x.is_empty()) {
            let (n, t) = q.split_once(':').unwrap_or((q, "str"));
            let (s, d) = qschema(t);
            let mut p = obj! {"name" => n, "in" => "query", "required" => false, "schema" => s};
            if let Some(d) = d { p.set("description", d.into()); }
            if n == "limit" || n == "first" { p.set("description", "page size; values above 250 are clamped to 250".into()); }
            params.push(p);
        }
        let content = if o.resp == "csv" { obj! {"text/csv" => obj!{"schema" => obj!{"type" => "string"}}} } else if let Some(item) = o.resp.strip_prefix("List:") {
            let arr = obj! {"type" => "array", "items" => schema_ref(item)};
            obj! {"application/json" => obj!{"schema" => obj!{"type" => "object", "required" => Json::Arr(vec!["items".into(), "pageInfo".into()]), "properties" => obj!{
                "items" => arr.clone(), "pageInfo" => schema_ref("PageInfo"), "data" => arr.with("deprecated", true), "count" => obj!{"type" => "integer", "deprecated" => true},
                "pagination" => obj!{"$ref" => "#/components/schemas/Pagination", "deprecated" => true}}}}}
        } else { obj! {"application/json" => obj!{"schema" => schema_ref(o.resp)}} };
        let mut responses = obj! {o.status.to_string() => obj!{"description" => "Success", "content" => content}};
        if o.id == "upsertReportByPublicId" { responses.set("201", obj! {"description" => "Created", "content" => obj!{"application/json" => obj!{"schema" => schema_ref("Report")}}}); }
        if o.id == "connectWorkbook" { responses.set("201", obj! {"description" => "Placement created", "content" => obj!{"application/json" => obj!{"schema" => schema_ref("PlacementResult")}}}); }
        let errs: &[(&str, &str)] = &[("400", "Invalid request"), ("401", "Missing or invalid credential"), ("403", "Not allowed"), ("404", "Not found")];
        for (c, dsc) in errs { responses.set(c, obj! {"description" => *dsc, "content" => obj!{"application/json" => obj!{"schema" => schema_ref("Error")}}}); }
        if o.id == "upsertWorkbookBySlug" { responses.set("409", obj! {"description" => "The create/update decision changed concurrently (code upsert_branch_changed); retry", "content" => obj!{"application/json" => obj!{"schema" => schema_ref("Error")}}}); }
        let tag = if o.p.starts_with("/build/") { "build" } else if o.p.contains("{deploymentId}") { "deployments" } else { "account" };
        let mut opj = obj! {"operationId" => oid, "summary" => o.sum, "tags" => Json::Arr(vec![tag.into()]), "parameters" => Json::Arr(params), "responses" => responses};
        if !o.req.is_empty() {
            let (name, optional) = match o.req.strip_suffix('?') { Some(n) => (n, true), None => (o.req, false) };
            opj.set("requestBody", obj! {"required" => !optional, "content" => obj!{"application/json" => obj!{"schema" => schema_ref(name)}}});
        }
        if paths.get(o.p).is_none() { paths.set(o.p, Json::obj()); }
        paths.get_mut(o.p).unwrap().set(&o.m.to_lowercase(), opj);
    }
    let schemas = json::parse(SCHEMAS).expect("schemas");
    obj! {"openapi" => "3.1.0", "info" => obj!{"title" => "Platform API", "version" => "1.0.0", "description" => "Management API of the analytics platform (independent in-memory implementation)."},
        "servers" => Json::Arr(vec![obj!{"url" => "/"}]), "security" => Json::Arr(vec![obj!{"bearerAuth" => Json::Arr(vec![])}]), "paths" => paths,
        "components" => obj!{"securitySchemes" => obj!{"bearerAuth" => obj!{"type" => "http", "scheme" => "bearer"}}, "schemas" => schemas}}
}

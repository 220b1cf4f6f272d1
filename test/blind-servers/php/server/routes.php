<?php
declare(strict_types=1);
// Route table; also the source of the OpenAPI document.
// R(method, path, handler, operationId, tag, query params, request body schema|null, [status => response schema])
$GLOBALS['ROUTES'] = [];
function R(string $m, string $path, $h, string $op, string $tag, array $q = [], ?string $body = null, array $resp = [200 => 'Object'], string $summary = ''): void {
    $GLOBALS['ROUTES'][] = compact('m', 'path', 'h', 'op', 'tag', 'q', 'body', 'resp', 'summary');
}
$D = '/api/v1/deployments/{deploymentId}';
$B = '/build/api/v1/deployments/{deploymentId}';
$CUR = ['first', 'after'];
R('GET', '/api/v1/spec', 'h_spec', 'getSpec', 'Meta', [], null, [200 => 'OpenApiDocument'], 'The OpenAPI 3.1 document of this server');
R('GET', '/api/v1/app-config', 'h_appConfig', 'getAppConfig', 'Meta', [], null, [200 => 'AppConfigEnvelope']);
R('GET', '/api/v1/deployments', 'h_listDeployments', 'listDeployments', 'Deployments', ['offset', 'limit'], null, [200 => 'DeploymentList'], 'E1 list deployments');
R('GET', $D, 'h_getDeployment', 'getDeployment', 'Deployments', [], null, [200 => 'DeploymentEnvelope']);
R('PUT', $D, 'h_updateDeployment', 'updateDeployment', 'Deployments', [], 'UpdateDeploymentRequest', [200 => 'UpdateDeploymentResponse'], 'E6 update a deployment');
R('DELETE', $D, 'h_deleteDeployment', 'deleteDeployment', 'Deployments', [], null, [200 => 'DeletedResult']);
R('GET', "$D/environments", 'h_listEnvironments', 'listEnvironments', 'Deployments', ['type', 'offset', 'limit0', 'first', 'after'], null, [200 => 'EnvironmentList'], 'E2 list environments');
R('POST', "$D/environments/{environmentId}/tokens-for-meta-sync", 'h_createMetaToken', 'createMetaSyncToken', 'Deployments', [], 'MetaTokenRequest', [200 => 'MetaTokenResponse'], 'E3 metadata token');
R('GET', "$D/versions", 'h_listVersions', 'listDeploymentVersions', 'Deployments', [], null, [200 => 'VersionList'], 'E5 versions');
R('GET', "$D/settings", 'h_settings', 'getDeploymentSettings', 'Deployments', [], null, [200 => 'SettingsEnvelope']);
R('GET', "$D/build-status", 'h_buildStatus', 'getBuildStatus', 'Deployments', ['branchName'], null, [200 => 'BuildStatusEnvelope']);
R('GET', "$D/logs", 'h_logs', 'getDeploymentLogs', 'Deployments', ['source', 'container', 'first', 'after'], null, [200 => 'GenericList']);
R('GET', "$D/pods", 'h_pods', 'listPods', 'Deployments', $CUR, null, [200 => 'GenericList']);
R('POST', "$D/creation-step/advance", 'h_stepAdvance', 'advanceCreationStep', 'Deployments', [], null, [200 => 'CreationStepEnvelope']);
R('POST', "$D/creation-step/reset", 'h_stepReset', 'resetCreationStep', 'Deployments', [], null, [200 => 'CreationStepEnvelope']);
R('GET', '/api/v1/regions/', 'h_regions', 'listRegions', 'Deployments', ['cloudProvider', 'first', 'after'], null, [200 => 'GenericList']);
R('GET', '/api/v1/audit-logs/export', 'h_exportAudit', 'exportAuditLogs', 'Audit', ['start', 'end', 'search', 'eventName', 'userEmail'], null, [200 => 'CSV'], 'E7 audit export');
R('GET', "$D/env-vars", 'h_listEnvVars', 'listEnvVars', 'Deployments', $CUR, null, [200 => 'EnvVarList'], 'E13 env vars');
R('PUT', "$D/env-vars", 'h_setEnvVars', 'setEnvVars', 'Deployments', [], 'SetEnvVarsRequest', [200 => 'EnvVarList']);
// workspace
R('GET', "$D/workbooks", 'h_listWorkbooks', 'listWorkbooks', 'Workspace', ['folderId', 'first', 'after'], null, [200 => 'WorkbooksListResponse'], 'E8 list workbooks');
R('GET', "$D/workbooks/{workbookId}", 'h_getWorkbook', 'getWorkbook', 'Workspace', [], null, [200 => 'Workbook'], 'E9 get workbook');
R('POST', "$D/workbooks/{workbookId}/duplicate", 'h_duplicate', 'duplicateWorkbook', 'Workspace', [], 'DuplicateRequest', [200 => 'Workbook'], 'E10 clone');
R('PUT', "$D/workbooks/by-slug/{slug}", 'h_upsertBySlug', 'upsertWorkbookBySlug', 'Workspace', [], 'UpsertWorkbookRequest', [200 => 'Workbook'], 'E11 upsert by slug');
R('POST', "$D/workspace/bulk-move", 'h_bulkMove', 'bulkMoveWorkspaceItems', 'Workspace', [], 'BulkMoveRequest', [200 => 'BulkMoveResponse'], 'E12 bulk move');
R('POST', "$D/workspace/bulk-delete", 'h_bulkDelete', 'bulkDeleteWorkspaceItems', 'Workspace', [], 'BulkDeleteRequest', [200 => 'BulkDeleteResponse']);
R('GET', "$D/workbooks/{workbookId}/embed-access", 'h_embedAccessGet', 'getWorkbookEmbedAccess', 'Embedding', [], null, [200 => 'EmbedAccessEnvelope']);
R('PUT', "$D/workbooks/{workbookId}/embed-access", 'h_embedAccessPut', 'setWorkbookEmbedAccess', 'Embedding', [], 'EmbedAccessRequest', [200 => 'EmbedAccessEnvelope']);
R('GET', "$D/folders", 'h_foldersList', 'listFolders', 'Workspace', ['parentId', 'first', 'after'], null, [200 => 'WorkspaceItemList']);
R('POST', "$D/folders", 'h_folderCreate', 'createFolder', 'Workspace', [], 'CreateFolderRequest', [201 => 'FolderEnvelope']);
R('DELETE', "$D/folders/{folderId}", 'h_folderDelete', 'deleteFolder', 'Workspace', [], null, [200 => 'DeletedResult']);
R('GET', "$D/reports", 'h_reportsList', 'listReports', 'Workspace', ['folderId', 'externalWorkbookId', 'search', 'sortBy', 'first', 'after'], null, [200 => 'ReportList']);
R('GET', "$D/reports/{reportId}", 'h_reportGet', 'getReport', 'Workspace', [], null, [200 => 'ReportEnvelope']);
R('PUT', "$D/reports/by-public-id/{publicId}", 'h_reportByPublicId', 'upsertReportByPublicId', 'Workspace', [], 'UpsertReportRequest', [200 => 'ReportEnvelope', 201 => 'ReportEnvelope']);
R('PUT', "$D/reports/{reportId}/connect-workbook", 'h_connectWorkbook', 'connectReportToWorkbook', 'Workspace', [], 'PlacementAddress', [200 => 'PlacementEnvelope', 201 => 'PlacementEnvelope']);
R('DELETE', "$D/reports/{reportId}/connect-workbook", 'h_disconnectWorkbook', 'disconnectReportFromWorkbook', 'Workspace', ['placementId', 'externalWorkbookId', 'sheetName', 'anchorCell'], 'PlacementAddressOptional', [200 => 'DeletedResult']);
R('PUT', "$D/reports/{reportId}/refresh", 'h_refreshPlacement', 'refreshReportPlacement', 'Workspace', [], 'PlacementAddress', [200 => 'PlacementEnvelope']);
R('PATCH', '/api/v1/embed/dashboard/{publicId}', 'h_embedDashboardPatch', 'setDashboardSignedEmbedding', 'Embedding', [], 'AllowEmbedRequest', [200 => 'DashboardEnvelope']);
R('POST', '/api/v1/embed/dashboard/{publicId}/python-run', 'h_pythonRun', 'runDashboardPythonReport', 'Embedding', [], 'PythonRunRequest', [200 => 'PythonRunEnvelope']);
// dbt
R('POST', "$D/dbt-sync", 'h_dbtStart', 'startDbtSync', 'dbt', [], 'DbtSyncRequest', [202 => 'SyncJobEnvelope']);
R('GET', "$D/dbt-sync", 'h_dbtList', 'listDbtSyncRuns', 'dbt', ['status', 'trigger', 'first', 'after'], null, [200 => 'SyncJobList']);
R('GET', "$D/dbt-sync/{syncJobId}", 'h_dbtGet', 'getDbtSyncJob', 'dbt', [], null, [200 => 'SyncJobEnvelope']);
R('DELETE', "$D/dbt-sync/{syncJobId}", 'h_dbtCancel', 'cancelDbtSyncJob', 'dbt', [], null, [200 => 'SyncJobEnvelope']);
R('GET', "$D/dbt-sync/{syncJobId}/result", 'h_dbtResult', 'getDbtSyncResult', 'dbt', [], null, [200 => 'SyncResultEnvelope']);
R('GET', "$D/dbt-sync/{syncJobId}/logs", 'h_dbtLogs', 'getDbtSyncLogs', 'dbt', $CUR, null, [200 => 'GenericList']);
// users and account
R('GET', '/api/v1/users', 'h_usersList', 'listUsers', 'Users', ['search', 'first', 'after'], null, [200 => 'UserList']);
R('POST', '/api/v1/users', 'h_userCreate', 'createUser', 'Users', [], 'CreateUserRequest', [201 => 'UserEnvelope']);
R('POST', '/api/v1/users/bulk', 'h_usersBulk', 'bulkUpdateUsers', 'Users', [], 'BulkUsersRequest', [200 => 'BulkUsersResponse']);
R('GET', '/api/v1/users/{userId}', 'h_userGet', 'getUser', 'Users', [], null, [200 => 'UserEnvelope']);
R('PUT', '/api/v1/users/{userId}', 'h_userUpdate', 'updateUser', 'Users', [], 'UpdateUserRequest', [200 => 'UserEnvelope']);
R('GET', '/api/v1/user-attribute-values/{userId}', 'h_attrValuesGet', 'getUserAttributeValues', 'Users', [], null, [200 => 'AttrValuesEnvelope']);
R('PUT', '/api/v1/user-attribute-values/{userId}', 'h_attrValuesPut', 'setUserAttributeValues', 'Users', [], 'AttrValuesRequest', [200 => 'AttrValuesEnvelope']);
R('GET', '/api/v1/tenant/settings', 'h_tenantGet', 'getTenantSettings', 'Account', [], null, [200 => 'TenantSettingsEnvelope']);
R('PUT', '/api/v1/tenant/settings', 'h_tenantPut', 'updateTenantSettings', 'Account', [], 'TenantSettings', [200 => 'TenantSettingsEnvelope']);
R('GET', '/api/v1/github/status', 'h_githubStatus', 'getGithubStatus', 'GitHub', [], null, [200 => 'GithubStatusEnvelope']);
R('GET', '/api/v1/github/installations', 'h_githubInstallations', 'listGithubInstallations', 'GitHub', $CUR, null, [200 => 'GenericList']);
R('GET', '/api/v1/github/installations/{installationId}/repositories', 'h_githubRepos', 'listGithubRepositories', 'GitHub', $CUR, null, [200 => 'GenericList']);
R('GET', '/api/v1/github/repositories/{owner}/{repo}/branches', 'h_githubBranches', 'listGithubBranches', 'GitHub', $CUR, null, [200 => 'GenericList']);
// generic CRUD families
function CRUD(string $base, string $idParam, string $res, string $opBase, string $tag, array $ops, bool $trailing = false): void {
    $GLOBALS['RES_IDPARAM'][$res] = $idParam;
    $coll = $trailing ? "$base/" : $base;
    $key = RESOURCES[$res]['key'];
    $env = ucfirst($key) . 'Envelope';
    if (in_array('list', $ops)) R('GET', $coll, genHandler($res, 'list'), "list{$opBase}s", $tag, ['search', 'first', 'after'] + ($res === 'notification' ? [3 => 'workbookId'] : []), null, [200 => ucfirst($key) . 'List']);
    if (in_array('create', $ops)) R('POST', $coll, genHandler($res, 'create'), "create$opBase", $tag, [], ucfirst($key) . 'Create', [201 => $env]);
    if (in_array('get', $ops)) R('GET', "$base/{{$idParam}}", genHandler($res, 'get'), "get$opBase", $tag, [], null, [200 => $env]);
    if (in_array('put', $ops)) R('PUT', "$base/{{$idParam}}", genHandler($res, 'update'), "update$opBase", $tag, [], ucfirst($key) . 'Update', [200 => $env]);
    if (in_array('patch', $ops)) R('PATCH', "$base/{{$idParam}}", genHandler($res, 'update'), (in_array('put', $ops) ? 'patch' : 'update') . $opBase, $tag, [], ucfirst($key) . 'Update', [200 => $env]);
    if (in_array('delete', $ops)) R('DELETE', "$base/{{$idParam}}", genHandler($res, 'delete'), "delete$opBase", $tag, [], null, [200 => 'DeletedResult']);
}
$ALL = ['list', 'create', 'get', 'put', 'patch', 'delete'];
CRUD('/api/v1/groups', 'groupId', 'group', 'Group', 'Users', ['list', 'create', 'get', 'put', 'delete']);
CRUD('/api/v1/policies', 'policyId', 'policy', 'Policy', 'Users', ['list', 'create', 'get', 'put', 'delete']);
CRUD('/api/v1/user-attributes', 'attributeId', 'userAttribute', 'UserAttribute', 'Users', ['list', 'create', 'get', 'put'], true);
CRUD('/api/v1/embed-tenants', 'tenantId', 'embedTenant', 'EmbedTenant', 'Embedding', ['list', 'create', 'get', 'patch', 'delete']);
CRUD('/api/v1/embed-tenants/{tenantId}/users', 'embedUserId', 'embedUser', 'EmbedUser', 'Embedding', ['list', 'create', 'get', 'patch', 'delete']);
CRUD('/api/v1/embed-tenants/{tenantId}/groups', 'groupId', 'embedGroup', 'EmbedGroup', 'Embedding', ['list', 'create', 'get', 'patch', 'delete']);
CRUD('/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members', 'memberId', 'embedMember', 'EmbedGroupMember', 'Embedding', ['list', 'create', 'delete']);
CRUD('/api/v1/oauth-integrations', 'integrationId', 'oauthIntegration', 'OauthIntegration', 'Integrations', $ALL);
CRUD('/api/v1/user-oauth-tokens', 'tokenId', 'userOauthToken', 'UserOauthToken', 'Integrations', $ALL);
CRUD('/api/v1/oidc-token-configs', 'configId', 'oidcTokenConfig', 'OidcTokenConfig', 'Integrations', $ALL);
CRUD("$D/notifications", 'notificationId', 'notification', 'Notification', 'Notifications', $ALL);
// build API
R('POST', '/build/api/v1/deployments/', 'h_createDeployment', 'createDeployment', 'Build', [], 'CreateDeploymentRequest', [201 => 'DeploymentEnvelope']);
R('GET', "$B/data-model/files", 'h_filesList', 'listDataModelFiles', 'Build', ['branchName', 'first', 'after'], null, [200 => 'GenericList']);
R('PUT', "$B/data-model/files", 'h_filesWrite', 'writeDataModelFiles', 'Build', [], 'WriteFilesRequest', [200 => 'FilesEnvelope']);
R('DELETE', "$B/data-model/files", 'h_filesDelete', 'removeDataModelFiles', 'Build', ['branchName', 'paths', 'path'], 'RemoveFilesRequest', [200 => 'FilesEnvelope']);
R('POST', "$B/data-model/files/rename", 'h_filesRename', 'renameDataModelFiles', 'Build', [], 'RenameFilesRequest', [200 => 'FilesEnvelope']);
R('GET', "$B/data-model/validate", 'h_validate', 'validateDataModel', 'Build', ['branchName'], null, [200 => 'ValidationEnvelope']);
R('POST', "$B/data-model/upload/start", 'h_uploadStart', 'startUpload', 'Build', [], 'UploadStartRequest', [201 => 'UploadEnvelope']);
R('POST', "$B/data-model/upload/file", 'h_uploadFile', 'uploadFile', 'Build', [], 'UploadFileRequest', [200 => 'UploadEnvelope']);
R('POST', "$B/data-model/upload/finish", 'h_uploadFinish', 'finishUpload', 'Build', [], 'UploadFinishRequest', [200 => 'UploadEnvelope']);
R('GET', "$B/data-model/file-hashes", 'h_fileHashes', 'getFileHashes', 'Build', ['branchName', 'first', 'after'], null, [200 => 'GenericList']);
R('POST', "$B/dev-mode", 'h_devModeStart', 'startDevMode', 'Build', [], 'BranchNameRequest', [200 => 'BranchEnvelope']);
R('DELETE', "$B/dev-mode", 'h_devModeStop', 'stopDevMode', 'Build', ['branchName'], null, [200 => 'BranchEnvelope']);
R('GET', "$B/branches", 'h_branchesList', 'listBranches', 'Build', $CUR, null, [200 => 'BranchList']);
R('POST', "$B/branches", 'h_branchCreate', 'createBranch', 'Build', [], 'CreateBranchRequest', [201 => 'BranchEnvelope']);
R('DELETE', "$B/branches", 'h_branchDelete', 'deleteBranch', 'Build', ['branchName', 'removeOnUpstream'], null, [200 => 'BranchDeleted']);
R('PUT', "$B/branches/staging-environment", 'h_stagingEnv', 'setBranchStagingEnvironment', 'Build', [], 'StagingEnvironmentRequest', [200 => 'BranchResult'], 'E4 staging toggle');
R('POST', "$B/commit", h_gitOp('commit'), 'commitBranch', 'Build', [], 'GitRequest', [200 => 'GitEnvelope']);
R('POST', "$B/pull", h_gitOp('pull'), 'pullBranch', 'Build', [], 'GitRequest', [200 => 'GitEnvelope']);
R('POST', "$B/merge", h_gitOp('merge'), 'mergeBranch', 'Build', [], 'GitRequest', [200 => 'GitEnvelope']);
R('POST', "$B/merge-to-default", h_gitOp('merge-to-default'), 'mergeBranchToDefault', 'Build', [], 'GitRequest', [200 => 'GitEnvelope']);
R('POST', "$B/github/connect", 'h_githubConnect', 'connectGithubRepository', 'Build', [], 'GithubConnectRequest', [200 => 'GithubConnectionEnvelope']);

<?php
declare(strict_types=1);
// OpenAPI 3.1 document generated from the route table.
function S(string $name): array { return ['$ref' => "#/components/schemas/$name"]; }
function N($schema): array { // nullable
    if (isset($schema['$ref'])) return ['anyOf' => [$schema, ['type' => 'null']]];
    if (isset($schema['type'])) { $schema['type'] = array_values(array_unique(array_merge((array)$schema['type'], ['null']))); if (isset($schema['enum'])) $schema['enum'][] = null; return $schema; }
    return ['anyOf' => [$schema, ['type' => 'null']]];
}
function O(array $props, array $req = [], $additional = true): array {
    $s = ['type' => 'object', 'properties' => $props ?: new stdClass()];
    if ($req) $s['required'] = $req;
    if ($additional !== true) $s['additionalProperties'] = $additional;
    return $s;
}
function A($items): array { return ['type' => 'array', 'items' => $items]; }
function env1(string $key, $schema): array { return O([$key => $schema], [$key]); }
const T_STR = ['type' => 'string'];
const T_INT = ['type' => 'integer'];
const T_BOOL = ['type' => 'boolean'];
const T_NUM = ['type' => 'number'];
const T_OBJ = ['type' => 'object'];
const T_DT = ['type' => 'string', 'format' => 'date-time'];
function T_DATEISH(): array { return ['anyOf' => [['type' => 'string', 'format' => 'date-time'], ['type' => 'string', 'format' => 'date']]]; }
function listOf($item, bool $count = true, bool $nullPageInfo = false): array {
    $p = ['items' => A($item), 'pageInfo' => $nullPageInfo ? N(S('PageInfo')) : S('PageInfo'), 'data' => array_merge(A($item), ['deprecated' => true])];
    $req = ['items', 'pageInfo', 'data'];
    if ($count) { $p['count'] = ['type' => 'integer', 'minimum' => 0, 'deprecated' => true]; $req[] = 'count'; }
    return O($p, $req);
}
function queryParam(string $n): array {
    $m = [
        'offset' => ['offset', ['type' => 'integer', 'minimum' => 0, 'default' => 0]],
        'limit' => ['limit', ['type' => 'integer', 'minimum' => 1, 'default' => 20, 'description' => 'page size; values above 1000 are clamped to 1000']],
        'limit0' => ['limit', ['type' => 'integer', 'minimum' => 0, 'default' => 20, 'description' => 'size of the legacy data slice; values above 1000 are clamped to 1000']],
        'first' => ['first', ['type' => 'integer', 'minimum' => 1, 'description' => 'page size (default 16; values above 1000 are clamped to 1000)']],
        'after' => ['after', T_STR],
        'type' => ['type', ['type' => 'string', 'enum' => ['production', 'staging', 'development']]],
        'folderId' => ['folderId', ['type' => ['integer', 'null'], 'minimum' => 0]],
        'parentId' => ['parentId', ['type' => ['integer', 'null'], 'minimum' => 0]],
        'sortBy' => ['sortBy', ['type' => 'string', 'enum' => ['createdAt', 'updatedAt', 'lastViewedAt', 'name']]],
        'source' => ['source', ['type' => 'string', 'enum' => ['production', 'dev']]],
        'container' => ['container', ['type' => 'string', 'enum' => ['INIT', 'MAIN', 'vector', 'api-proxy', 'cube']]],
        'status' => ['status', ['type' => 'string', 'enum' => ['waiting', 'in_progress', 'completed', 'failed', 'canceled']]],
        'trigger' => ['trigger', ['type' => 'string', 'enum' => ['api', 'schedule', 'manual']]],
        'removeOnUpstream' => ['removeOnUpstream', T_BOOL],
        'workbookId' => ['workbookId', ['type' => 'integer', 'minimum' => 0]],
        'start' => ['start', ['type' => 'string', 'description' => 'ISO 8601 date (or date-time)']],
        'end' => ['end', ['type' => 'string', 'description' => 'ISO 8601 date (or date-time); a date covers the whole day']],
    ];
    [$name, $schema] = $m[$n] ?? [$n, T_STR];
    return ['name' => $name, 'in' => 'query', 'required' => false, 'schema' => $schema];
}
function genRecordSchema(array $res): array {
    $props = ['id' => T_INT];
    foreach ($res['fields'] as $f => $spec) {
        $t = $spec[0];
        if ($t === 'secret') continue;
        $s = match ($t) { 'string', 'cron' => T_STR, 'email' => ['type' => 'string', 'format' => 'email'], 'int' => T_INT, 'bool' => T_BOOL, 'object' => T_OBJ,
            'enum' => ['type' => 'string', 'enum' => $spec[2]], 'intarray' => A(T_INT), 'strarray' => A(T_STR), 'enumarray' => A(['type' => 'string', 'enum' => $spec[2]]),
            'filters' => A(O(['member' => T_STR, 'operator' => ['type' => 'string', 'enum' => FILTER_OPS], 'values' => N(A(new stdClass()))], ['member', 'operator'])),
            default => new stdClass() };
        $props[$f] = $s instanceof stdClass ? $s : N($s);
    }
    if (array_filter($res['fields'], fn($s) => $s[0] === 'secret')) $props['secretFields'] = A(T_STR);
    $props['createdAt'] = T_DT; $props['updatedAt'] = T_DT; $props['createdBy'] = N(T_INT);
    return O($props, ['id', 'createdAt', 'updatedAt']);
}
function genRequestSchema(array $res, bool $create): array {
    $props = []; $req = [];
    foreach ($res['fields'] as $f => $spec) {
        $t = $spec[0];
        $s = match ($t) { 'string', 'secret', 'cron' => T_STR, 'email' => ['type' => 'string', 'format' => 'email'], 'int' => ['type' => 'integer', 'minimum' => 0], 'bool' => T_BOOL, 'object' => T_OBJ,
            'enum' => ['type' => 'string', 'enum' => $spec[2]], 'intarray' => A(T_INT), 'strarray' => A(T_STR), 'enumarray' => A(['type' => 'string', 'enum' => $spec[2]]),
            'filters' => A(O(['member' => T_STR, 'operator' => ['type' => 'string', 'enum' => FILTER_OPS], 'values' => A(new stdClass())], ['member', 'operator'])), default => new stdClass() };
        $props[$f] = $s;
        if ($create && $spec[1]) $req[] = $f;
    }
    return O($props, $req);
}
function schemas(): array {
    $pos = O(['x' => T_INT, 'y' => T_INT, 'w' => T_INT, 'h' => T_INT], ['x', 'y', 'w', 'h']);
    $bp = O(['lg' => N(T_INT), 'md' => N(T_INT), 'sm' => N(T_INT), 'xs' => N(T_INT), 'xxs' => N(T_INT)]);
    $placementAddr = O(['placementId' => T_STR, 'externalWorkbookId' => T_STR, 'sheetName' => T_STR, 'anchorCell' => ['type' => 'string', 'pattern' => '^[A-Za-z]{1,3}[1-9][0-9]{0,6}$']]);
    $depDetail = O(['id' => T_STR, 'name' => T_STR, 'created_at' => T_DT, 'updated_at' => T_DT, 'plan' => T_STR, 'cloudProvider' => T_STR, 'region' => T_STR,
        'releaseChannel' => T_STR, 'releaseChannelVersion' => T_STR, 'version' => T_STR, 'releaseChannelVersionHold' => T_BOOL, 'image' => T_STR,
        'template' => N(T_STR), 'templateVariables' => T_OBJ, 'defaultLaunchpadViewGroup' => N(T_STR), 'launchpadTabs' => A(new stdClass()),
        'creationMethod' => ['type' => 'string', 'enum' => ['upload', 'cubecloud', 'github', 'ssh']], 'deployMode' => ['type' => 'string', 'enum' => ['git', 'cli']],
        'creationStep' => ['type' => 'string', 'enum' => CREATION_STEPS], 'workbookLimit' => N(T_INT)], ['id', 'name', 'created_at']);
    $s = [
        'Error' => O(['error' => T_STR, 'reason' => T_STR, 'code' => T_STR, 'field' => T_STR], ['error', 'reason']),
        'PageInfo' => O(['hasNextPage' => T_BOOL, 'hasPreviousPage' => T_BOOL, 'startCursor' => N(T_STR), 'endCursor' => N(T_STR)], ['hasNextPage', 'hasPreviousPage']),
        'Pagination' => O(['offset' => T_INT, 'limit' => T_INT, 'total' => T_INT], ['offset', 'limit', 'total']),
        'Deployment' => O(['id' => T_STR, 'name' => T_STR, 'created_at' => T_DT, 'plan' => T_STR, 'ownerEmail' => N(T_STR), 'workbookLimit' => N(T_INT)], ['id', 'name', 'created_at']),
        'DeploymentList' => O(['data' => O(['deployments' => A(S('Deployment'))], ['deployments']), 'pagination' => S('Pagination')], ['data', 'pagination']),
        'DeploymentDetail' => $depDetail,
        'DeploymentEnvelope' => env1('deployment', S('DeploymentDetail')),
        'UpdateDeploymentRequest' => O(['cloudProvider' => T_STR, 'region' => T_STR, 'releaseChannel' => ['type' => 'string', 'enum' => ['latest', 'release']],
            'releaseChannelVersion' => ['type' => 'string', 'description' => '1.7.20, v1.7.20 or cubejs/cube:v1.7.20; must be listed by listDeploymentVersions'],
            'releaseChannelVersionHold' => T_BOOL, 'template' => T_STR, 'templateVariables' => T_OBJ, 'defaultLaunchpadViewGroup' => N(T_STR), 'launchpadTabs' => T_OBJ + ['type' => 'array'],
            'creationMethod' => ['type' => 'string', 'enum' => ['upload', '<hosted>', 'cubecloud', 'github', 'ssh']], 'deployMode' => ['type' => 'string', 'enum' => ['git', 'cli']]]),
        'UpdateDeploymentResponse' => O(['success' => T_BOOL, 'data' => S('DeploymentDetail'), 'ignoredFields' => A(T_STR)], ['success', 'data', 'ignoredFields']),
        'ApiCredential' => O(['type' => T_STR, 'version' => T_INT, 'database' => N(T_STR), 'host' => N(T_STR), 'port' => N(T_INT), 'url' => N(T_STR)], ['type']),
        'Environment' => O(['id' => T_STR, 'type' => ['type' => 'string', 'enum' => ['production', 'staging', 'development']], 'branch' => T_STR, 'user' => T_STR, 'name' => T_STR,
            'api_credentials' => A(S('ApiCredential'))], ['id', 'type', 'branch', 'user', 'api_credentials']),
        'EnvironmentList' => O(['items' => A(S('Environment')), 'pageInfo' => S('PageInfo'), 'data' => array_merge(A(S('Environment')), ['deprecated' => true]), 'pagination' => N(S('Pagination'))], ['items', 'pageInfo', 'data', 'pagination']),
        'MetaTokenRequest' => O(['security_context' => T_OBJ, 'expires_in' => ['type' => 'number', 'exclusiveMinimum' => 0, 'maximum' => 259200, 'default' => 86400]], ['security_context']),
        'MetaTokenResponse' => env1('data', O(['token' => T_STR, 'created_at' => T_DT, 'expires_at' => T_DT, 'security_context' => T_OBJ, 'scopes' => A(T_STR)], ['token', 'created_at', 'expires_at'])),
        'Branch' => O(['id' => T_INT, 'name' => T_STR, 'parentBranch' => N(T_STR), 'lastHash' => N(T_STR), 'isStagingEnvironmentEnabled' => T_BOOL,
            'kind' => ['type' => 'string', 'enum' => ['production', 'shared', 'personal']], 'devMode' => T_BOOL, 'ownerEmail' => N(T_STR)], ['id', 'name', 'parentBranch', 'lastHash', 'isStagingEnvironmentEnabled']),
        'BranchResult' => env1('data', S('Branch')),
        'BranchEnvelope' => env1('branch', S('Branch')),
        'BranchList' => listOf(S('Branch')),
        'BranchDeleted' => O(['id' => T_INT, 'name' => T_STR, 'status' => T_STR, 'removedOnUpstream' => T_BOOL], ['id', 'name', 'status']),
        'StagingEnvironmentRequest' => O(['enabled' => T_BOOL, 'branchName' => T_STR, 'branchId' => T_INT], ['enabled']),
        'VersionEntry' => O(['releaseChannelVersion' => T_STR, 'version' => T_STR, 'releaseChannel' => T_STR, 'isLatestInChannel' => T_BOOL, 'isCurrent' => T_BOOL],
            ['releaseChannelVersion', 'version', 'releaseChannel', 'isLatestInChannel', 'isCurrent']),
        'VersionList' => O(['data' => A(S('VersionEntry')), 'items' => A(S('VersionEntry'))], ['data']),
        'ResourceOwner' => O(['id' => T_INT, 'email' => T_STR, 'firstName' => N(T_STR), 'picture' => N(T_STR)], ['id', 'email']),
        'DashboardPosition' => $pos,
        'DashboardWidget' => O(['id' => T_STR, 'type' => ['type' => 'string', 'enum' => WIDGET_TYPES], 'position' => S('DashboardPosition'),
            'responsiveLayouts' => N(O(['lg' => N(S('DashboardPosition')), 'md' => N(S('DashboardPosition')), 'sm' => N(S('DashboardPosition')), 'xs' => N(S('DashboardPosition')), 'xxs' => N(S('DashboardPosition'))])),
            'config' => N(T_OBJ), 'style' => N(T_OBJ)], ['id', 'type', 'position']),
        'DashboardLayout' => O(['breakpoints' => N($bp), 'cols' => N($bp), 'containerPadding' => N(A(T_INT)), 'margin' => N(A(T_INT)), 'rowHeight' => N(T_INT)]),
        'DashboardAppSource' => O(['entry' => N(['type' => 'string', 'maxLength' => 255]), 'files' => N(['type' => 'object', 'additionalProperties' => T_STR]), 'html' => N(T_STR),
            'manifest' => N(O(['dependencies' => N(['type' => 'object', 'additionalProperties' => T_STR]), 'version' => N(T_INT)]))]),
        'DashboardConfig' => O(['kind' => N(['type' => 'string', 'enum' => ['CLASSIC', 'APP']]), 'title' => N(T_STR), 'description' => N(T_STR), 'widgets' => N(A(S('DashboardWidget'))),
            'layout' => N(S('DashboardLayout')), 'settings' => N(T_OBJ), 'theme' => N(T_OBJ), 'app' => N(S('DashboardAppSource'))]),
        'ReportSnapshot' => O(['id' => T_INT, 'reportId' => T_INT, 'versionNumber' => T_INT, 'kind' => N(['type' => 'string', 'enum' => ['vega', 'table', 'kpi', 'html', 'map']]),
            'name' => N(T_STR), 'title' => N(T_STR), 'description' => N(T_STR), 'sqlQuery' => N(T_STR), 'pythonCode' => N(T_STR), 'spec' => ['type' => ['string', 'object', 'null']],
            'meta' => N(T_OBJ), 'isSourceReport' => N(T_BOOL), 'fillMissingRows' => N(O(['member' => T_STR, 'excludedDimensions' => N(A(T_STR))], ['member'])),
            'periodComparisons' => N(A(O(['measure' => T_STR, 'timeDimension' => T_STR, 'offset' => O(['amount' => T_INT, 'unit' => T_STR], ['amount', 'unit']), 'outputs' => N(A(T_STR))], ['measure', 'timeDimension', 'offset']))),
            'preferences' => N(O(['columnFormats' => N(['type' => 'object', 'additionalProperties' => O(['type' => ['type' => 'string', 'enum' => ['currency', 'percent', 'number']], 'decimalPlaces' => N(T_INT)])])]))],
            ['id', 'reportId', 'versionNumber']),
        'Dashboard' => O(['id' => T_INT, 'publicId' => T_STR, 'deploymentId' => T_INT, 'workbookId' => T_INT, 'status' => ['type' => 'string', 'enum' => ['draft', 'published', 'archived']],
            'allowEmbed' => T_BOOL, 'config' => S('DashboardConfig'), 'versionNumber' => T_INT, 'versionId' => T_INT, 'reportSnapshots' => A(S('ReportSnapshot')),
            'createdBy' => N(T_INT), 'title' => N(T_STR), 'description' => N(T_STR), 'fromSharedWorkspace' => N(T_BOOL), 'restrictDataDownload' => N(T_BOOL), 'useBoardDashboards' => N(T_BOOL)],
            ['id', 'publicId', 'deploymentId', 'workbookId', 'status', 'allowEmbed', 'config', 'versionNumber', 'versionId', 'reportSnapshots']),
        'Workbook' => O(['id' => T_INT, 'deploymentId' => T_INT, 'name' => T_STR, 'type' => ['type' => 'string', 'enum' => ['FOLDER', 'WORKBOOK', 'REPORT']], 'meta' => T_OBJ,
            'calculatedFields' => T_OBJ, 'createdAt' => T_DATEISH(), 'updatedAt' => T_DATEISH(), 'createdBy' => T_INT, 'userId' => N(T_NUM), 'user' => N(S('ResourceOwner')),
            'folderId' => N(T_NUM), 'folderPath' => A(O(['id' => T_INT, 'name' => T_STR], ['id', 'name'])), 'isFavorite' => N(T_BOOL), 'slug' => N(T_STR),
            'dashboardDraft' => N(S('DashboardConfig')), 'dashboardPublished' => N(S('DashboardConfig')), 'publishedDashboard' => N(S('Dashboard')),
            'workbookId' => N(T_INT), 'publicId' => T_STR, 'kind' => N(T_STR), 'lastViewedAt' => N(T_DT), 'parentId' => N(T_INT), 'position' => T_INT],
            ['id', 'deploymentId', 'name', 'type', 'meta', 'calculatedFields', 'createdAt', 'updatedAt']),
        'WorkbooksListResponse' => O(['items' => A(S('Workbook')), 'data' => array_merge(A(S('Workbook')), ['deprecated' => true]), 'count' => ['type' => ['integer', 'null'], 'minimum' => 0, 'deprecated' => true],
            'pageInfo' => N(S('PageInfo'))], ['items', 'data']),
        'WorkspaceItemList' => listOf(S('Workbook')),
        'ReportList' => listOf(S('Workbook'), true, true),
        'DuplicateRequest' => O(['shared' => T_BOOL]),
        'UpsertWorkbookRequest' => O(['name' => ['type' => 'string', 'minLength' => 1, 'maxLength' => 255], 'folderId' => ['type' => ['integer', 'null'], 'minimum' => 0], 'meta' => T_OBJ]),
        'WorkspaceItemRef' => O(['type' => ['type' => 'string', 'enum' => ['WORKBOOK', 'REPORT', 'FOLDER']], 'id' => T_INT], ['type', 'id']),
        'ItemFailure' => O(['type' => ['type' => 'string', 'enum' => ['WORKBOOK', 'REPORT', 'FOLDER']], 'id' => T_INT, 'error' => O(['message' => T_STR, 'status' => T_INT], ['message', 'status'])], ['type', 'id', 'error']),
        'BulkMoveRequest' => O(['items' => ['type' => 'array', 'maxItems' => 100, 'items' => S('WorkspaceItemRef')], 'folderId' => ['type' => ['integer', 'null'], 'minimum' => 0]], ['items']),
        'BulkMoveResponse' => O(['moved' => A(S('Workbook')), 'failed' => A(S('ItemFailure'))], ['moved', 'failed']),
        'BulkDeleteRequest' => O(['items' => ['type' => 'array', 'minItems' => 1, 'maxItems' => 100, 'items' => S('WorkspaceItemRef')]], ['items']),
        'BulkDeleteResponse' => O(['deleted' => A(S('WorkspaceItemRef')), 'failed' => A(S('ItemFailure'))], ['deleted', 'failed']),
        'EnvVar' => O(['name' => T_STR, 'value' => T_STR], ['name', 'value']),
        'EnvVarList' => O(['items' => A(S('EnvVar')), 'data' => array_merge(A(S('EnvVar')), ['deprecated' => true]), 'pageInfo' => S('PageInfo')], ['items', 'data', 'pageInfo']),
        'SetEnvVarsRequest' => O(['env_variables' => A(O(['name' => ['type' => 'string', 'pattern' => '^[A-Za-z_][A-Za-z0-9_]*$'], 'value' => T_STR], ['name', 'value']))], ['env_variables']),
        'GenericList' => listOf(T_OBJ),
        'DeletedResult' => O(['id' => ['type' => ['integer', 'string']], 'status' => ['type' => 'string', 'enum' => ['deleted']]], ['id', 'status']),
        'OpenApiDocument' => O(['openapi' => T_STR, 'info' => T_OBJ, 'paths' => T_OBJ], ['openapi', 'info', 'paths']),
        'AppConfigEnvelope' => env1('appConfig', O(['appTheme' => T_OBJ, 'applyThemeGlobally' => T_BOOL, 'creatorMode' => T_BOOL, 'embedding' => T_OBJ, 'sheetsUi' => T_OBJ, 'timezoneSettings' => T_OBJ],
            ['appTheme', 'applyThemeGlobally', 'creatorMode', 'embedding', 'sheetsUi', 'timezoneSettings'])),
        'SettingsEnvelope' => env1('settings', O(['deploymentId' => T_STR, 'general' => T_OBJ, 'release' => T_OBJ, 'template' => N(T_STR), 'templateVariables' => T_OBJ, 'environmentVariables' => T_OBJ,
            'launchpad' => T_OBJ, 'workbookLimit' => N(T_INT)], ['deploymentId'])),
        'BuildStatusEnvelope' => env1('buildStatus', O(['deploymentId' => T_STR, 'branchName' => T_STR, 'status' => ['type' => 'string', 'enum' => ['in_progress', 'success', 'error']], 'lastHash' => N(T_STR), 'updatedAt' => T_DT], ['deploymentId', 'branchName', 'status'])),
        'CreationStepEnvelope' => env1('creationStep', O(['deploymentId' => T_STR, 'step' => ['type' => 'string', 'enum' => CREATION_STEPS], 'index' => T_INT, 'steps' => A(T_STR), 'complete' => T_BOOL], ['deploymentId', 'step'])),
        'SyncJob' => O(['id' => T_STR, 'deploymentId' => T_STR, 'branchName' => T_STR, 'ref' => N(T_STR), 'status' => ['type' => 'string', 'enum' => ['waiting', 'in_progress', 'completed', 'failed', 'canceled']],
            'trigger' => ['type' => 'string', 'enum' => ['api', 'schedule', 'manual']], 'createdAt' => T_DT, 'finishedAt' => N(T_DT), 'createdBy' => N(T_STR)], ['id', 'status', 'trigger', 'createdAt']),
        'SyncJobEnvelope' => env1('syncJob', S('SyncJob')),
        'SyncJobList' => listOf(S('SyncJob')),
        'SyncResultEnvelope' => env1('syncResult', O(['syncJobId' => T_STR, 'status' => T_STR, 'ready' => T_BOOL, 'result' => N(T_OBJ)], ['syncJobId', 'status', 'ready', 'result'])),
        'DbtSyncRequest' => O(['branchName' => T_STR, 'ref' => T_STR]),
        'User' => O(['id' => T_INT, 'email' => T_STR, 'firstName' => N(T_STR), 'lastName' => N(T_STR), 'picture' => N(T_STR), 'role' => ['type' => 'string', 'enum' => array_values(ROLE_LABEL)],
            'status' => ['type' => 'string', 'enum' => ['active', 'deactivated']], 'permissions' => A(T_STR), 'createdAt' => T_DT, 'updatedAt' => T_DT], ['id', 'email', 'role', 'status']),
        'UserEnvelope' => env1('user', S('User')),
        'UserList' => listOf(S('User')),
        'CreateUserRequest' => O(['email' => ['type' => 'string', 'format' => 'email'], 'firstName' => T_STR, 'lastName' => T_STR, 'role' => ['type' => 'string', 'enum' => array_values(ROLE_LABEL)]], ['email']),
        'UpdateUserRequest' => O(['email' => T_STR, 'firstName' => N(T_STR), 'lastName' => N(T_STR), 'role' => ['type' => 'string', 'enum' => array_values(ROLE_LABEL)], 'status' => ['type' => 'string', 'enum' => ['active', 'deactivated']]]),
        'BulkUsersRequest' => O(['action' => ['type' => 'string', 'enum' => ['DEACTIVATE', 'ACTIVATE', 'DELETE']], 'userIds' => ['type' => 'array', 'minItems' => 1, 'maxItems' => 100, 'items' => T_INT]], ['action', 'userIds']),
        'BulkUsersResponse' => O(['action' => T_STR, 'succeeded' => A(T_INT), 'failed' => A(O(['userId' => T_INT, 'error' => O(['message' => T_STR, 'status' => T_INT], ['message', 'status'])], ['userId', 'error']))], ['action', 'succeeded', 'failed']),
        'AttrValuesEnvelope' => env1('userAttributeValues', O(['userId' => T_INT, 'values' => T_OBJ], ['userId', 'values'])),
        'AttrValuesRequest' => O(['values' => T_OBJ], ['values']),
        'TenantSettings' => O(['auditLogEnabled' => N(T_BOOL), 'applyThemeGlobally' => N(T_BOOL), 'sheetsUi' => N(T_BOOL), 'defaultTimezone' => N(T_STR), 'appTheme' => N(T_OBJ), 'allowedOrigins' => N(A(T_STR)), 'sessionTimeoutMinutes' => N(T_INT)]),
        'TenantSettingsEnvelope' => env1('tenantSettings', S('TenantSettings')),
        'GithubStatusEnvelope' => env1('github', O(['appInstalled' => T_BOOL, 'connected' => T_BOOL, 'account' => N(T_STR)], ['appInstalled', 'connected'])),
        'FolderEnvelope' => env1('folder', S('Workbook')),
        'CreateFolderRequest' => O(['name' => ['type' => 'string', 'minLength' => 1, 'maxLength' => 255], 'parentId' => ['type' => ['integer', 'null'], 'minimum' => 0], 'position' => ['type' => 'integer', 'minimum' => 0]], ['name']),
        'ReportEnvelope' => env1('report', S('Workbook')),
        'UpsertReportRequest' => O(['name' => T_STR, 'workbookId' => T_INT, 'kind' => ['type' => 'string', 'enum' => ['vega', 'table', 'kpi', 'html', 'map']], 'sqlQuery' => T_STR, 'meta' => T_OBJ]),
        'PlacementAddress' => $placementAddr,
        'PlacementAddressOptional' => $placementAddr,
        'Placement' => O(['placementId' => T_STR, 'reportId' => T_INT, 'externalWorkbookId' => T_STR, 'sheetName' => T_STR, 'anchorCell' => T_STR, 'createdAt' => T_DT, 'refreshedAt' => N(T_DT), 'createdBy' => N(T_INT)], ['placementId', 'reportId']),
        'PlacementEnvelope' => env1('placement', S('Placement')),
        'EmbedAccess' => O(['workbookId' => T_INT, 'allEmbedUsers' => ['type' => 'string', 'enum' => ['read', 'none']], 'tenants' => A(O(['tenantId' => T_INT, 'tenantName' => N(T_STR), 'action' => ['type' => 'string', 'enum' => ['read', 'none']]], ['tenantId', 'action']))], ['workbookId', 'allEmbedUsers', 'tenants']),
        'EmbedAccessEnvelope' => env1('embedAccess', S('EmbedAccess')),
        'EmbedAccessRequest' => O(['action' => ['type' => 'string', 'enum' => ['read', 'none']], 'tenantId' => T_INT, 'allEmbedUsers' => T_BOOL], ['action']),
        'AllowEmbedRequest' => O(['allowEmbed' => T_BOOL], ['allowEmbed']),
        'DashboardEnvelope' => env1('dashboard', S('Dashboard')),
        'PythonRunRequest' => O(['reportId' => T_INT, 'filters' => A(T_OBJ)], ['reportId']),
        'PythonRunEnvelope' => env1('pythonRun', O(['reportId' => T_INT, 'status' => T_STR, 'appliedFilters' => T_INT, 'output' => T_OBJ, 'durationMs' => T_INT], ['reportId', 'status'])),
        'CreateDeploymentRequest' => O(['name' => T_STR, 'cloudProvider' => ['type' => 'string', 'enum' => ['<hosted>', 'cubecloud', 'aws', 'gcp']], 'region' => T_STR,
            'creationMethod' => ['type' => 'string', 'enum' => ['upload', '<hosted>', 'cubecloud', 'github', 'ssh']], 'deployMode' => ['type' => 'string', 'enum' => ['git', 'cli']]], ['name']),
        'WriteFilesRequest' => O(['branchName' => T_STR, 'files' => A(O(['path' => T_STR, 'content' => T_STR], ['path', 'content']))], ['files']),
        'RemoveFilesRequest' => O(['branchName' => T_STR, 'paths' => A(T_STR)]),
        'RenameFilesRequest' => O(['branchName' => T_STR, 'files' => A(O(['fromPath' => T_STR, 'toPath' => T_STR], ['fromPath', 'toPath']))], ['files']),
        'FilesEnvelope' => env1('files', O(['branchName' => T_STR, 'written' => A(T_STR), 'removed' => A(T_STR), 'renamed' => A(T_OBJ)], ['branchName'])),
        'ValidationEnvelope' => env1('validation', O(['branchName' => T_STR, 'valid' => T_BOOL, 'errors' => A(O(['fileName' => T_STR, 'line' => T_INT, 'message' => T_STR], ['fileName', 'message'])), 'cubeCount' => T_INT, 'viewCount' => T_INT], ['branchName', 'valid', 'errors'])),
        'UploadStartRequest' => O(['branchName' => T_STR]),
        'UploadFileRequest' => O(['uploadId' => T_STR, 'path' => T_STR, 'content' => T_STR, 'encoding' => ['type' => 'string', 'enum' => ['utf8', 'base64']], 'append' => T_BOOL], ['uploadId', 'path', 'content']),
        'UploadFinishRequest' => O(['uploadId' => T_STR], ['uploadId']),
        'UploadEnvelope' => env1('upload', O(['uploadId' => T_STR, 'branchName' => T_STR, 'status' => ['type' => 'string', 'enum' => ['open', 'finished']], 'fileCount' => T_INT, 'lastHash' => T_STR], ['uploadId', 'branchName', 'status'])),
        'BranchNameRequest' => O(['branchName' => T_STR]),
        'CreateBranchRequest' => O(['name' => T_STR, 'from' => T_STR, 'activate' => T_BOOL, 'personal' => T_BOOL], ['name']),
        'GitRequest' => O(['branchName' => T_STR, 'message' => T_STR, 'targetBranch' => T_STR, 'into' => T_STR], ['branchName']),
        'GitEnvelope' => env1('git', O(['operation' => T_STR, 'branchName' => T_STR, 'lastHash' => T_STR, 'committed' => T_BOOL, 'message' => T_STR, 'updated' => T_BOOL, 'targetBranch' => T_STR, 'targetHash' => T_STR], ['operation', 'branchName', 'lastHash'])),
        'GithubConnectRequest' => O(['repository' => T_STR, 'branch' => T_STR, 'installationId' => T_INT], ['repository']),
        'GithubConnectionEnvelope' => env1('githubConnection', O(['deploymentId' => T_STR, 'repository' => T_STR, 'branch' => T_STR, 'installationId' => N(T_INT), 'connectedAt' => T_DT], ['deploymentId', 'repository'])),
    ];
    foreach (RESOURCES as $name => $res) {
        $k = ucfirst($res['key']);
        $s["{$k}Record"] = genRecordSchema($res);
        $s["{$k}Envelope"] = env1($res['key'], S("{$k}Record"));
        $s["{$k}List"] = listOf(S("{$k}Record"));
        $s["{$k}Create"] = genRequestSchema($res, true);
        $s["{$k}Update"] = genRequestSchema($res, false);
    }
    return $s;
}
const OPTIONAL_BODIES = ['DuplicateRequest', 'DbtSyncRequest', 'UploadStartRequest', 'BranchNameRequest', 'PlacementAddressOptional', 'RemoveFilesRequest', 'UpsertWorkbookRequest'];
function openapiDoc(): array {
    $paths = [];
    $errStatuses = ['400' => 'Bad request', '401' => 'Missing or invalid credentials', '403' => 'Not allowed', '404' => 'Not found', '409' => 'Conflict',
        '412' => 'Precondition failed', '413' => 'Payload too large', '422' => 'Validation failed'];
    foreach ($GLOBALS['ROUTES'] as $r) {
        preg_match_all('#\{([A-Za-z]+)\}#', $r['path'], $m);
        $params = [];
        foreach ($m[1] as $n) $params[] = ['name' => $n, 'in' => 'path', 'required' => true, 'schema' => T_STR];
        foreach ($r['q'] as $qn) $params[] = queryParam($qn);
        $op = ['operationId' => $r['op'], 'tags' => [$r['tag']], 'summary' => $r['summary'] ?: $r['op'], 'security' => [['bearerAuth' => []], ['apiKeyScheme' => []]]];
        if ($params) $op['parameters'] = $params;
        if ($r['body']) $op['requestBody'] = ['required' => !in_array($r['body'], OPTIONAL_BODIES, true), 'content' => ['application/json' => ['schema' => S($r['body'])]]];
        $resp = [];
        foreach ($r['resp'] as $st => $schema) {
            if ($schema === 'CSV') $resp[(string)$st] = ['description' => 'CSV attachment', 'headers' => ['Content-Disposition' => ['schema' => T_STR]], 'content' => ['text/csv' => ['schema' => T_STR]]];
            else $resp[(string)$st] = ['description' => 'Success', 'content' => ['application/json' => ['schema' => S($schema)]]];
        }
        if ($r['m'] === 'GET') $resp['302'] = ['description' => 'Redirect to the canonical spelling of the path (trailing slash)', 'headers' => ['Location' => ['schema' => T_STR]], 'content' => ['application/json' => ['schema' => S('Error')]]];
        foreach ($errStatuses as $st => $desc) $resp[$st] = ['description' => $desc, 'content' => ['application/json' => ['schema' => S('Error')]]];
        $resp['default'] = ['description' => 'Error', 'content' => ['application/json' => ['schema' => S('Error')]]];
        $op['responses'] = $resp;
        $paths[$r['path']][strtolower($r['m'])] = $op;
    }
    return ['openapi' => '3.1.0',
        'info' => ['title' => 'Analytics Platform API', 'version' => '1.0.0', 'description' => 'Independent PHP implementation of the analytics platform management API (interface revision 0.4.0).'],
        'servers' => [['url' => baseUrl()]],
        'tags' => array_map(fn($t) => ['name' => $t], array_values(array_unique(array_column($GLOBALS['ROUTES'], 'tag')))),
        'paths' => $paths,
        'components' => ['schemas' => schemas(), 'securitySchemes' => ['bearerAuth' => ['type' => 'http', 'scheme' => 'bearer'], 'apiKeyScheme' => ['type' => 'apiKey', 'in' => 'header', 'name' => 'Authorization', 'description' => 'Api-Key <key> (legacy)']]],
        'security' => [['bearerAuth' => []]]];
}

<?php
declare(strict_types=1);
// Creates a fresh database and prints {"tokens":{...},"fixtures":{...}} as one JSON line.
require __DIR__ . '/lib.php';
require __DIR__ . '/model.php';
$path = getenv('BP_DB');
foreach ([$path, "$path-wal", "$path-shm"] as $f) if (file_exists($f)) unlink($f);
$pdo = db();
$pdo->exec('PRAGMA journal_mode=WAL');
$pdo->exec('CREATE TABLE docs(seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, id TEXT NOT NULL, dep TEXT, body TEXT NOT NULL, UNIQUE(kind,id))');
$pdo->exec('CREATE INDEX docs_kind_dep ON docs(kind, dep)');
$pdo->exec('CREATE TABLE seqs(name TEXT PRIMARY KEY, val INTEGER NOT NULL)');
foreach (['ws' => 730000, 'user' => 3100, 'rec' => 52000, 'branch' => 810, 'audit' => 0, 'dep' => 120391] as $n => $v) $pdo->prepare('INSERT INTO seqs VALUES(?,?)')->execute([$n, $v]);
$pdo->exec('BEGIN');
$T0 = strtotime('2026-01-05T09:00:00Z');
$day = 86400;
// ---- users and keys ----
$users = [
    'admin' => ['Ada', 'Lovelace', 'admin', ['AuditLogManage', 'SecretsManage', 'DownloadData', 'DeploymentManage']],
    'developer' => ['Dana', 'Ritchie', 'developer', ['SecretsManage', 'DownloadData']],
    'aiBiUser' => ['Iris', 'Novak', 'ai_bi_user', []],
    'viewer' => ['Victor', 'Hale', 'viewer', []],
    'auditor' => ['Audrey', 'Kim', 'viewer', ['AuditLogManage']],
    'scoped' => ['Sam', 'Partner', 'developer', ['SecretsManage']],
    'embedCreator' => ['Emma', 'Creator', 'ai_bi_user', []],
    'deactivated' => ['Derek', 'Gone', 'developer', []],
    'extra1' => ['Grace', 'Hopper', 'developer', []],
    'extra2' => ['Linus', 'Field', 'viewer', []],
    'extra3' => ['Mila', 'Ortiz', 'ai_bi_user', []],
];
$U = []; $tokens = [];
foreach ($users as $k => [$fn, $ln, $role, $perms]) {
    $id = nextId('user');
    $email = strtolower($fn . '.' . $ln) . '@acme-analytics.test';
    $U[$k] = $id;
    dput('user', $id, null, ['id' => $id, 'email' => $email, 'firstName' => $fn, 'lastName' => $ln, 'picture' => $k === 'admin' ? 'https://avatars.example.test/ada.png' : null,
        'role' => $role, 'status' => $k === 'deactivated' ? 'deactivated' : 'active', 'permissions' => $perms,
        'createdAt' => isoTime($T0 - 90 * $day + $id), 'updatedAt' => isoTime($T0 - 10 * $day)]);
    if (str_starts_with($k, 'extra')) continue;
    $tok = 'pk_' . bin2hex(random_bytes(20));
    $tokens[$k] = $tok;
}
// ---- deployments ----
function mkDep(string $id, string $name, int $created, array $extra, int $owner): array {
    $d = array_merge(['id' => $id, 'name' => $name, 'created_at' => isoTime($created), 'updated_at' => isoTime($created + 3 * 86400), 'plan' => 'enterprise',
        'cloudProvider' => 'aws', 'region' => 'us-east-1', 'releaseChannel' => 'latest', 'version' => '1.7.19', 'releaseChannelVersionHold' => false,
        'versionHistory' => ['1.7.13', '1.6.11'], 'template' => 'standard', 'templateVariables' => ['CUBEJS_LOG_LEVEL' => 'info', 'WORKER_COUNT' => '2'],
        'defaultLaunchpadViewGroup' => null, 'launchpadTabs' => ['workbooks', 'dashboards'], 'creationMethod' => 'github', 'deployMode' => 'git',
        'creationStep' => 'finished', 'workbookLimit' => null, 'ownerId' => $owner, 'members' => []], $extra);
    dput('dep', $id, null, $d);
    return $d;
}
$DM = '120340'; $DL = '120357'; $DS = '120374'; $DO = '120391';
mkDep($DM, 'Sales Analytics', $T0 - 60 * $day, [], $U['admin']);
mkDep($DL, 'Marketing Mart', $T0 - 40 * $day, ['plan' => 'starter', 'workbookLimit' => 6, 'releaseChannel' => 'release', 'version' => '1.6.17', 'versionHistory' => ['1.5.28'], 'cloudProvider' => 'gcp', 'region' => 'us-central1'], $U['admin']);
mkDep($DS, 'Partner Sandbox', $T0 - 30 * $day, ['members' => [$U['scoped']], 'cloudProvider' => HOSTED, 'region' => 'hosted-eu', 'creationMethod' => 'upload', 'deployMode' => 'cli'], $U['scoped']);
mkDep($DO, 'Ops Metrics', $T0 - 20 * $day, ['creationStep' => 'credentials', 'version' => '1.7.24', 'versionHistory' => [], 'creationMethod' => HOSTED], $U['developer']);
foreach ($tokens as $k => $tok) dput('key', $tok, null, ['label' => $k, 'userId' => $U[$k], 'scope' => $k === 'scoped' ? $DS : null, 'creatorMode' => $k === 'embedCreator']);
dput('tenant', 'settings', null, ['auditLogEnabled' => true, 'applyThemeGlobally' => false, 'sheetsUi' => true, 'defaultTimezone' => 'UTC',
    'appTheme' => ['primaryColor' => '#4b3ad8', 'mode' => 'light'], 'allowedOrigins' => ['https://portal.acme-analytics.test'], 'sessionTimeoutMinutes' => 720]);
// ---- branches ----
$model = ['model/cubes/orders.yml' => "cubes:\n  - name: orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n",
    'model/cubes/customers.yml' => "cubes:\n  - name: customers\n    sql_table: public.customers\n", 'model/views/sales.yml' => "views:\n  - name: sales\n    cubes:\n      - join_path: orders\n",
    'cube.js' => "module.exports = { contextToAppId: ({ securityContext }) => `app_\${securityContext.tenant}` };\n"];
function mkBranch(string $dep, string $name, string $kind, ?string $parent, ?int $owner, array $files, bool $staging = false, bool $dev = false): void {
    $id = nextId('branch');
    dput('branch', $id, $dep, ['id' => $id, 'name' => $name, 'kind' => $kind, 'parentBranch' => $parent, 'lastHash' => substr(sha1("$dep$name"), 0, 12),
        'isStagingEnvironmentEnabled' => $staging, 'ownerId' => $owner, 'devMode' => $dev, 'files' => $files, 'dirty' => false, 'createdAt' => isoTime(strtotime('2026-01-02T10:00:00Z') + $id)]);
}
foreach ([$DM, $DL, $DS, $DO] as $dep) mkBranch($dep, 'main', 'production', null, null, $model);
mkBranch($DM, 'analytics-v2', 'shared', 'main', $U['developer'], $model, true);
mkBranch($DM, 'feature-churn', 'shared', 'main', $U['developer'], $model, false);
mkBranch($DM, 'feature-churn-fail', 'shared', 'feature-churn', $U['extra1'], $model, false);
mkBranch($DM, 'dev-dana', 'personal', 'analytics-v2', $U['developer'], $model + ['model/cubes/broken.yml' => "cubes:\n\t- name: broken\n"], false, true);
mkBranch($DM, 'dev-ada', 'personal', 'main', $U['admin'], $model, false, false);
mkBranch($DS, 'partner-staging', 'shared', 'main', $U['scoped'], $model, true);
mkBranch($DL, 'campaign-tests', 'shared', 'main', $U['admin'], $model, false);
// ---- env vars ----
$vars = ['CUBEJS_DB_HOST' => 'db.internal.acme.test', 'CUBEJS_DB_NAME' => 'analytics', 'CUBEJS_DB_USER' => 'cube_reader', 'CUBEJS_DB_PASS' => 's3cr3t-pass',
    'CUBEJS_API_SECRET' => 'api-secret-value', 'AWS_ACCESS_KEY_ID' => 'AKIAEXAMPLE', 'STRIPE_TOKEN' => 'tok_live_123', 'GCP_CREDENTIALS_JSON' => '{"type":"service_account"}',
    'LOG_LEVEL' => 'info', 'TZ' => 'UTC', 'FEATURE_FLAGS' => 'beta-charts,ai', 'CACHE_TTL_SECONDS' => '600', 'db_password_hint' => 'ask ops', 'MONKEY_BUSINESS' => 'bananas',
    'REGION_LABEL' => 'North America', 'ROLLOUT_PERCENT' => '25', 'SLACK_WEBHOOK' => 'https://hooks.example.test/x', 'QUERY_TIMEOUT' => '120', 'EXPORT_BUCKET' => 's3://acme-exports'];
foreach ($vars as $n => $v) dput('envvar', "$DM/$n", $DM, ['name' => $n, 'value' => $v, 'updatedAt' => isoTime($T0)]);
foreach (['CUBEJS_DB_HOST' => 'mart.internal', 'CUBEJS_DB_PASS' => 'x'] as $n => $v) dput('envvar', "$DL/$n", $DL, ['name' => $n, 'value' => $v, 'updatedAt' => isoTime($T0)]);
foreach (['PARTNER_NAME' => 'Globex', 'PARTNER_API_KEY' => 'k-123'] as $n => $v) dput('envvar', "$DS/$n", $DS, ['name' => $n, 'value' => $v, 'updatedAt' => isoTime($T0)]);
// ---- workspace ----
function ws(array $it): array { wsSave($it); return $it; }
function folder(string $dep, string $name, ?int $parent, int $owner, int $ts, array $grants = [], bool $restricted = false): int {
    $id = wsId();
    ws(['id' => $id, 'deploymentId' => (int)$dep, 'type' => 'FOLDER', 'name' => $name, 'meta' => [], 'calculatedFields' => [], 'createdAt' => isoTime($ts), 'updatedAt' => isoTime($ts),
        'ownerId' => $owner, 'folderId' => $parent, 'slug' => null, 'favoritedBy' => [], 'grants' => $grants, 'restricted' => $restricted, 'position' => 0]);
    return $id;
}
$kinds = ['vega', 'table', 'kpi', 'html', 'map'];
function workbook(string $dep, string $name, ?int $folder, int $owner, int $ts, int $nReports = 0, string $dash = 'none', array $opt = []): array {
    global $kinds;
    $id = wsId();
    $dateOnly = $opt['dateOnly'] ?? false;
    $wb = ['id' => $id, 'deploymentId' => (int)$dep, 'type' => 'WORKBOOK', 'name' => $name,
        'meta' => $opt['meta'] ?? ['description' => "$name workbook", 'tags' => ['seed']], 'calculatedFields' => $opt['calc'] ?? [],
        'createdAt' => $dateOnly ? gmdate('Y-m-d', $ts) : isoTime($ts), 'updatedAt' => $dateOnly ? gmdate('Y-m-d', $ts + 86400) : isoTime($ts + 3600 * ($id % 50)),
        'ownerId' => $owner, 'folderId' => $folder, 'slug' => $opt['slug'] ?? null, 'favoritedBy' => $opt['fav'] ?? [], 'grants' => $opt['grants'] ?? [], 'restricted' => false];
    $reports = [];
    for ($i = 0; $i < $nReports; $i++) {
        $rid = wsId();
        $k = $kinds[($id + $i) % 5];
        $r = ws(['id' => $rid, 'deploymentId' => (int)$dep, 'type' => 'REPORT', 'name' => "$name report " . ($i + 1), 'meta' => ['chart' => $k], 'calculatedFields' => [],
            'createdAt' => isoTime($ts + 60 * ($i + 1)), 'updatedAt' => isoTime($ts + 7200 * ($i + 1)), 'ownerId' => $owner, 'folderId' => $folder, 'slug' => null,
            'favoritedBy' => [], 'grants' => [], 'workbookId' => $id, 'publicId' => 'rpt_' . substr(md5("$dep$rid"), 0, 12), 'kind' => $k,
            'sqlQuery' => "SELECT status, COUNT(*) FROM orders GROUP BY 1 -- $i", 'pythonCode' => $i === 1 ? "df = run_query()\nresult = df.groupby('month').sum()" : null,
            'lastViewedAt' => (($rid + $i) % 3 !== 0) ? isoTime($ts + 86400 * (2 + $i)) : null, 'placements' => []]);
        $reports[] = $r;
    }
    if ($reports && $dash !== 'none') {
        $widgets = []; $snaps = [];
        foreach ($reports as $i => $r) {
            $widgets[] = ['id' => "w$i", 'type' => 'CHART', 'position' => ['x' => ($i % 2) * 6, 'y' => intdiv($i, 2) * 4, 'w' => 6, 'h' => 4], 'config' => ['reportId' => $r['id']], 'style' => null,
                'responsiveLayouts' => ['lg' => ['x' => 0, 'y' => $i * 4, 'w' => 12, 'h' => 4], 'md' => null]];
            $snaps[] = ['id' => wsId(), 'reportId' => $r['id'], 'versionNumber' => 2, 'kind' => $r['kind'], 'name' => $r['name'], 'title' => $r['name'], 'description' => null,
                'sqlQuery' => $r['sqlQuery'], 'pythonCode' => $r['pythonCode'], 'spec' => $r['kind'] === 'vega' ? ['mark' => 'bar'] : null, 'meta' => ['source' => 'seed'],
                'isSourceReport' => true, 'fillMissingRows' => $i === 0 ? ['member' => 'orders.createdAt', 'excludedDimensions' => null] : null,
                'periodComparisons' => $i === 0 ? [['measure' => 'orders.count', 'timeDimension' => 'orders.createdAt', 'offset' => ['amount' => 1, 'unit' => 'year'], 'outputs' => ['value', 'percentChange']]] : null,
                'preferences' => ['columnFormats' => ['orders.total' => ['type' => 'currency', 'decimalPlaces' => 2]]]];
        }
        $widgets[] = ['id' => 'tabs1', 'type' => 'CONTAINER', 'position' => ['x' => 0, 'y' => 20, 'w' => 12, 'h' => 2], 'config' => ['layout' => 'tabs'], 'style' => ['background' => '#fff']];
        $cfg = ['kind' => 'CLASSIC', 'title' => "$name dashboard", 'description' => "Overview of $name", 'widgets' => $widgets,
            'layout' => ['breakpoints' => ['lg' => 1200, 'md' => 996, 'sm' => 768, 'xs' => 480, 'xxs' => 0], 'cols' => ['lg' => 12, 'md' => 10, 'sm' => 6, 'xs' => 4, 'xxs' => 2],
                'containerPadding' => [8, 8], 'margin' => [10, 10], 'rowHeight' => 30], 'settings' => ['refreshInterval' => 300], 'theme' => ['palette' => 'default']];
        $wb['dashboardDraft'] = $cfg;
        if (!empty($opt['legacyTabs'])) { $wb['dashboardDraft']['widgets'][count($widgets) - 1]['type'] = 'TABS_CONTAINER'; unset($wb['dashboardDraft']['widgets'][count($widgets) - 1]['config']); }
        if ($dash === 'published' || $dash === 'embed' || $dash === 'archived') {
            $wb['dashboard'] = ['id' => wsId(), 'publicId' => 'dsh_' . substr(md5("d$dep$id"), 0, 14), 'status' => $dash === 'archived' ? 'archived' : 'published',
                'allowEmbed' => $dash === 'embed', 'config' => $cfg, 'versionNumber' => 3, 'versionId' => wsId(), 'reportSnapshots' => $snaps, 'createdBy' => $owner,
                'title' => "$name dashboard", 'description' => null, 'fromSharedWorkspace' => false, 'restrictDataDownload' => $dash === 'embed', 'useBoardDashboards' => null,
                'embedAccess' => ['all' => $dash === 'embed' ? 'read' : 'none', 'tenants' => []]];
        }
    }
    return ws($wb);
}
$t = $T0 - 30 * $day;
$fFin = folder($DM, 'Finance', null, $U['extra1'], $t, [(string)$U['aiBiUser'] => 'read', (string)$U['developer'] => 'edit', (string)$U['auditor'] => 'read'], true);
$fQ = folder($DM, 'Quarterly', $fFin, $U['extra1'], $t + 100);
$fArc = folder($DM, 'Archive', $fQ, $U['extra1'], $t + 200);
$f23 = folder($DM, '2023', $fArc, $U['extra1'], $t + 300);
$fSand = folder($DM, 'Sandbox', null, $U['admin'], $t + 400, [(string)$U['aiBiUser'] => 'edit', (string)$U['embedCreator'] => 'edit', (string)$U['viewer'] => 'read']);
$fExec = folder($DM, 'Executive', null, $U['admin'], $t + 500, [], true);
$fMkt = folder($DM, 'Marketing', null, $U['developer'], $t + 600);
$fCamp = folder($DM, 'Campaigns', $fMkt, $U['developer'], $t + 700);
$fEmpty = folder($DM, 'Scratch', null, $U['developer'], $t + 800);
$specs = [
    ['Revenue Overview', null, 'admin', 3, 'embed', ['slug' => 'revenue-overview', 'fav' => [$U['admin'], $U['viewer']], 'calc' => ['margin' => ['sql' => 'revenue - cost', 'type' => 'number']]]],
    ['Pipeline Health', null, 'developer', 2, 'published', ['slug' => 'pipeline-health']],
    ['Churn Drivers', null, 'developer', 2, 'draft', ['legacyTabs' => true]],
    ['Weekly KPIs', null, 'admin', 1, 'published', ['dateOnly' => true]],
    ['Inventory', null, 'extra1', 0, 'none', ['dateOnly' => true]],
    ['Support Tickets', null, 'aiBiUser', 1, 'none', []],
    ['Budget 2026', $fFin, 'extra1', 2, 'published', ['slug' => 'budget-2026']],
    ['Cash Flow', $fFin, 'extra1', 1, 'draft', []],
    ['Q1 Close', $fQ, 'extra1', 2, 'published', []],
    ['Q2 Close', $fQ, 'extra1', 0, 'none', []],
    ['FY22 Archive', $fArc, 'extra1', 1, 'archived', []],
    ['2023 Audit Trail', $f23, 'extra1', 1, 'none', []],
    ['Playground', $fSand, 'aiBiUser', 2, 'published', ['slug' => 'playground']],
    ['Ideas', $fSand, 'embedCreator', 0, 'none', []],
    ['Board Pack', $fExec, 'admin', 2, 'published', []],
    ['Campaign ROI', $fCamp, 'developer', 3, 'published', []],
    ['Attribution', $fCamp, 'developer', 1, 'draft', []],
    ['Brand Survey', $fMkt, 'extra3', 1, 'none', []],
];
for ($i = 1; $i <= 26; $i++) $specs[] = ["Regional Report " . str_pad((string)$i, 2, '0', STR_PAD_LEFT), $i % 4 === 0 ? $fMkt : null, ['admin', 'developer', 'extra1', 'aiBiUser'][$i % 4], $i % 5 === 0 ? 1 : 0, $i % 5 === 0 ? 'published' : 'none', []];
foreach ($specs as $i => [$name, $folder, $owner, $nr, $dash, $opt]) workbook($DM, $name, $folder, $U[$owner], $t + 1000 + $i * 5400, $nr, $dash, $opt);
for ($i = 1; $i <= 6; $i++) workbook($DL, "Mart Workbook $i", null, $U['admin'], $t + $i * 7200, $i === 1 ? 2 : 0, $i === 1 ? 'published' : 'none');
$fP = folder($DS, 'Partner Shared', null, $U['scoped'], $t);
workbook($DS, 'Partner KPIs', $fP, $U['scoped'], $t + 100, 2, 'published', ['slug' => 'partner-kpis']);
workbook($DS, 'Partner Notes', null, $U['scoped'], $t + 200);
workbook($DO, 'Ops Overview', null, $U['developer'], $t + 300, 1, 'published');
// ---- audit ----
$events = ['Logged in', 'Logged out', 'API key created', 'Deployment updated', 'Workbook deleted', 'User invited', 'Password changed', 'Environment variables updated'];
$emails = [];
foreach (['admin', 'developer', 'aiBiUser', 'viewer', 'auditor'] as $k) $emails[] = dget('user', $U[$k])['email'];
$aid = 0;
for ($i = 0; $i < 36; $i++) {
    $aid = nextId('audit');
    $ev = $events[$i % count($events)];
    $attrs = ['userAgent' => 'Mozilla/5.0', 'requestId' => 'req_' . substr(md5((string)$i), 0, 8)];
    if ($ev === 'API key created') $attrs['apiKey'] = 'pk_live_' . substr(md5((string)$i), 0, 10);
    if ($ev === 'Password changed') $attrs['newPassword'] = 'hunter2';
    if ($ev === 'Deployment updated') $attrs['fields'] = ['releaseChannel'];
    dput('audit', $aid, null, ['id' => $aid, 'ts' => $T0 - 8 * $day + $i * 19000, 'eventName' => $ev, 'userEmail' => $emails[$i % 5],
        'deploymentName' => $i % 3 === 0 ? null : ($i % 2 ? 'Sales Analytics' : 'Marketing Mart'), 'ip' => '203.0.113.' . (10 + $i), 'attributes' => $attrs]);
}
// ---- dbt history ----
$st = ['completed', 'failed', 'completed', 'canceled', 'completed'];
foreach ($st as $i => $s) {
    $id = 'sync_seed' . $i;
    dput('dbt', $id, $DM, ['id' => $id, 'deploymentId' => $DM, 'branchName' => $s === 'failed' ? 'feature-churn-fail' : 'main', 'ref' => $i % 2 ? 'v1.' . $i : null,
        'status' => $s, 'trigger' => ['api', 'schedule', 'manual'][$i % 3], 'createdAt' => isoTime($T0 - (5 - $i) * $day), 'finishedAt' => isoTime($T0 - (5 - $i) * $day + 90),
        'createdBy' => $emails[0], 'startedTs' => (float)($T0 - (5 - $i) * $day)]);
}
// ---- other records ----
function rec(string $kind, string $scope, array $r): int { $id = nextId('rec'); dput($kind, $id, $scope, ['id' => $id] + $r + ['createdAt' => isoTime(strtotime('2026-01-03T12:00:00Z')), 'updatedAt' => isoTime(strtotime('2026-01-03T12:00:00Z')), 'createdBy' => 3101, '_scope' => $scope]); return $id; }
$g1 = rec('group', 'acct', ['name' => 'Engineering', 'description' => 'Data engineers', 'userIds' => [$U['developer'], $U['extra1']]]);
rec('group', 'acct', ['name' => 'Finance', 'description' => 'Finance team', 'userIds' => [$U['aiBiUser']]]);
rec('policy', 'acct', ['name' => 'Audit access', 'actions' => ['AuditLogManage'], 'userIds' => [$U['auditor']], 'groupIds' => []]);
rec('policy', 'acct', ['name' => 'Secrets for engineering', 'actions' => ['SecretsManage', 'DownloadData'], 'userIds' => [], 'groupIds' => [$g1]]);
$tn = rec('embedTenant', 'acct', ['name' => 'Globex Portal', 'externalId' => 'globex', 'description' => 'Customer portal']);
rec('embedTenant', 'acct', ['name' => 'Initech Portal', 'externalId' => 'initech', 'description' => null]);
$eu = rec('embedUser', "embedTenant$tn", ['email' => 'hank@globex.test', 'externalId' => 'hank', 'firstName' => 'Hank', 'attributes' => ['region' => 'EMEA'], '_tenant' => $tn]);
$eg = rec('embedGroup', "embedTenant$tn", ['name' => 'Globex Analysts', 'description' => null, '_tenant' => $tn]);
rec('embedMember', "embedGroup$eg", ['userId' => $eu]);
rec('userAttribute', 'acct', ['name' => 'region', 'type' => 'string', 'description' => 'Sales region', 'defaultValue' => 'NA']);
rec('userAttribute', 'acct', ['name' => 'accountIds', 'type' => 'number_array', 'description' => null, 'defaultValue' => null]);
dput('attrValues', $U['aiBiUser'], null, ['values' => ['region' => 'EMEA']]);
$oi = rec('oauthIntegration', 'acct', ['name' => 'Google Sheets', 'provider' => 'google', 'clientId' => 'client-123.apps.example', 'clientSecret' => 'gsecret', 'scopes' => ['sheets'], 'authorizeUrl' => null, 'tokenUrl' => null]);
rec('userOauthToken', 'acct', ['integrationId' => $oi, 'accessToken' => 'ya29.x', 'refreshToken' => '1//r', 'expiresAt' => '2026-12-31T00:00:00+00:00', 'userId' => $U['admin']]);
rec('oidcTokenConfig', 'acct', ['name' => 'Okta', 'issuer' => 'https://acme.okta.example', 'audience' => 'platform', 'jwksUrl' => null, 'claimMappings' => ['email' => 'sub']]);
$wbs = array_values(array_filter(wsAll($DM), fn($x) => $x['type'] === 'WORKBOOK'));
rec('notification', "d$DM", ['name' => 'Monday revenue digest', 'workbookId' => $wbs[0]['id'], 'schedule' => '0 8 * * 1', 'timezone' => 'Europe/Berlin', 'timeGrain' => 'week',
    'recipients' => ['ada.lovelace@acme-analytics.test'], 'filters' => [['member' => 'orders.status', 'operator' => 'equals', 'values' => ['paid']], ['member' => 'orders.note', 'operator' => 'is_not_empty', 'values' => []]], 'enabled' => true]);
$pdo->exec('COMMIT');
echo jenc(['tokens' => $tokens, 'fixtures' => ['mutableDeploymentId' => $DM, 'workbookLimitDeploymentId' => $DL, 'scopedDeploymentId' => $DS, 'wizardDeploymentId' => $DO]]) . "\n";

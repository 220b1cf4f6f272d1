<?php
declare(strict_types=1);
// Roles, callers, access, serializers.
const ROLE_RANK = ['viewer' => 1, 'ai_bi_user' => 2, 'developer' => 3, 'admin' => 4];
const ROLE_LABEL = ['viewer' => 'Viewer', 'ai_bi_user' => 'AI BI User', 'developer' => 'Developer', 'admin' => 'Admin'];
const LEVELS = ['none' => 0, 'read' => 1, 'edit' => 2, 'manage' => 3];
const HOSTED = 'cubecloud';
const SECRET_WORDS = ['PASS', 'SECRET', 'TOKEN', 'KEY', 'CREDENTIAL'];

function C(): array { return $GLOBALS['CALLER']; }
function me(): array { return $GLOBALS['CALLER']['user']; }
function rank(): int { return ROLE_RANK[me()['role']] ?? 0; }
function needRole(string $role, string $what = 'this operation'): void {
    if (rank() < ROLE_RANK[$role]) fail(403, 'ROLE_TOO_LOW', "the " . ROLE_LABEL[$role] . " role or higher is required for $what");
}
function hasPerm(string $p): bool { return me()['role'] === 'admin' || in_array($p, me()['permissions'] ?? [], true); }
function accountWrite(): void {
    if (C()['scope'] !== null) fail(403, 'KEY_SCOPED', 'this key is limited to one deployment and cannot change account-level resources');
    needRole('admin', 'account administration');
}

// ---- deployments ----
function depVisible(array $d): bool {
    $c = C();
    if ($c['scope'] !== null) return $c['scope'] === $d['id'];
    if (!empty($d['members'])) return in_array(me()['id'], $d['members'], true);
    return true;
}
function depOr404(string $id): array {
    $d = preg_match('/^\d{1,12}$/', $id) ? dget('dep', $id) : null;
    if (!$d) fail(404, 'DEPLOYMENT_NOT_FOUND', "deployment $id not found");
    $c = C();
    if ($c['scope'] !== null && $c['scope'] !== $d['id']) fail(403, 'KEY_SCOPED', "this key is not allowed to access deployment $id");
    if (!depVisible($d)) fail(404, 'DEPLOYMENT_NOT_FOUND', "deployment $id not found");
    return $d;
}
function depListItem(array $d): array {
    return ['id' => $d['id'], 'name' => $d['name'], 'created_at' => $d['created_at'], 'plan' => $d['plan'],
        'ownerEmail' => dget('user', $d['ownerId'])['email'] ?? null, 'workbookLimit' => $d['workbookLimit']];
}
function depFull(array $d): array {
    $tv = $d['templateVariables'] ?? [];
    foreach ($tv as $k => $v) if (isSecretName((string)$k)) unset($tv[$k]);
    return ['id' => $d['id'], 'name' => $d['name'], 'created_at' => $d['created_at'], 'updated_at' => $d['updated_at'],
        'plan' => $d['plan'], 'cloudProvider' => $d['cloudProvider'], 'region' => $d['region'],
        'releaseChannel' => $d['releaseChannel'], 'releaseChannelVersion' => imageRef($d['version']), 'version' => $d['version'],
        'releaseChannelVersionHold' => $d['releaseChannelVersionHold'], 'image' => imageRef($d['version']),
        'template' => $d['template'], 'templateVariables' => obj($tv),
        'defaultLaunchpadViewGroup' => $d['defaultLaunchpadViewGroup'], 'launchpadTabs' => $d['launchpadTabs'],
        'creationMethod' => $d['creationMethod'], 'deployMode' => $d['deployMode'], 'creationStep' => $d['creationStep'],
        'workbookLimit' => $d['workbookLimit']];
}
function isSecretName(string $n): bool { $u = strtoupper($n); foreach (SECRET_WORDS as $w) if (str_contains($u, $w)) return true; return false; }

// ---- versions ----
const CHANNELS = ['latest' => ['1.7.13', '1.7.19', '1.7.24'], 'release' => ['1.5.28', '1.6.11', '1.6.17']];
function imageRef(string $v): string { return "cubejs/cube:v$v"; }
function channelOf(string $v): ?string { foreach (CHANNELS as $c => $vs) if (in_array($v, $vs, true)) return $c; return null; }
function headOf(string $c): string { $a = CHANNELS[$c]; return $a[count($a) - 1]; }
function versionSet(array $d): array {
    $set = [headOf('latest'), headOf('release'), $d['version']];
    foreach ($d['versionHistory'] ?? [] as $v) $set[] = $v;
    $set = array_values(array_unique($set));
    $out = [];
    foreach (['latest', 'release'] as $c) {
        $vs = array_values(array_filter($set, fn($v) => channelOf($v) === $c));
        usort($vs, 'version_compare');
        foreach ($vs as $v) $out[] = ['releaseChannelVersion' => imageRef($v), 'version' => $v, 'releaseChannel' => $c,
            'isLatestInChannel' => $v === headOf($c), 'isCurrent' => $v === $d['version']];
    }
    return $out;
}

// ---- workspace ----
$GLOBALS['WSCACHE'] = [];
function wsAll(string $dep, bool $fresh = false): array {
    if ($fresh || !isset($GLOBALS['WSCACHE'][$dep])) {
        $m = [];
        foreach (dlist('ws', $dep) as $it) $m[$it['id']] = $it;
        $GLOBALS['WSCACHE'][$dep] = $m;
    }
    return $GLOBALS['WSCACHE'][$dep];
}
function wsSave(array $it): void { dput('ws', $it['id'], $it['deploymentId'], $it); $GLOBALS['WSCACHE'][(string)$it['deploymentId']][$it['id']] = $it; }
function wsDelete(array $it): void { ddel('ws', $it['id']); unset($GLOBALS['WSCACHE'][(string)$it['deploymentId']][$it['id']]); }
function folderChain(?int $folderId, array $all): array {
    $out = []; $seen = [];
    while ($folderId !== null && isset($all[$folderId]) && !isset($seen[$folderId])) {
        $seen[$folderId] = 1; $out[] = $all[$folderId]; $folderId = $all[$folderId]['folderId'] ?? null;
    }
    return $out; // nearest first
}
// 0 none, 1 read, 2 edit, 3 manage
function access(?array $item, array $all): int {
    $u = me();
    if ($u['role'] === 'admin') return 3;
    $chain = $item ? array_merge([$item], folderChain($item['folderId'] ?? null, $all)) : [];
    foreach ($chain as $n) if (($n['ownerId'] ?? null) === $u['id']) return 3;
    $restricted = false;
    foreach ($chain as $n) {
        $g = $n['grants'][(string)$u['id']] ?? null;
        if ($g !== null) return LEVELS[$g];
        if (!empty($n['restricted'])) $restricted = true;
    }
    if ($restricted) return 0;
    return ['developer' => 2, 'ai_bi_user' => 1, 'viewer' => 1][$u['role']] ?? 0;
}
// edit access to a destination folder (null = root: AI BI User or higher)
function canEditFolder(?int $folderId, array $all): bool {
    if ($folderId === null) return rank() >= 2;
    return isset($all[$folderId]) && access($all[$folderId], $all) >= 2 && rank() >= 2;
}
function owner(?int $uid): ?array {
    if ($uid === null) return null;
    $u = dget('user', $uid); if (!$u) return null;
    return ['id' => $u['id'], 'email' => $u['email'], 'firstName' => $u['firstName'], 'picture' => $u['picture'] ?? null];
}
function wbOut(array $it, array $all): array {
    $path = array_reverse(array_map(fn($f) => ['id' => $f['id'], 'name' => $f['name']], folderChain($it['folderId'] ?? null, $all)));
    array_pop($path); // ancestors of the containing folder, root first, without the containing folder itself
    $o = ['id' => $it['id'], 'deploymentId' => (int)$it['deploymentId'], 'name' => $it['name'], 'type' => $it['type'],
        'meta' => obj($it['meta'] ?? []), 'calculatedFields' => obj($it['calculatedFields'] ?? []),
        'createdAt' => $it['createdAt'], 'updatedAt' => $it['updatedAt'], 'createdBy' => $it['ownerId'],
        'userId' => $it['ownerId'], 'user' => owner($it['ownerId']), 'folderId' => $it['folderId'] ?? null];
    if ($path) $o['folderPath'] = $path;
    $o['isFavorite'] = in_array(me()['id'], $it['favoritedBy'] ?? [], true);
    $o['slug'] = $it['slug'] ?? null;
    if ($it['type'] === 'WORKBOOK') {
        $o['dashboardDraft'] = isset($it['dashboardDraft']) ? cfgOut($it['dashboardDraft']) : null;
        $pd = $it['dashboard'] ?? null;
        $o['dashboardPublished'] = $pd && $pd['status'] === 'published' ? cfgOut($pd['config']) : null;
        $o['publishedDashboard'] = $pd ? dashOut($pd, $it) : null;
    } else { $o['dashboardDraft'] = null; $o['dashboardPublished'] = null; $o['publishedDashboard'] = null; }
    if ($it['type'] === 'REPORT') {
        $o['workbookId'] = $it['workbookId']; $o['publicId'] = $it['publicId']; $o['kind'] = $it['kind'] ?? null;
        $o['lastViewedAt'] = $it['lastViewedAt'] ?? null;
    }
    if ($it['type'] === 'FOLDER') { $o['parentId'] = $it['folderId'] ?? null; $o['position'] = $it['position'] ?? 0; }
    return $o;
}
function cfgOut($c) {
    $c = asArr($c);
    foreach ($c['widgets'] ?? [] as $i => $w) if (($w['type'] ?? null) === 'TABS_CONTAINER') { // legacy stored value, converted on the way out
        $cfg = asArr($w['config'] ?? []); $cfg['layout'] = 'tabs'; $c['widgets'][$i]['type'] = 'CONTAINER'; $c['widgets'][$i]['config'] = $cfg;
    }
    foreach (['settings', 'theme'] as $k) if (array_key_exists($k, $c) && $c[$k] !== null) $c[$k] = obj($c[$k]); return obj($c); }
function dashOut(array $d, array $wb): array {
    return ['id' => $d['id'], 'publicId' => $d['publicId'], 'deploymentId' => (int)$wb['deploymentId'], 'workbookId' => $wb['id'],
        'status' => $d['status'], 'allowEmbed' => (bool)$d['allowEmbed'], 'config' => cfgOut($d['config']),
        'versionNumber' => $d['versionNumber'], 'versionId' => $d['versionId'],
        'reportSnapshots' => array_map(fn($s) => snapOut($s), $d['reportSnapshots'] ?? []),
        'createdBy' => $d['createdBy'] ?? null, 'title' => $d['title'] ?? null, 'description' => $d['description'] ?? null,
        'fromSharedWorkspace' => $d['fromSharedWorkspace'] ?? false, 'restrictDataDownload' => $d['restrictDataDownload'] ?? false,
        'useBoardDashboards' => $d['useBoardDashboards'] ?? null];
}
function snapOut(array $s): array {
    if (isset($s['meta'])) $s['meta'] = obj($s['meta']);
    if (isset($s['spec']) && is_array($s['spec'])) $s['spec'] = obj($s['spec']);
    if (isset($s['preferences']['columnFormats'])) $s['preferences']['columnFormats'] = obj($s['preferences']['columnFormats']);
    return $s;
}
// DashboardConfig validation; converts TABS_CONTAINER. Returns normalised config.
const WIDGET_TYPES = ['CHART', 'TEXT', 'FILTER', 'AI', 'TIME_GRAIN', 'PARENT', 'SPACER', 'DIVIDER', 'CONTAINER'];
function validateConfig($c, string $f): array {
    if (!($c instanceof stdClass) && !isObj($c)) vfail($f, 'must be an object');
    $c = asArr($c);
    if (isset($c['kind']) && !in_array($c['kind'], ['CLASSIC', 'APP'], true)) vfail("$f.kind", 'must be CLASSIC or APP');
    foreach (['title', 'description'] as $k) if (isset($c[$k]) && !is_string($c[$k])) vfail("$f.$k", 'must be a string');
    foreach (['settings', 'theme'] as $k) if (isset($c[$k]) && !($c[$k] instanceof stdClass) && !isObj($c[$k])) vfail("$f.$k", 'must be an object');
    if (isset($c['widgets'])) {
        if (!isList($c['widgets'])) vfail("$f.widgets", 'must be an array');
        foreach ($c['widgets'] as $i => $w) {
            $wf = "$f.widgets[$i]";
            if (!isObj($w)) vfail($wf, 'must be an object');
            if (!isset($w['id']) || !is_string($w['id'])) vfail("$wf.id", 'is required and must be a string');
            $t = $w['type'] ?? null;
            if ($t === 'TABS_CONTAINER') { $t = 'CONTAINER'; $cfg = asArr($w['config'] ?? []); $cfg['layout'] = 'tabs'; $w['config'] = $cfg; }
            if (!is_string($t) || !in_array($t, WIDGET_TYPES, true)) vfail("$wf.type", 'must be one of ' . implode(', ', WIDGET_TYPES));
            $w['type'] = $t;
            $p = $w['position'] ?? null;
            if (!isObj($p)) vfail("$wf.position", 'is required and must be an object');
            foreach (['x', 'y', 'w', 'h'] as $k) if (!isset($p[$k]) || !isInt($p[$k])) vfail("$wf.position.$k", 'is required and must be an integer');
            foreach (['config', 'style'] as $k) if (isset($w[$k]) && !($w[$k] instanceof stdClass) && !isObj($w[$k])) vfail("$wf.$k", 'must be an object or null');
            if (isset($w['responsiveLayouts']) && !($w['responsiveLayouts'] instanceof stdClass) && !isObj($w['responsiveLayouts'])) vfail("$wf.responsiveLayouts", 'must be an object');
            $c['widgets'][$i] = $w;
        }
    }
    if (isset($c['layout'])) {
        $l = $c['layout'];
        if (!($l instanceof stdClass) && !isObj($l)) vfail("$f.layout", 'must be an object');
        $l = asArr($l);
        if (isset($l['rowHeight']) && !isInt($l['rowHeight'])) vfail("$f.layout.rowHeight", 'must be an integer');
        foreach (['containerPadding', 'margin'] as $k) if (isset($l[$k])) { if (!isList($l[$k])) vfail("$f.layout.$k", 'must be an array of integers'); foreach ($l[$k] as $x) if (!isInt($x)) vfail("$f.layout.$k", 'must be an array of integers'); }
        foreach (['breakpoints', 'cols'] as $k) if (isset($l[$k])) { if (!($l[$k] instanceof stdClass) && !isObj($l[$k])) vfail("$f.layout.$k", 'must be an object'); foreach (asArr($l[$k]) as $kk => $x) if ($x !== null && !isInt($x)) vfail("$f.layout.$k.$kk", 'must be an integer or null'); }
    }
    if (isset($c['app'])) {
        $a = $c['app'];
        if (!($a instanceof stdClass) && !isObj($a)) vfail("$f.app", 'must be an object');
        $a = asArr($a);
        if (isset($a['entry'])) { if (!is_string($a['entry'])) vfail("$f.app.entry", 'must be a string'); if (strlen($a['entry']) > 255) vfail("$f.app.entry", 'must be at most 255 characters'); }
        if (isset($a['html']) && !is_string($a['html'])) vfail("$f.app.html", 'must be a string');
        if (isset($a['files'])) { if (!($a['files'] instanceof stdClass) && !isObj($a['files'])) vfail("$f.app.files", 'must be an object'); foreach (asArr($a['files']) as $x) if (!is_string($x)) vfail("$f.app.files", 'values must be strings'); }
    }
    return $c;
}

// ---- environments ----
function envId(string $dep, int $branchId, string $type): string { return md5(getenv('BP_SALT') . "|$dep|$branchId|$type"); }
function environments(array $d): array {
    $out = [];
    foreach (dlist('branch', $d['id']) as $b) {
        $type = null;
        if ($b['kind'] === 'production') $type = 'production';
        elseif ($b['kind'] === 'shared' && $b['isStagingEnvironmentEnabled']) $type = 'staging';
        elseif ($b['kind'] === 'personal' && !empty($b['devMode'])) $type = 'development';
        if (!$type) continue;
        $id = envId($d['id'], $b['id'], $type);
        $host = ($type === 'production' ? '' : "$type--" . preg_replace('/[^a-z0-9]+/', '-', strtolower($b['name'])) . '--') . "d{$d['id']}.analytics.example.test";
        $ownerEmail = dget('user', $b['ownerId'] ?? $d['ownerId'])['email'] ?? '';
        $out[] = ['id' => $id, 'type' => $type, 'branch' => $b['name'], 'user' => $ownerEmail,
            'name' => ucfirst($type) . ' (' . $b['name'] . ')',
            'api_credentials' => [
                ['type' => 'rest', 'version' => 1, 'database' => 'cube', 'host' => $host, 'port' => 443, 'url' => "https://$host/cubejs-api/v1"],
                ['type' => 'sql', 'version' => 1, 'database' => 'cube', 'host' => $host, 'port' => 6432, 'url' => "postgres://$host:6432/cube"]]];
    }
    usort($out, fn($a, $b) => [$a['type'], $a['branch']] <=> [$b['type'], $b['branch']]);
    return $out;
}

function audit(string $event, ?string $depName, array $attrs = []): void {
    $id = nextId('audit');
    dput('audit', $id, null, ['id' => $id, 'ts' => time(), 'eventName' => $event, 'userEmail' => me()['email'],
        'deploymentName' => $depName, 'ip' => $_SERVER['REMOTE_ADDR'] ?? '127.0.0.1', 'attributes' => obj($attrs)]);
}

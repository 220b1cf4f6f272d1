<?php
declare(strict_types=1);
// E1..E13

function h_listDeployments(array $p): never {
    $offset = qint('offset', 0, 0); $limit = qint('limit', 1, 20, MAX_PAGE);
    $deps = array_values(array_filter(dlist('dep'), 'depVisible'));
    usort($deps, fn($a, $b) => strcasecmp($b['name'], $a['name']));
    $page = array_slice($deps, $offset, $limit);
    send(200, ['data' => ['deployments' => array_map('depListItem', $page)],
        'pagination' => ['offset' => $offset, 'limit' => $limit, 'total' => count($deps)]]);
}
function h_getDeployment(array $p): never { $d = depOr404($p['deploymentId']); send(200, ['deployment' => depFull($d)]); }

function h_listEnvironments(array $p): never {
    $d = depOr404($p['deploymentId']);
    $type = qenum('type', ['production', 'staging', 'development']);
    $offset = qint('offset', 0, 0); $limit = qint('limit', 0, 20, MAX_PAGE);
    $envs = environments($d);
    if ($type) $envs = array_values(array_filter($envs, fn($e) => $e['type'] === $type));
    $cursorStyle = (q('first') ?? '') !== '' || (q('after') ?? '') !== '';
    [$items, $info] = cursorPage($envs, fn($e) => $e['id'], null);
    $pagination = (!$cursorStyle && (qhas('offset') || qhas('limit'))) ? ['offset' => $offset, 'limit' => $limit, 'total' => count($envs)] : null;
    send(200, ['items' => $items, 'pageInfo' => $info, 'data' => array_slice($envs, $offset, $limit), 'pagination' => $pagination]);
}

function b64u(string $s): string { return rtrim(strtr(base64_encode($s), '+/', '-_'), '='); }
function jwtSign(array $claims): string {
    $h = b64u(jenc(['alg' => 'HS256', 'typ' => 'JWT', 'kid' => 'meta-sync']));
    $c = b64u(jenc($claims));
    return "$h.$c." . b64u(hash_hmac('sha256', "$h.$c", getenv('BP_SALT'), true));
}
function jwtCheck(string $t): ?array {
    $parts = explode('.', $t);
    if (count($parts) !== 3) return null;
    if (!hash_equals(b64u(hash_hmac('sha256', "$parts[0].$parts[1]", getenv('BP_SALT'), true)), $parts[2])) return null;
    $c = json_decode(base64_decode(strtr($parts[1], '-_', '+/')), true);
    return is_array($c) ? $c : null;
}
function h_createMetaToken(array $p): never {
    $d = depOr404($p['deploymentId']);
    $env = null;
    foreach (environments($d) as $e) if ($e['id'] === $p['environmentId']) $env = $e;
    if (!$env) fail(404, 'ENVIRONMENT_NOT_FOUND', "environment {$p['environmentId']} not found in deployment {$d['id']}");
    $b = body();
    if (!array_key_exists('security_context', $b) || $b['security_context'] === null) vfail('security_context', 'is required');
    if (!($b['security_context'] instanceof stdClass) && !isObj($b['security_context'])) vfail('security_context', 'must be an object');
    $exp = 86400;
    if (array_key_exists('expires_in', $b) && $b['expires_in'] !== null) {
        if (!is_int($b['expires_in']) && !is_float($b['expires_in'])) vfail('expires_in', 'must be a number');
        if ($b['expires_in'] <= 0 || $b['expires_in'] > 259200) vfail('expires_in', 'must be greater than 0 and at most 259200');
        $exp = (int)floor($b['expires_in']);
        if ($exp < 1) $exp = 1;
    }
    $now = time();
    $tok = jwtSign(['iss' => 'platform-api', 'aud' => 'meta-sync', 'scope' => 'metadata', 'deployment' => $d['id'], 'environment' => $env['id'],
        'sc' => $b['security_context'], 'iat' => $now, 'nbf' => $now, 'exp' => $now + $exp, 'jti' => rid(16)]);
    send(200, ['data' => ['token' => $tok, 'created_at' => isoTime($now), 'expires_at' => isoTime($now + $exp),
        'security_context' => $b['security_context'], 'scopes' => ['metadata:read']]]);
}

function branchOut(array $b): array {
    return ['id' => $b['id'], 'name' => $b['name'], 'parentBranch' => $b['parentBranch'], 'lastHash' => $b['lastHash'],
        'isStagingEnvironmentEnabled' => (bool)$b['isStagingEnvironmentEnabled'], 'kind' => $b['kind'],
        'devMode' => !empty($b['devMode']), 'ownerEmail' => $b['ownerId'] ? (dget('user', $b['ownerId'])['email'] ?? null) : null];
}
function findBranch(string $dep, ?string $name, ?int $id): ?array {
    foreach (dlist('branch', $dep) as $b) if (($name !== null && $b['name'] === $name) || ($id !== null && $b['id'] === $id)) return $b;
    return null;
}
function h_stagingEnv(array $p): never {
    tx(function () use ($p) {
        $d = depOr404($p['deploymentId']);
        needRole('developer', 'changing staging environments');
        $b = body();
        $enabled = bBool($b, 'enabled', true);
        $hasName = isset($b['branchName']); $hasId = isset($b['branchId']);
        if ($hasName && $hasId) vfail('branchId', 'send exactly one of branchName or branchId, not both');
        if (!$hasName && !$hasId) vfail('branchName', 'one of branchName or branchId is required');
        $name = bStr($b, 'branchName', false, 255, 1); $id = bInt($b, 'branchId');
        $br = findBranch($d['id'], $name, $id);
        if (!$br) fail(404, 'BRANCH_NOT_FOUND', 'branch not found');
        if ($enabled && $br['kind'] !== 'shared') fail(400, 'BRANCH_NOT_SHARED', $br['kind'] === 'production' ? 'the production branch cannot have a staging environment' : 'personal development branches cannot have a staging environment');
        $br['isStagingEnvironmentEnabled'] = $enabled;
        dput('branch', $br['id'], $d['id'], $br);
        $GLOBALS['OUT'] = ['data' => branchOut($br)];
    });
    send(200, $GLOBALS['OUT']);
}

function h_listVersions(array $p): never {
    $d = depOr404($p['deploymentId']);
    $v = versionSet($d);
    send(200, ['data' => $v, 'items' => $v]);
}


function normHosted(string $v): string { return in_array(strtolower($v), ['<hosted>', 'hosted', 'managed', 'cloud', 'saas', 'platform', 'cube', 'cubecloud'], true) ? HOSTED : $v; }
function h_updateDeployment(array $p): never {
    tx(function () use ($p) {
        $d = depOr404($p['deploymentId']);
        needRole('admin', 'updating a deployment');
        $b = body();
        $ignored = [];
        foreach (['image', 'containerImage'] as $k) if (array_key_exists($k, $b)) $ignored[] = $k;
        foreach (['creation_method' => 'creationMethod', 'deploy_mode' => 'deployMode'] as $a => $k) if (array_key_exists($a, $b) && !array_key_exists($k, $b)) $b[$k] = $b[$a];
        $cp = bStr($b, 'cloudProvider', false, 64);
        if ($cp !== null) { $cp = normHosted($cp); if (!in_array($cp, [HOSTED, 'aws', 'gcp', 'azure'], true)) vfail('cloudProvider', 'must be one of cubecloud, aws, gcp, azure'); $d['cloudProvider'] = $cp; }
        $rg = bStr($b, 'region', false, 64, 1); if ($rg !== null) { if (!in_array($rg, array_column(REGIONS, 'id'), true)) vfail('region', 'unknown region'); $d['region'] = $rg; }
        $ch = bEnum($b, 'releaseChannel', array_keys(CHANNELS));
        $hold = bBool($b, 'releaseChannelVersionHold');
        $ver = null;
        if (array_key_exists('releaseChannelVersion', $b) && $b['releaseChannelVersion'] !== null) {
            $raw = $b['releaseChannelVersion'];
            if (!is_string($raw)) fail(400, 'UNKNOWN_VERSION', 'releaseChannelVersion must be one of the listed versions');
            $v = preg_replace('/^(docker\.io\/)?cubejs\/cube:/', '', trim($raw));
            $v = preg_replace('/^v/', '', $v);
            $listed = array_column(versionSet($d), 'version');
            if (!preg_match('/^\d+\.\d+\.\d+$/', $v) || !in_array($v, $listed, true) || !($raw === $v || $raw === "v$v" || $raw === imageRef($v)))
                fail(400, 'UNKNOWN_VERSION', "releaseChannelVersion '" . substr($raw, 0, 80) . "' is not one of the versions listed for this deployment");
            $ver = $v;
        }
        $prev = $d['version'];
        if ($ver !== null) {
            $vc = channelOf($ver);
            if ($ch !== null && $ch !== $vc) vfail('releaseChannel', "version $ver belongs to channel $vc, not $ch");
            $d['version'] = $ver; $d['releaseChannel'] = $vc;
            $d['releaseChannelVersionHold'] = $ver !== headOf($vc) ? true : ($hold ?? false);
        } elseif ($ch !== null) {
            $d['releaseChannel'] = $ch; $d['version'] = headOf($ch); $d['releaseChannelVersionHold'] = $hold ?? false;
        } elseif ($hold !== null) $d['releaseChannelVersionHold'] = $hold;
        if ($d['version'] !== $prev) { $d['versionHistory'][] = $prev; $d['versionHistory'] = array_values(array_unique($d['versionHistory'])); }
        $t = bStr($b, 'template', false, 255); if ($t !== null) $d['template'] = $t;
        $tv = bObj($b, 'templateVariables');
        if ($tv !== null) { $cur = asArr($d['templateVariables'] ?? []); foreach ($tv as $k => $v) $cur[$k] = $v; $d['templateVariables'] = $cur; }
        if (array_key_exists('defaultLaunchpadViewGroup', $b)) { if ($b['defaultLaunchpadViewGroup'] !== null && !is_string($b['defaultLaunchpadViewGroup'])) vfail('defaultLaunchpadViewGroup', 'must be a string or null'); $d['defaultLaunchpadViewGroup'] = $b['defaultLaunchpadViewGroup']; }
        $lt = bList($b, 'launchpadTabs'); if ($lt !== null) $d['launchpadTabs'] = $lt;
        $cm = bStr($b, 'creationMethod', false, 64);
        if ($cm !== null) { $cm = normHosted($cm); if (!in_array($cm, ['upload', HOSTED, 'github', 'ssh'], true)) vfail('creationMethod', 'must be one of upload, cubecloud, github, ssh'); $d['creationMethod'] = $cm; }
        $dm = bEnum($b, 'deployMode', ['git', 'cli']); if ($dm !== null) $d['deployMode'] = $dm;
        $d['updated_at'] = nowIso();
        dput('dep', $d['id'], null, $d);
        audit('Deployment updated', $d['name'], ['fields' => array_values(array_diff(array_keys($b), $ignored))]);
        $GLOBALS['OUT'] = ['success' => true, 'data' => depFull($d), 'ignoredFields' => $ignored];
    });
    send(200, $GLOBALS['OUT']);
}

function csvField($v): string { $s = (string)$v; return preg_match('/[",\r\n]/', $s) ? '"' . str_replace('"', '""', $s) . '"' : $s; }
function hideSecrets($a) {
    if (!is_array($a)) return $a;
    foreach ($a as $k => $v) $a[$k] = (is_string($k) && preg_match('/pass|secret|token|key|credential/i', $k)) ? '[HIDDEN]' : hideSecrets($v);
    return $a;
}
function h_exportAudit(array $p): never {
    $ts = dget('tenant', 'settings');
    if (empty($ts['auditLogEnabled'])) fail(403, 'FEATURE_NOT_ENABLED', 'the audit log feature is not enabled for this account plan');
    if (!hasPerm('AuditLogManage')) fail(403, 'PERMISSION_REQUIRED', 'the AuditLogManage permission is required');
    $start = null; $end = null;
    if (($s = q('start')) !== null && $s !== '') { $start = parseTime($s); if ($start === null) fail(400, 'INVALID_QUERY_PARAMETER', 'start must be an ISO 8601 date'); }
    if (($s = q('end')) !== null && $s !== '') { $end = parseTime($s, true); if ($end === null) fail(400, 'INVALID_QUERY_PARAMETER', 'end must be an ISO 8601 date'); }
    if ($start !== null && $end !== null && $start > $end) fail(400, 'INVALID_QUERY_PARAMETER', 'start must not be after end');
    $en = q('eventName'); $ue = q('userEmail'); $se = q('search');
    $rows = [];
    $evs = dlist('audit');
    usort($evs, fn($a, $b) => [$b['ts'], $b['id']] <=> [$a['ts'], $a['id']]);
    foreach ($evs as $e) {
        if ($start !== null && $e['ts'] < $start) continue;
        if ($end !== null && $e['ts'] > $end) continue;
        if ($en !== null && $en !== '' && strcasecmp($en, $e['eventName']) !== 0) continue;
        if ($ue !== null && $ue !== '' && strcasecmp($ue, $e['userEmail']) !== 0) continue;
        $row = [$e['id'], isoTime($e['ts']), $e['eventName'], $e['userEmail'], $e['deploymentName'] ?? '', $e['ip'], jenc(obj(hideSecrets(asArr($e['attributes']))))];
        if ($se !== null && $se !== '' && stripos(implode("\x1f", $row), $se) === false) continue;
        $rows[] = $row;
    }
    $out = "Event ID,Occurred At,Event Name,User Email,Deployment,IP Address,Details\r\n";
    foreach ($rows as $r) $out .= implode(',', array_map('csvField', $r)) . "\r\n";
    http_response_code(200);
    hdr('CONTENT-type', 'text/csv; charset=utf-8');
    hdr('CONTENT-disposition', 'attachment; filename="audit-log-export-' . gmdate('Ymd') . '.csv"');
    hdr('CONTENT-length', (string)strlen($out));
    echo $out; exit;
}

// ---- workbooks ----
function tsOf(string $s): int { return parseTime($s) ?? 0; }
function folderParam(string $dep, array $all): array { // returns [given?, folderId|null]
    if (!qhas('folderId')) return [false, null];
    $v = q('folderId');
    if ($v === '' || $v === 'null' || $v === '0') return [true, null];
    $id = qint('folderId', 0, null);
    if (!isset($all[$id]) || $all[$id]['type'] !== 'FOLDER') fail(404, 'FOLDER_NOT_FOUND', "folder $id not found");
    if (access($all[$id], $all) < 1) fail(403, 'NO_ACCESS', "no read access to folder $id");
    return [true, $id];
}
function h_listWorkbooks(array $p): never {
    $d = depOr404($p['deploymentId']);
    $all = wsAll($d['id']);
    [$given, $fid] = folderParam($d['id'], $all);
    $list = array_values(array_filter($all, fn($it) => $it['type'] === 'WORKBOOK' && (!$given || ($it['folderId'] ?? null) === $fid) && access($it, $all) >= 1));
    usort($list, fn($a, $b) => [tsOf($b['createdAt']), $b['id']] <=> [tsOf($a['createdAt']), $a['id']]);
    $r = listResp($list, fn($it) => $it['id'], fn($it) => wbOut($it, $all));
    send(200, $r);
}
function itemOr404(array $all, $id, ?string $type, string $dep): array {
    $id = is_string($id) ? (preg_match('/^\d{1,15}$/', $id) ? (int)$id : -1) : $id;
    $it = $all[$id] ?? null;
    if (!$it || ($type !== null && $it['type'] !== $type)) fail(404, ($type ?? 'ITEM') . '_NOT_FOUND', strtolower($type ?? 'item') . " $id not found in deployment $dep");
    return $it;
}
function h_getWorkbook(array $p): never {
    $d = depOr404($p['deploymentId']);
    $all = wsAll($d['id']);
    $it = itemOr404($all, $p['workbookId'], 'WORKBOOK', $d['id']);
    if (access($it, $all) < 1) fail(403, 'NO_ACCESS', 'no read access to this workbook');
    send(200, wbOut($it, $all));
}
function workbookCount(string $dep): int { return count(array_filter(wsAll($dep), fn($it) => $it['type'] === 'WORKBOOK')); }
function checkLimit(array $d): void {
    if ($d['workbookLimit'] !== null && workbookCount($d['id']) >= $d['workbookLimit'])
        fail(400, 'WORKBOOK_LIMIT_REACHED', "the plan allows {$d['workbookLimit']} workbooks in this deployment and that limit is reached");
}
function remapConfig($cfg, array $map) {
    if ($cfg === null) return null;
    $cfg = asArr($cfg);
    foreach ($cfg['widgets'] ?? [] as $i => $w) {
        $c = asArr($w['config'] ?? []);
        if (isset($c['reportId']) && isset($map[$c['reportId']])) { $c['reportId'] = $map[$c['reportId']]; $cfg['widgets'][$i]['config'] = $c; }
    }
    return $cfg;
}
function newDashboard(array $cfg, array $snaps, bool $shared): array {
    return ['id' => wsId(), 'publicId' => 'dsh_' . rid(14), 'status' => 'published', 'allowEmbed' => false, 'config' => $cfg,
        'versionNumber' => 1, 'versionId' => wsId(), 'reportSnapshots' => $snaps, 'createdBy' => me()['id'],
        'title' => $cfg['title'] ?? null, 'description' => $cfg['description'] ?? null, 'fromSharedWorkspace' => $shared,
        'restrictDataDownload' => false, 'useBoardDashboards' => null, 'embedAccess' => ['all' => 'none', 'tenants' => []]];
}
function h_duplicate(array $p): never {
    tx(function () use ($p) {
        $d = depOr404($p['deploymentId']);
        $b = body(true);
        $shared = bBool($b, 'shared') ?? false;
        if ($shared && !C()['creator']) fail(403, 'NOT_CREATOR_MODE', 'cloning from the shared workspace needs a creator-mode embed session');
        $all = wsAll($d['id']);
        $src = itemOr404($all, $p['workbookId'], 'WORKBOOK', $d['id']);
        if (!$shared && access($src, $all) < 1) fail(403, 'NO_ACCESS', 'no read access to the source workbook');
        needRole('ai_bi_user', 'cloning a workbook');
        $pd = $src['dashboard'] ?? null;
        if ($shared && (!$pd || $pd['status'] !== 'published')) fail(400, 'NO_PUBLISHED_DASHBOARD', 'the source workbook has no published dashboard');
        checkLimit($d);
        $now = nowIso(); $uid = me()['id'];
        $place = null;
        if (!$shared && ($src['folderId'] ?? null) !== null && isset($all[$src['folderId']]) && access($all[$src['folderId']], $all) >= 2) $place = $src['folderId'];
        $wb = ['id' => wsId(), 'deploymentId' => (int)$d['id'], 'type' => 'WORKBOOK', 'name' => 'Copy of ' . $src['name'],
            'meta' => $src['meta'] ?? [], 'calculatedFields' => $src['calculatedFields'] ?? [], 'createdAt' => $now, 'updatedAt' => $now,
            'ownerId' => $uid, 'folderId' => $place, 'slug' => null, 'favoritedBy' => [], 'grants' => [], 'restricted' => false];
        $map = [];
        if (!$shared) {
            foreach ($all as $r) {
                if ($r['type'] !== 'REPORT' || ($r['workbookId'] ?? null) !== $src['id']) continue;
                $nr = $r; $nr['id'] = wsId(); $nr['publicId'] = 'rpt_' . rid(12); $nr['workbookId'] = $wb['id']; $nr['folderId'] = $place;
                $nr['ownerId'] = $uid; $nr['createdAt'] = $now; $nr['updatedAt'] = $now; $nr['lastViewedAt'] = null; $nr['favoritedBy'] = [];
                $nr['grants'] = []; $nr['placements'] = []; $nr['slug'] = null;
                $map[$r['id']] = $nr['id']; wsSave($nr);
            }
            if (isset($src['dashboardDraft'])) $wb['dashboardDraft'] = remapConfig($src['dashboardDraft'], $map);
            if ($pd) {
                $snaps = array_map(function ($s) use ($map) { $s['id'] = wsId(); $s['reportId'] = $map[$s['reportId']] ?? $s['reportId']; return $s; }, $pd['reportSnapshots'] ?? []);
                $nd = newDashboard(remapConfig($pd['config'], $map), $snaps, false);
                $nd['status'] = $pd['status']; $nd['title'] = $pd['title'] ?? null; $nd['description'] = $pd['description'] ?? null;
                $nd['restrictDataDownload'] = $pd['restrictDataDownload'] ?? false;
                $wb['dashboard'] = $nd;
            }
        } else {
            $snaps = [];
            foreach ($pd['reportSnapshots'] ?? [] as $s) {
                $nr = ['id' => wsId(), 'deploymentId' => (int)$d['id'], 'type' => 'REPORT', 'name' => $s['name'] ?? ($s['title'] ?? 'Report'),
                    'meta' => $s['meta'] ?? [], 'calculatedFields' => [], 'createdAt' => $now, 'updatedAt' => $now, 'ownerId' => $uid,
                    'folderId' => null, 'slug' => null, 'favoritedBy' => [], 'grants' => [], 'workbookId' => $wb['id'],
                    'publicId' => 'rpt_' . rid(12), 'kind' => $s['kind'] ?? 'table', 'sqlQuery' => $s['sqlQuery'] ?? null, 'lastViewedAt' => null, 'placements' => []];
                $map[$s['reportId']] = $nr['id']; wsSave($nr);
                $ns = $s; $ns['id'] = wsId(); $ns['reportId'] = $nr['id']; $ns['versionNumber'] = 1; $snaps[] = $ns;
            }
            $cfg = remapConfig($pd['config'], $map);
            $wb['dashboard'] = newDashboard($cfg, $snaps, true);
            $wb['dashboardDraft'] = $cfg;
        }
        wsSave($wb);
        $GLOBALS['OUT'] = wbOut($wb, wsAll($d['id']));
    });
    send(200, $GLOBALS['OUT']);
}

function normSlug(string $raw): string {
    $s = strtolower(trim($raw, " \t\n\r\0\x0B"));
    if ($s === '' || strlen($s) > 160 || preg_match('/[\x00-\x1f\x7f\/]/', $s) || !preg_match('//u', $s)) fail(400, 'INVALID_SLUG', 'slug must be 1..160 characters without control characters or slashes');
    return $s;
}
function findSlug(string $dep, string $slug): ?array {
    foreach (wsAll($dep, true) as $it) if ($it['type'] === 'WORKBOOK' && ($it['slug'] ?? null) === $slug) return $it;
    return null;
}
function moveItem(array $it, ?int $dest, array $all): array {
    $it['folderId'] = $dest; $it['updatedAt'] = nowIso();
    wsSave($it);
    if ($it['type'] === 'WORKBOOK') foreach ($all as $r) if ($r['type'] === 'REPORT' && ($r['workbookId'] ?? null) === $it['id']) { $r['folderId'] = $dest; wsSave($r); }
    return $it;
}
function h_upsertBySlug(array $p): never {
    $slug = normSlug($p['slug']);
    $b = body(true);
    // phase 1: decide and check access
    [$d, $holderId] = tx(function () use ($p, $slug, $b) {
        $d = depOr404($p['deploymentId']);
        $name = bStr($b, 'name', false, 255, 1);
        $hasFolder = array_key_exists('folderId', $b);
        $fid = null;
        if ($hasFolder && $b['folderId'] !== null) { $fid = bInt($b, 'folderId', false, 0); if ($fid === 0) $fid = null; }
        $meta = bObj($b, 'meta');
        if ($meta !== null && array_key_exists('dashboardDraft', $meta) && $meta['dashboardDraft'] !== null) validateConfig($meta['dashboardDraft'], 'meta.dashboardDraft');
        $all = wsAll($d['id'], true);
        if ($fid !== null && (!isset($all[$fid]) || $all[$fid]['type'] !== 'FOLDER')) fail(404, 'FOLDER_NOT_FOUND', "folder $fid not found");
        $h = findSlug($d['id'], $slug);
        if ($h) {
            if (access($h, $all) < 2) fail(403, 'NO_ACCESS', 'edit access to the workbook holding this slug is required');
            if ($hasFolder && (access($h, $all) < 3 || !canEditFolder($fid, $all))) fail(403, 'NO_ACCESS', 'moving needs manage access to the workbook and edit access to the destination folder');
        } else {
            needRole('ai_bi_user', 'creating a workbook');
            if ($fid !== null && !canEditFolder($fid, $all)) fail(403, 'NO_ACCESS', 'edit access to the destination folder is required');
            checkLimit($d);
        }
        return [$d, $h['id'] ?? null];
    }, false);
    usleep(15000);
    $out = tx(function () use ($d, $holderId, $slug, $b) {
        $h = findSlug($d['id'], $slug);
        if (($h['id'] ?? null) !== $holderId) fail(409, 'CONFLICT', 'the workbook holding this slug was created or deleted concurrently; retry the request', ['code' => 'upsert_branch_changed']);
        $all = wsAll($d['id']);
        $fid = array_key_exists('folderId', $b) && $b['folderId'] !== null && (int)$b['folderId'] !== 0 ? (int)$b['folderId'] : null;
        if ($fid !== null && !isset($all[$fid])) fail(409, 'CONFLICT', 'the destination folder changed concurrently; retry the request', ['code' => 'upsert_branch_changed']);
        $meta = array_key_exists('meta', $b) && $b['meta'] !== null ? asArr($b['meta']) : null;
        $draft = null;
        if ($meta !== null && array_key_exists('dashboardDraft', $meta)) { $draft = $meta['dashboardDraft'] === null ? null : validateConfig($meta['dashboardDraft'], 'meta.dashboardDraft'); if ($draft !== null) $meta['dashboardDraft'] = $draft; }
        $now = nowIso();
        if ($h) {
            $orig = $h; $changed = false;
            if (isset($b['name']) && $b['name'] !== $h['name']) { $h['name'] = $b['name']; $changed = true; }
            if ($meta !== null) {
                $m = asArr($h['meta'] ?? []);
                foreach ($meta as $k => $v) { if ($v === null) unset($m[$k]); else $m[$k] = $v; }
                if (jenc($m) !== jenc(asArr($h['meta'] ?? []))) { $h['meta'] = $m; $changed = true; }
                if (array_key_exists('dashboardDraft', $meta)) { if (jenc($draft) !== jenc($h['dashboardDraft'] ?? null)) { $h['dashboardDraft'] = $draft; $changed = true; } }
            }
            if (array_key_exists('folderId', $b) && ($h['folderId'] ?? null) !== $fid) {
                $h = moveItem($h, $fid, $all); $changed = true;
            }
            if ($changed) { $h['updatedAt'] = $now; wsSave($h); }
            return wbOut($h, wsAll($d['id']));
        }
        $name = $b['name'] ?? ucfirst(trim(preg_replace('/[-_]+/', ' ', $slug)));
        if ($name === '') $name = 'Untitled';
        $wb = ['id' => wsId(), 'deploymentId' => (int)$d['id'], 'type' => 'WORKBOOK', 'name' => $name,
            'meta' => $meta ? array_filter($meta, fn($v) => $v !== null) : [], 'calculatedFields' => [], 'createdAt' => $now, 'updatedAt' => $now,
            'ownerId' => me()['id'], 'folderId' => $fid, 'slug' => $slug, 'favoritedBy' => [], 'grants' => [], 'restricted' => false];
        if ($draft !== null) $wb['dashboardDraft'] = $draft;
        wsSave($wb);
        return wbOut($wb, wsAll($d['id']));
    });
    send(200, $out);
}

function parseItems(array $b, bool $allowEmpty): array {
    $items = bList($b, 'items', true);
    $seen = []; $out = [];
    foreach ($items as $i => $x) {
        if (!isObj($x)) vfail("items[$i]", 'must be an object {type, id}');
        if (!isset($x['type']) || !in_array($x['type'], ['WORKBOOK', 'REPORT', 'FOLDER'], true)) vfail("items[$i].type", 'must be WORKBOOK, REPORT or FOLDER');
        if (!isset($x['id']) || !isInt($x['id'])) vfail("items[$i].id", 'must be an integer');
        $k = $x['type'] . ':' . (int)$x['id'];
        if (isset($seen[$k])) continue;
        $seen[$k] = 1; $out[] = ['type' => $x['type'], 'id' => (int)$x['id']];
    }
    if (count($out) > 100) vfail('items', 'at most 100 distinct items are allowed');
    if (!$out && !$allowEmpty) vfail('items', 'must not be empty');
    return $out;
}
function depthBelow(int $fid, array $all): int { // levels of sub-folders below a folder (itself = 1)
    $max = 1;
    foreach ($all as $it) if ($it['type'] === 'FOLDER' && ($it['folderId'] ?? null) === $fid) $max = max($max, 1 + depthBelow($it['id'], $all));
    return $max;
}
const MAX_FOLDER_DEPTH = 12;
function h_bulkMove(array $p): never {
    $d = tx(fn() => depOr404($p['deploymentId']), false);
    $b = body();
    $items = parseItems($b, true);
    $dest = null;
    if (array_key_exists('folderId', $b) && $b['folderId'] !== null) { $dest = bInt($b, 'folderId', false, 0); if ($dest === 0) $dest = null; }
    $moved = []; $failed = [];
    foreach ($items as $x) {
        try {
            $moved[] = tx(function () use ($d, $x, $dest) {
                $all = wsAll($d['id'], true);
                $it = $all[$x['id']] ?? null;
                if (!$it || $it['type'] !== $x['type']) fail(404, 'NOT_FOUND', strtolower($x['type']) . " {$x['id']} not found in this deployment");
                if (access($it, $all) < 3) fail(403, 'NO_ACCESS', 'manage access to the item is required to move it');
                if ($dest !== null) {
                    if (!isset($all[$dest]) || $all[$dest]['type'] !== 'FOLDER') fail(400, 'INVALID_MOVE', "destination folder $dest does not exist");
                    if ($it['type'] === 'FOLDER') {
                        $chainIds = array_map(fn($f) => $f['id'], folderChain($dest, $all));
                        if (in_array($it['id'], $chainIds, true)) fail(400, 'INVALID_MOVE', 'a folder cannot be moved into itself or one of its descendants');
                        if (count($chainIds) + depthBelow($it['id'], $all) > MAX_FOLDER_DEPTH) fail(400, 'INVALID_MOVE', 'folders cannot be nested deeper than ' . MAX_FOLDER_DEPTH . ' levels');
                    }
                }
                if (!canEditFolder($dest, $all)) fail(403, 'NO_ACCESS', 'edit access to the destination is required');
                $it = moveItem($it, $dest, $all);
                return wbOut($it, wsAll($d['id']));
            });
        } catch (ApiError $e) {
            $failed[] = ['type' => $x['type'], 'id' => $x['id'], 'error' => ['message' => $e->getMessage(), 'status' => $e->status]];
        }
    }
    send(200, ['moved' => $moved, 'failed' => $failed]);
}

// ---- env vars ----
function envVarsSorted(string $dep): array {
    $vs = dlist('envvar', $dep);
    usort($vs, fn($a, $b) => [isSecretName($a['name']) ? 0 : 1, $a['name']] <=> [isSecretName($b['name']) ? 0 : 1, $b['name']]);
    return $vs;
}
function envVarOut(array $v): array { return ['name' => $v['name'], 'value' => isSecretName($v['name']) ? '[ENCRYPTED]' : $v['value']]; }
function h_listEnvVars(array $p): never {
    $d = depOr404($p['deploymentId']);
    needRole('developer', 'reading environment variables');
    [$page, $info] = cursorPage(envVarsSorted($d['id']), fn($v) => $v['name']);
    $items = array_map('envVarOut', $page);
    send(200, ['items' => $items, 'data' => $items, 'pageInfo' => $info]);
}
function h_setEnvVars(array $p): never {
    $out = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']);
        needRole('developer', 'setting environment variables');
        $b = body();
        $list = bList($b, 'env_variables', true);
        $set = [];
        foreach ($list as $i => $v) {
            if (!isObj($v)) vfail("env_variables[$i]", 'must be an object {name, value}');
            $n = bStr($v, 'name', true, 255, 1); $val = bStr($v, 'value', true, 65536);
            if (!preg_match('/^[A-Za-z_][A-Za-z0-9_]*$/', $n)) vfail("env_variables[$i].name", 'must match ^[A-Za-z_][A-Za-z0-9_]*$');
            if ($val === '[ENCRYPTED]') vfail("env_variables[$i].value", 'the [ENCRYPTED] placeholder cannot be stored as a value');
            if (isSecretName($n) && !hasPerm('SecretsManage')) fail(403, 'PERMISSION_REQUIRED', 'the SecretsManage permission is required to set secret-named variables');
            $set[$n] = $val;
        }
        $now = nowIso();
        foreach ($set as $n => $val) dput('envvar', $d['id'] . '/' . $n, $d['id'], ['name' => $n, 'value' => $val, 'updatedAt' => $now]);
        if ($set) audit('Environment variables updated', $d['name'], ['names' => array_keys($set)]);
        $items = array_map('envVarOut', array_values(array_filter(envVarsSorted($d['id']), fn($v) => array_key_exists($v['name'], $set))));
        return ['items' => $items, 'data' => $items, 'pageInfo' => ['hasNextPage' => false, 'hasPreviousPage' => false,
            'startCursor' => $items ? curEnc($items[0]['name'], 0) : null, 'endCursor' => $items ? curEnc($items[count($items) - 1]['name'], count($items) - 1) : null]];
    });
    send(200, $out);
}

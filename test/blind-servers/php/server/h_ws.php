<?php
declare(strict_types=1);
// Workspace E14: bulk delete, folders, reports, placements, embed access; users; tenant settings.
function h_bulkDelete(array $p): never {
    $d = tx(fn() => depOr404($p['deploymentId']), false);
    $items = parseItems(body(), false);
    $deleted = []; $failed = [];
    foreach ($items as $x) {
        try {
            tx(function () use ($d, $x) {
                $all = wsAll($d['id'], true);
                $it = $all[$x['id']] ?? null;
                if (!$it || $it['type'] !== $x['type']) fail(404, 'NOT_FOUND', strtolower($x['type']) . " {$x['id']} not found in this deployment");
                $need = $it['type'] === 'REPORT' ? 2 : 3;
                if (access($it, $all) < $need) fail(403, 'NO_ACCESS', ($need === 3 ? 'manage' : 'edit') . ' access is required to delete this item');
                deleteItem($it, $all);
            });
            $deleted[] = $x;
        } catch (ApiError $e) { $failed[] = ['type' => $x['type'], 'id' => $x['id'], 'error' => ['message' => $e->getMessage(), 'status' => $e->status]]; }
    }
    send(200, ['deleted' => $deleted, 'failed' => $failed]);
}
function deleteItem(array $it, array $all): void {
    if ($it['type'] === 'FOLDER') {
        foreach ($all as $c) if ($c['type'] === 'FOLDER' && ($c['folderId'] ?? null) === $it['id']) fail(400, 'FOLDER_NOT_EMPTY', 'the folder still has sub-folders');
        foreach ($all as $c) if (($c['folderId'] ?? null) === $it['id']) { $c['folderId'] = null; wsSave($c); }
    }
    if ($it['type'] === 'WORKBOOK') foreach ($all as $c) if ($c['type'] === 'REPORT' && ($c['workbookId'] ?? null) === $it['id']) wsDelete($c);
    wsDelete($it);
}
// ---- folders ----
function h_foldersList(array $p): never {
    $d = depOr404($p['deploymentId']);
    $all = wsAll($d['id']);
    $pid = null;
    if (qhas('parentId') && !in_array(q('parentId'), ['', 'null', '0'], true)) {
        $pid = qint('parentId', 0, null);
        if (!isset($all[$pid]) || $all[$pid]['type'] !== 'FOLDER') fail(404, 'FOLDER_NOT_FOUND', "folder $pid not found");
    }
    $list = array_values(array_filter($all, fn($it) => $it['type'] === 'FOLDER' && ($it['folderId'] ?? null) === $pid && access($it, $all) >= 1));
    usort($list, fn($a, $b) => [tsOf($a['createdAt']), $a['id']] <=> [tsOf($b['createdAt']), $b['id']]);
    send(200, listResp($list, fn($it) => $it['id'], fn($it) => wbOut($it, $all)));
}
function h_folderCreate(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']);
        needRole('ai_bi_user', 'creating folders');
        $b = body();
        $name = bStr($b, 'name', true, 255, 1);
        $pid = bInt($b, 'parentId', false, 0); if ($pid === 0) $pid = null;
        $pos = bInt($b, 'position', false, 0) ?? 0;
        $all = wsAll($d['id'], true);
        if ($pid !== null && (!isset($all[$pid]) || $all[$pid]['type'] !== 'FOLDER')) fail(404, 'FOLDER_NOT_FOUND', "folder $pid not found");
        if (!canEditFolder($pid, $all)) fail(403, 'NO_ACCESS', 'edit access to the parent folder is required');
        if ($pid !== null && count(folderChain($pid, $all)) + 1 > MAX_FOLDER_DEPTH) fail(400, 'TOO_DEEP', 'folders cannot be nested deeper than ' . MAX_FOLDER_DEPTH . ' levels');
        $now = nowIso();
        $f = ['id' => wsId(), 'deploymentId' => (int)$d['id'], 'type' => 'FOLDER', 'name' => $name, 'meta' => [], 'calculatedFields' => [], 'createdAt' => $now, 'updatedAt' => $now,
            'ownerId' => me()['id'], 'folderId' => $pid, 'slug' => null, 'favoritedBy' => [], 'grants' => [], 'restricted' => false, 'position' => $pos];
        wsSave($f);
        return wbOut($f, wsAll($d['id']));
    });
    send(201, ['folder' => $o], ['LOCATION' => baseUrl() . reqPath() . '/' . $o['id']]);
}
function h_folderDelete(array $p): never {
    tx(function () use ($p) {
        $d = depOr404($p['deploymentId']);
        $all = wsAll($d['id'], true);
        $f = itemOr404($all, $p['folderId'], 'FOLDER', $d['id']);
        if (access($f, $all) < 3) fail(403, 'NO_ACCESS', 'manage access is required to delete this folder');
        deleteItem($f, $all);
    });
    send(200, ['id' => (int)$p['folderId'], 'status' => 'deleted']);
}
// ---- reports ----
function reportOr404(array $d, string $rid): array {
    $all = wsAll($d['id'], true);
    $r = itemOr404($all, $rid, 'REPORT', $d['id']);
    if (access($r, $all) < 1) fail(403, 'NO_ACCESS', 'no read access to this report');
    return $r;
}
function h_reportsList(array $p): never {
    $d = depOr404($p['deploymentId']);
    $all = wsAll($d['id']);
    [$given, $fid] = folderParam($d['id'], $all);
    $ext = q('externalWorkbookId'); $s = q('search');
    $sort = qenum('sortBy', ['createdAt', 'updatedAt', 'lastViewedAt', 'name']) ?? 'createdAt';
    $list = array_values(array_filter($all, function ($it) use ($all, $given, $fid, $ext, $s) {
        if ($it['type'] !== 'REPORT' || access($it, $all) < 1) return false;
        if ($given && ($it['folderId'] ?? null) !== $fid) return false;
        if ($ext !== null && $ext !== '' && !array_filter($it['placements'] ?? [], fn($pl) => $pl['externalWorkbookId'] === $ext)) return false;
        if ($s !== null && $s !== '' && stripos($it['name'], $s) === false) return false;
        return true;
    }));
    $cmp = match ($sort) {
        'name' => fn($a, $b) => strcasecmp($a['name'], $b['name']) ?: $a['id'] <=> $b['id'],
        'updatedAt' => fn($a, $b) => [tsOf($b['updatedAt']), $b['id']] <=> [tsOf($a['updatedAt']), $a['id']],
        'lastViewedAt' => fn($a, $b) => [($b['lastViewedAt'] ?? null) !== null, tsOf($b['lastViewedAt'] ?? '1970-01-01'), $b['id']] <=> [($a['lastViewedAt'] ?? null) !== null, tsOf($a['lastViewedAt'] ?? '1970-01-01'), $a['id']],
        default => fn($a, $b) => [tsOf($b['createdAt']), $b['id']] <=> [tsOf($a['createdAt']), $a['id']],
    };
    usort($list, $cmp);
    if ($sort === 'lastViewedAt') { // cursor pagination is not available for this order: whole list, pageInfo null
        $items = array_map(fn($it) => wbOut($it, $all), $list);
        send(200, ['items' => $items, 'pageInfo' => null, 'data' => $items, 'count' => count($items)]);
    }
    send(200, listResp($list, fn($it) => $it['id'], fn($it) => wbOut($it, $all)));
}
function h_reportGet(array $p): never { $d = depOr404($p['deploymentId']); $r = reportOr404($d, $p['reportId']); send(200, ['report' => wbOut($r, wsAll($d['id']))]); }
function h_reportByPublicId(array $p): never {
    $res = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']);
        $pub = $p['publicId'];
        if (!preg_match('/^[A-Za-z0-9_-]{1,64}$/', $pub)) fail(400, 'INVALID_PUBLIC_ID', 'publicId must be 1..64 characters of letters, digits, _ and -');
        $b = body();
        $name = bStr($b, 'name', false, 255, 1);
        $kind = bEnum($b, 'kind', ['vega', 'table', 'kpi', 'html', 'map']);
        $sql = bStr($b, 'sqlQuery', false, 100000);
        $wbId = bInt($b, 'workbookId', false, 1);
        $meta = bObj($b, 'meta');
        $all = wsAll($d['id'], true);
        $r = null;
        foreach ($all as $it) if ($it['type'] === 'REPORT' && $it['publicId'] === $pub) $r = $it;
        if ($wbId !== null && (!isset($all[$wbId]) || $all[$wbId]['type'] !== 'WORKBOOK')) vfail('workbookId', 'workbook not found in this deployment');
        $now = nowIso();
        if ($r) {
            if (access($r, $all) < 2) fail(403, 'NO_ACCESS', 'edit access to the report is required');
            if ($name !== null) $r['name'] = $name; if ($kind !== null) $r['kind'] = $kind; if ($sql !== null) $r['sqlQuery'] = $sql;
            if ($meta !== null) $r['meta'] = array_merge(asArr($r['meta'] ?? []), $meta);
            if ($wbId !== null) { $r['workbookId'] = $wbId; $r['folderId'] = $all[$wbId]['folderId'] ?? null; }
            $r['updatedAt'] = $now; wsSave($r);
            return [200, $r];
        }
        needRole('ai_bi_user', 'creating reports');
        if ($wbId === null) vfail('workbookId', 'is required when creating a report');
        if (access($all[$wbId], $all) < 2) fail(403, 'NO_ACCESS', 'edit access to the workbook is required');
        $r = ['id' => wsId(), 'deploymentId' => (int)$d['id'], 'type' => 'REPORT', 'name' => $name ?? "Report $pub", 'meta' => $meta ?? [], 'calculatedFields' => [],
            'createdAt' => $now, 'updatedAt' => $now, 'ownerId' => me()['id'], 'folderId' => $all[$wbId]['folderId'] ?? null, 'slug' => null, 'favoritedBy' => [], 'grants' => [],
            'workbookId' => $wbId, 'publicId' => $pub, 'kind' => $kind ?? 'table', 'sqlQuery' => $sql, 'lastViewedAt' => null, 'placements' => []];
        wsSave($r);
        return [201, $r];
    });
    [$st, $r] = $res;
    send($st, ['report' => wbOut($r, wsAll((string)$r['deploymentId']))], $st === 201 ? ['LOCATION' => baseUrl() . '/api/v1/deployments/' . $r['deploymentId'] . '/reports/' . $r['id']] : []);
}
function placementAddr(array $b): array {
    if (isset($b['placementId'])) { $id = bStr($b, 'placementId', true, 64, 1); return ['placementId' => $id]; }
    $e = bStr($b, 'externalWorkbookId', true, 255, 1); $s = bStr($b, 'sheetName', true, 255, 1); $a = bStr($b, 'anchorCell', true, 16, 2);
    if (!preg_match('/^[A-Za-z]{1,3}[1-9][0-9]{0,6}$/', $a)) vfail('anchorCell', 'must be an A1-style cell reference');
    return ['externalWorkbookId' => $e, 'sheetName' => $s, 'anchorCell' => strtoupper($a)];
}
function findPlacement(array $r, array $addr): ?int {
    foreach ($r['placements'] ?? [] as $i => $pl) {
        if (isset($addr['placementId']) ? $pl['placementId'] === $addr['placementId'] : ($pl['externalWorkbookId'] === $addr['externalWorkbookId'] && $pl['sheetName'] === $addr['sheetName'] && $pl['anchorCell'] === $addr['anchorCell'])) return $i;
    }
    return null;
}
function h_connectWorkbook(array $p): never {
    $res = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); $r = reportOr404($d, $p['reportId']);
        $addr = placementAddr(body());
        $i = findPlacement($r, $addr);
        if ($i !== null) return [200, $r['placements'][$i]];
        if (isset($addr['placementId'])) fail(404, 'PLACEMENT_NOT_FOUND', 'placement not found');
        $pl = ['placementId' => 'plc_' . rid(10), 'reportId' => $r['id']] + $addr + ['createdAt' => nowIso(), 'refreshedAt' => null, 'createdBy' => me()['id']];
        $r['placements'][] = $pl; wsSave($r);
        return [201, $pl];
    });
    send($res[0], ['placement' => $res[1]]);
}
function h_disconnectWorkbook(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); $r = reportOr404($d, $p['reportId']);
        $b = body(true);
        foreach (['placementId', 'externalWorkbookId', 'sheetName', 'anchorCell'] as $k) if (!isset($b[$k]) && ($v = q($k)) !== null) $b[$k] = $v;
        $i = findPlacement($r, placementAddr($b));
        if ($i === null) fail(404, 'PLACEMENT_NOT_FOUND', 'placement not found');
        $pl = $r['placements'][$i]; array_splice($r['placements'], $i, 1); wsSave($r);
        return ['id' => $pl['placementId'], 'status' => 'deleted'];
    });
    send(200, $o);
}
function h_refreshPlacement(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); $r = reportOr404($d, $p['reportId']);
        $i = findPlacement($r, placementAddr(body()));
        if ($i === null) fail(404, 'PLACEMENT_NOT_FOUND', 'placement not found');
        $r['placements'][$i]['refreshedAt'] = nowIso(); wsSave($r);
        return $r['placements'][$i];
    });
    send(200, ['placement' => $o]);
}
// ---- embedding ----
function embedAccessOut(array $wb): array {
    $ea = $wb['dashboard']['embedAccess'] ?? ['all' => 'none', 'tenants' => []];
    $t = [];
    foreach (asArr($ea['tenants'] ?? []) as $tid => $a) $t[] = ['tenantId' => (int)$tid, 'tenantName' => dget('embedTenant', $tid)['name'] ?? null, 'action' => $a];
    return ['workbookId' => $wb['id'], 'allEmbedUsers' => $ea['all'] ?? 'none', 'tenants' => $t];
}
function h_embedAccessGet(array $p): never {
    $d = depOr404($p['deploymentId']); $all = wsAll($d['id']);
    $wb = itemOr404($all, $p['workbookId'], 'WORKBOOK', $d['id']);
    if (access($wb, $all) < 1) fail(403, 'NO_ACCESS', 'no read access to this workbook');
    send(200, ['embedAccess' => embedAccessOut($wb)]);
}
function h_embedAccessPut(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); $all = wsAll($d['id'], true);
        $wb = itemOr404($all, $p['workbookId'], 'WORKBOOK', $d['id']);
        if (access($wb, $all) < 3) fail(403, 'NO_ACCESS', 'manage access to the workbook is required');
        $b = body();
        $action = bEnum($b, 'action', ['read', 'none'], true);
        $allU = bBool($b, 'allEmbedUsers'); $tid = bInt($b, 'tenantId', false, 1);
        if (($allU === true) === ($tid !== null)) vfail('tenantId', 'send either tenantId or allEmbedUsers: true');
        if (empty($wb['dashboard'])) fail(400, 'NO_PUBLISHED_DASHBOARD', 'the workbook has no published dashboard');
        $ea = $wb['dashboard']['embedAccess'] ?? ['all' => 'none', 'tenants' => []];
        $ea['tenants'] = asArr($ea['tenants'] ?? []);
        if ($allU) $ea['all'] = $action;
        else { if (!dget('embedTenant', $tid)) fail(404, 'NOT_FOUND', "embed tenant $tid not found"); if ($action === 'none') unset($ea['tenants'][(string)$tid]); else $ea['tenants'][(string)$tid] = $action; }
        $wb['dashboard']['embedAccess'] = $ea; wsSave($wb);
        return embedAccessOut($wb);
    });
    send(200, ['embedAccess' => $o]);
}
function dashByPublicId(string $pub): array {
    foreach (dlist('ws') as $it) if ($it['type'] === 'WORKBOOK' && ($it['dashboard']['publicId'] ?? null) === $pub) {
        $d = dget('dep', (string)$it['deploymentId']);
        if ($d && (C()['scope'] === null || C()['scope'] === $d['id']) && depVisible($d)) return [$d, $it];
    }
    fail(404, 'DASHBOARD_NOT_FOUND', 'dashboard not found');
}
function h_embedDashboardPatch(array $p): never {
    $o = tx(function () use ($p) {
        [$d, $wb] = dashByPublicId($p['publicId']);
        $all = wsAll($d['id'], true);
        if (access($wb, $all) < 3) fail(403, 'NO_ACCESS', 'manage access to the workbook is required');
        $b = body();
        $ae = bBool($b, 'allowEmbed', true);
        $wb['dashboard']['allowEmbed'] = $ae; wsSave($wb);
        return dashOut($wb['dashboard'], $wb);
    });
    send(200, ['dashboard' => $o]);
}
function h_pythonRun(array $p): never {
    [$d, $wb] = dashByPublicId($p['publicId']);
    $b = body();
    $rid = bInt($b, 'reportId', true, 1);
    $filters = bList($b, 'filters') ?? [];
    $snap = null;
    foreach ($wb['dashboard']['reportSnapshots'] ?? [] as $s) if ($s['reportId'] === $rid) $snap = $s;
    if (!$snap) fail(404, 'REPORT_NOT_FOUND', "report $rid is not part of this dashboard");
    if (empty($snap['pythonCode'])) vfail('reportId', 'the report is not a Python report');
    send(200, ['pythonRun' => ['reportId' => $rid, 'status' => 'succeeded', 'appliedFilters' => count($filters),
        'output' => ['type' => 'table', 'columns' => ['month', 'revenue'], 'rows' => [['2025-01', 1200], ['2025-02', 1350]]], 'durationMs' => 42]]);
}
// ---- users ----
function userOut(array $u): array {
    return ['id' => $u['id'], 'email' => $u['email'], 'firstName' => $u['firstName'], 'lastName' => $u['lastName'] ?? null, 'picture' => $u['picture'] ?? null,
        'role' => ROLE_LABEL[$u['role']], 'status' => $u['status'], 'permissions' => $u['permissions'] ?? [], 'createdAt' => $u['createdAt'], 'updatedAt' => $u['updatedAt'] ?? $u['createdAt']];
}
function roleIn($v, string $f): string {
    if (!is_string($v)) vfail($f, 'must be a string');
    foreach (ROLE_LABEL as $k => $l) if (strcasecmp($v, $l) === 0 || $v === $k) return $k;
    vfail($f, 'must be one of ' . implode(', ', ROLE_LABEL));
}
function h_usersList(array $p): never {
    $s = q('search');
    $all = array_values(array_filter(dlist('user'), fn($u) => $s === null || $s === '' || stripos($u['email'] . ' ' . $u['firstName'] . ' ' . ($u['lastName'] ?? ''), $s) !== false));
    send(200, listResp($all, fn($u) => $u['id'], 'userOut'));
}
function userOr404(string $id): array { $u = preg_match('/^\d{1,12}$/', $id) ? dget('user', $id) : null; if (!$u) fail(404, 'USER_NOT_FOUND', "user $id not found"); return $u; }
function h_userGet(array $p): never { send(200, ['user' => userOut(userOr404($p['userId']))]); }
function h_userCreate(array $p): never {
    $o = tx(function () {
        accountWrite();
        $b = body();
        $v = genValidate(['fields' => ['email' => ['email', true], 'firstName' => ['string', false], 'lastName' => ['string', false]]], $b, true);
        $role = isset($b['role']) ? roleIn($b['role'], 'role') : 'viewer';
        foreach (dlist('user') as $u) if (strcasecmp($u['email'], $v['email']) === 0) fail(409, 'ALREADY_EXISTS', 'a user with this email already exists');
        $id = nextId('user'); $now = nowIso();
        $u = ['id' => $id, 'email' => $v['email'], 'firstName' => $v['firstName'] ?? null, 'lastName' => $v['lastName'] ?? null, 'picture' => null, 'role' => $role,
            'status' => 'active', 'permissions' => [], 'createdAt' => $now, 'updatedAt' => $now];
        dput('user', $id, null, $u); audit('User invited', null, ['invitedEmail' => $u['email']]);
        return userOut($u);
    });
    send(201, ['user' => $o], ['LOCATION' => baseUrl() . '/api/v1/users/' . $o['id']]);
}
function h_userUpdate(array $p): never {
    $o = tx(function () use ($p) {
        accountWrite();
        $u = userOr404($p['userId']);
        $b = body();
        $v = genValidate(['fields' => ['firstName' => ['string', false], 'lastName' => ['string', false], 'email' => ['email', false]]], $b, false);
        foreach ($v as $k => $x) if ($x !== null || $k !== 'email') $u[$k] = $x;
        if (isset($b['role'])) { $r = roleIn($b['role'], 'role'); if ($u['id'] === me()['id'] && $r !== $u['role']) vfail('role', 'you cannot change your own role'); $u['role'] = $r; }
        if (isset($b['status'])) { $s = bEnum($b, 'status', ['active', 'deactivated']); if ($u['id'] === me()['id'] && $s !== $u['status']) vfail('status', 'you cannot change your own status'); $u['status'] = $s; }
        $u['updatedAt'] = nowIso(); dput('user', $u['id'], null, $u);
        return userOut($u);
    });
    send(200, ['user' => $o]);
}
function h_usersBulk(array $p): never {
    $o = tx(function () {
        accountWrite();
        $b = body();
        $action = bEnum($b, 'action', ['DEACTIVATE', 'ACTIVATE', 'DELETE'], true);
        $ids = bList($b, 'userIds', true);
        if (!$ids || count($ids) > 100) vfail('userIds', 'must hold 1..100 user ids');
        $ok = []; $failed = [];
        foreach (array_unique(array_map(fn($x) => isInt($x) ? (int)$x : -1, $ids)) as $id) {
            $u = $id > 0 ? dget('user', $id) : null;
            if (!$u) { $failed[] = ['userId' => $id, 'error' => ['message' => "user $id not found", 'status' => 404]]; continue; }
            if ($id === me()['id'] && $action !== 'ACTIVATE') { $failed[] = ['userId' => $id, 'error' => ['message' => 'you cannot deactivate or delete yourself', 'status' => 400]]; continue; }
            if ($action === 'DELETE') ddel('user', $id); else { $u['status'] = $action === 'ACTIVATE' ? 'active' : 'deactivated'; $u['updatedAt'] = nowIso(); dput('user', $id, null, $u); }
            $ok[] = $id;
        }
        return ['action' => $action, 'succeeded' => $ok, 'failed' => $failed];
    });
    send(200, $o);
}
function h_attrValuesGet(array $p): never {
    $u = userOr404($p['userId']);
    $vals = dget('attrValues', $u['id'])['values'] ?? [];
    send(200, ['userAttributeValues' => ['userId' => $u['id'], 'values' => obj($vals)]]);
}
function h_attrValuesPut(array $p): never {
    $o = tx(function () use ($p) {
        accountWrite();
        $u = userOr404($p['userId']);
        $b = body();
        $vals = bObj($b, 'values', true);
        $attrs = []; foreach (dlist('userAttribute', 'acct') as $a) $attrs[$a['name']] = $a['type'];
        $cur = asArr(dget('attrValues', $u['id'])['values'] ?? []);
        foreach ($vals as $k => $v) {
            if (!isset($attrs[$k])) vfail("values.$k", 'unknown user attribute');
            $t = $attrs[$k];
            $ok = $v === null || match ($t) { 'string' => is_string($v), 'number' => is_int($v) || is_float($v), 'boolean' => is_bool($v),
                'string_array' => isList($v) && !array_filter($v, fn($x) => !is_string($x)), 'number_array' => isList($v) && !array_filter($v, fn($x) => !is_int($x) && !is_float($x)) };
            if (!$ok) vfail("values.$k", "must be of type $t");
            if ($v === null) unset($cur[$k]); else $cur[$k] = $v;
        }
        dput('attrValues', $u['id'], null, ['values' => $cur]);
        return ['userId' => $u['id'], 'values' => obj($cur)];
    });
    send(200, ['userAttributeValues' => $o]);
}
const TENANT_FIELDS = ['auditLogEnabled' => 'bool', 'applyThemeGlobally' => 'bool', 'sheetsUi' => 'bool', 'defaultTimezone' => 'string', 'appTheme' => 'object', 'allowedOrigins' => 'array', 'sessionTimeoutMinutes' => 'int'];
function tenantOut(array $t): array { $o = []; foreach (TENANT_FIELDS as $k => $ty) $o[$k] = $ty === 'object' ? obj($t[$k] ?? []) : ($t[$k] ?? null); return $o; }
function h_tenantGet(array $p): never { send(200, ['tenantSettings' => tenantOut(dget('tenant', 'settings'))]); }
function h_tenantPut(array $p): never {
    $o = tx(function () {
        accountWrite();
        $t = dget('tenant', 'settings'); $b = body();
        foreach (TENANT_FIELDS as $k => $ty) {
            if (!array_key_exists($k, $b)) continue;
            $v = match ($ty) { 'bool' => bBool($b, $k), 'string' => bStr($b, $k, false, 100), 'object' => bObj($b, $k), 'array' => bList($b, $k), 'int' => bInt($b, $k, false, 1, 100000) };
            $t[$k] = $v;
        }
        dput('tenant', 'settings', null, $t);
        return tenantOut($t);
    });
    send(200, ['tenantSettings' => $o]);
}

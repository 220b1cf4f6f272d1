<?php
declare(strict_types=1);
// Generic CRUD resources of E14. Each answer wraps a single object in a key named after the resource.
// field spec: [type, required, extra]; types: string, int, bool, object, array, enum, email, secret, cron
const RESOURCES = [
    'group' => ['kind' => 'group', 'key' => 'group', 'scope' => 'account', 'search' => ['name'],
        'fields' => ['name' => ['string', true], 'description' => ['string', false], 'userIds' => ['intarray', false]]],
    'policy' => ['kind' => 'policy', 'key' => 'policy', 'scope' => 'account', 'search' => ['name'],
        'fields' => ['name' => ['string', true], 'actions' => ['enumarray', true, ['AuditLogManage', 'SecretsManage', 'DownloadData', 'DeploymentManage', 'WorkbookCreate']],
            'userIds' => ['intarray', false], 'groupIds' => ['intarray', false]]],
    'embedTenant' => ['kind' => 'embedTenant', 'key' => 'embedTenant', 'scope' => 'account', 'search' => ['name'],
        'fields' => ['name' => ['string', true], 'externalId' => ['string', false], 'description' => ['string', false]]],
    'embedUser' => ['kind' => 'embedUser', 'key' => 'embedUser', 'scope' => 'parent', 'parent' => ['embedTenant', 'tenantId'], 'search' => ['email', 'externalId'],
        'fields' => ['email' => ['email', true], 'externalId' => ['string', false], 'firstName' => ['string', false], 'attributes' => ['object', false]]],
    'embedGroup' => ['kind' => 'embedGroup', 'key' => 'embedGroup', 'scope' => 'parent', 'parent' => ['embedTenant', 'tenantId'], 'search' => ['name'],
        'fields' => ['name' => ['string', true], 'description' => ['string', false]]],
    'embedMember' => ['kind' => 'embedMember', 'key' => 'embedGroupMember', 'scope' => 'parent', 'parent' => ['embedGroup', 'groupId'], 'search' => [],
        'fields' => ['userId' => ['int', true]]],
    'userAttribute' => ['kind' => 'userAttribute', 'key' => 'userAttribute', 'scope' => 'account', 'search' => ['name'],
        'fields' => ['name' => ['string', true], 'type' => ['enum', true, ['string', 'number', 'boolean', 'string_array', 'number_array']],
            'description' => ['string', false], 'defaultValue' => ['any', false]]],
    'oauthIntegration' => ['kind' => 'oauthIntegration', 'key' => 'oauthIntegration', 'scope' => 'account', 'search' => ['name', 'provider'],
        'fields' => ['name' => ['string', true], 'provider' => ['enum', true, ['google', 'microsoft', 'salesforce', 'slack', 'github', 'snowflake', 'custom']],
            'clientId' => ['string', false], 'clientSecret' => ['secret', false], 'scopes' => ['strarray', false], 'authorizeUrl' => ['string', false], 'tokenUrl' => ['string', false]]],
    'userOauthToken' => ['kind' => 'userOauthToken', 'key' => 'userOauthToken', 'scope' => 'account', 'search' => [],
        'fields' => ['integrationId' => ['int', true], 'accessToken' => ['secret', true], 'refreshToken' => ['secret', false], 'expiresAt' => ['string', false], 'userId' => ['int', false]]],
    'oidcTokenConfig' => ['kind' => 'oidcTokenConfig', 'key' => 'oidcTokenConfig', 'scope' => 'account', 'search' => ['name', 'issuer'],
        'fields' => ['name' => ['string', true], 'issuer' => ['string', true], 'audience' => ['string', false], 'jwksUrl' => ['string', false], 'claimMappings' => ['object', false]]],
    'notification' => ['kind' => 'notification', 'key' => 'notification', 'scope' => 'deployment', 'search' => ['name'],
        'fields' => ['name' => ['string', true], 'workbookId' => ['int', true], 'schedule' => ['cron', true], 'timezone' => ['string', false],
            'timeGrain' => ['enum', false, ['hour', 'day', 'week', 'month', 'quarter', 'year']], 'recipients' => ['strarray', false],
            'filters' => ['filters', false], 'enabled' => ['bool', false]]],
];
const FILTER_OPS = ['equals', 'not_equals', 'contains', 'not_contains', 'gt', 'gte', 'lt', 'lte', 'in_date_range', 'before_date', 'after_date', 'is_empty', 'is_not_empty'];

function genValidate(array $res, array $b, bool $create): array {
    $out = [];
    foreach ($res['fields'] as $f => $spec) {
        [$t, $req] = $spec;
        if (!array_key_exists($f, $b) || $b[$f] === null) {
            if ($create && $req) vfail($f, 'is required');
            if (array_key_exists($f, $b) && !$req) $out[$f] = null;
            continue;
        }
        $v = $b[$f];
        switch ($t) {
            case 'string': case 'secret': if (!is_string($v)) vfail($f, 'must be a string'); if ($v === '' && $req) vfail($f, 'must not be empty'); if (strlen($v) > 1000) vfail($f, 'must be at most 1000 characters'); break;
            case 'email': if (!is_string($v) || !preg_match('/^[^@\s]+@[^@\s]+\.[^@\s]+$/', $v) || strlen($v) > 254) vfail($f, 'must be an email address'); $v = strtolower($v); break;
            case 'int': if (!isInt($v) || $v < 0) vfail($f, 'must be a non-negative integer'); $v = (int)$v; break;
            case 'bool': if (!is_bool($v)) vfail($f, 'must be a boolean'); break;
            case 'object': if (!($v instanceof stdClass) && !isObj($v)) vfail($f, 'must be an object'); break;
            case 'enum': if (!is_string($v) || !in_array($v, $spec[2], true)) vfail($f, 'must be one of ' . implode(', ', $spec[2])); break;
            case 'intarray': if (!isList($v)) vfail($f, 'must be an array of integers'); foreach ($v as $x) if (!isInt($x)) vfail($f, 'must be an array of integers'); $v = array_map('intval', $v); break;
            case 'strarray': if (!isList($v)) vfail($f, 'must be an array of strings'); foreach ($v as $x) if (!is_string($x)) vfail($f, 'must be an array of strings'); break;
            case 'enumarray': if (!isList($v)) vfail($f, 'must be an array'); foreach ($v as $x) if (!is_string($x) || !in_array($x, $spec[2], true)) vfail($f, 'values must be one of ' . implode(', ', $spec[2])); break;
            case 'cron': if (!is_string($v) || count(preg_split('/\s+/', trim($v))) !== 5 || !preg_match('/^[0-9*\/,\-\sA-Za-z?]+$/', $v)) vfail($f, 'must be a 5-field cron expression'); break;
            case 'filters':
                if (!isList($v)) vfail($f, 'must be an array');
                foreach ($v as $i => $x) {
                    if (!isObj($x)) vfail("{$f}[$i]", 'must be an object');
                    if (!isset($x['member']) || !is_string($x['member'])) vfail("{$f}[$i].member", 'is required');
                    if (!isset($x['operator']) || !in_array($x['operator'], FILTER_OPS, true)) vfail("{$f}[$i].operator", 'must be one of ' . implode(', ', FILTER_OPS));
                    $vals = $x['values'] ?? null;
                    if ($vals !== null && !isList($vals)) vfail("{$f}[$i].values", 'must be an array');
                    if (in_array($x['operator'], ['is_empty', 'is_not_empty'], true)) { if ($vals) vfail("{$f}[$i].values", 'must be empty for ' . $x['operator']); }
                    elseif (!$vals) vfail("{$f}[$i].values", 'at least one value is required');
                }
                break;
            case 'any': break;
        }
        $out[$f] = $v;
    }
    return $out;
}
function genOut(array $res, array $r): array {
    $o = [];
    $secrets = [];
    foreach ($r as $k => $v) {
        if (($res['fields'][$k][0] ?? '') === 'secret') { if ($v !== null && $v !== '') $secrets[] = $k; continue; }
        if (($res['fields'][$k][0] ?? '') === 'object') $v = $v === null ? null : obj($v);
        $o[$k] = $v;
    }
    foreach ($res['fields'] as $f => $spec) if (!array_key_exists($f, $o) && $spec[0] !== 'secret') $o[$f] = null;
    if (array_filter($res['fields'], fn($s) => $s[0] === 'secret')) $o['secretFields'] = $secrets;
    return $o;
}
function genScope(array $res, array $p): string {
    if ($res['scope'] === 'deployment') { $d = depOr404($p['deploymentId']); return 'd' . $d['id']; }
    if ($res['scope'] === 'parent') {
        [$pk, $pp] = $res['parent'];
        $par = preg_match('/^\d{1,12}$/', $p[$pp]) ? dget($pk, $p[$pp]) : null;
        if (!$par || ($pk === 'embedGroup' && (string)($par['_tenant'] ?? '') !== $p['tenantId'])) fail(404, 'NOT_FOUND', "$pk {$p[$pp]} not found");
        if ($pk === 'embedGroup') { $t = dget('embedTenant', $p['tenantId']); if (!$t) fail(404, 'NOT_FOUND', "embed tenant {$p['tenantId']} not found"); }
        return $pk . $p[$pp];
    }
    return 'acct';
}
function genWriteCheck(array $res): void {
    if ($res['scope'] === 'deployment') needRole('ai_bi_user', 'changing notifications');
    else accountWrite();
}
function genGet(array $res, array $p, string $scope): array {
    $idp = $res['idParam'];
    $r = preg_match('/^\d{1,12}$/', $p[$idp]) ? dget($res['kind'], $p[$idp]) : null;
    if (!$r || ($r['_scope'] ?? '') !== $scope) fail(404, 'NOT_FOUND', $res['key'] . " {$p[$idp]} not found");
    return $r;
}
function genStrip(array $r): array { foreach (array_keys($r) as $k) if (is_string($k) && $k[0] === '_') unset($r[$k]); return $r; }
function genHandler(string $name, string $op): callable {
    return function (array $p) use ($name, $op) {
        $res = RESOURCES[$name] + ['idParam' => $GLOBALS['RES_IDPARAM'][$name] ?? 'id'];
        if ($op === 'list') {
            $scope = tx(fn() => genScope($res, $p), false);
            $s = q('search');
            $all = array_values(array_filter(dlist($res['kind'], $scope), function ($r) use ($s, $res) {
                if ($s === null || $s === '') return true;
                foreach ($res['search'] as $f) if (is_string($r[$f] ?? null) && stripos($r[$f], $s) !== false) return true;
                return false;
            }));
            if ($name === 'notification' && ($w = q('workbookId')) !== null && $w !== '') $all = array_values(array_filter($all, fn($r) => (string)$r['workbookId'] === $w));
            send(200, listResp($all, fn($r) => $r['id'], fn($r) => genOut($res, genStrip($r))));
        }
        if ($op === 'get') { $scope = genScope($res, $p); send(200, [$res['key'] => genOut($res, genStrip(genGet($res, $p, $scope)))]); }
        $out = tx(function () use ($res, $p, $op, $name) {
            $scope = genScope($res, $p);
            genWriteCheck($res);
            if ($op === 'create') {
                $b = body();
                $v = genValidate($res, $b, true);
                if ($name === 'notification') { $all = wsAll(substr($scope, 1)); if (!isset($all[$v['workbookId']]) || $all[$v['workbookId']]['type'] !== 'WORKBOOK') vfail('workbookId', 'workbook not found in this deployment'); }
                if ($name === 'embedMember') { $u = dget('embedUser', $v['userId']); if (!$u || 'embedTenant' . $u['_tenant'] !== 'embedTenant' . $p['tenantId']) vfail('userId', 'embed user not found in this tenant'); foreach (dlist($res['kind'], $scope) as $m) if ($m['userId'] === $v['userId']) fail(409, 'ALREADY_EXISTS', 'user is already a member'); }
                if (isset($res['fields']['name']) && $res['scope'] !== 'parent') foreach (dlist($res['kind'], $scope) as $r) if (strcasecmp($r['name'] ?? '', $v['name']) === 0) fail(409, 'ALREADY_EXISTS', $res['key'] . " named '{$v['name']}' already exists");
                $id = nextId('rec');
                $now = nowIso();
                $r = ['id' => $id] + $v + ['createdAt' => $now, 'updatedAt' => $now, 'createdBy' => me()['id'], '_scope' => $scope];
                if ($name === 'embedUser' || $name === 'embedGroup') $r['_tenant'] = (int)$p['tenantId'];
                if ($name === 'notification') $r += ['enabled' => $v['enabled'] ?? true, 'timezone' => $v['timezone'] ?? 'UTC'];
                dput($res['kind'], $id, $scope, $r);
                return [201, [$res['key'] => genOut($res, genStrip($r))], $r['id']];
            }
            $r = genGet($res, $p, $scope);
            if ($op === 'update') {
                $b = body();
                $v = genValidate($res, $b, false);
                foreach ($v as $k => $x) if (!($res['fields'][$k][1] && $x === null)) $r[$k] = $x;
                $r['updatedAt'] = nowIso();
                dput($res['kind'], $r['id'], $scope, $r);
                return [200, [$res['key'] => genOut($res, genStrip($r))], null];
            }
            ddel($res['kind'], $r['id']);
            if ($name === 'embedTenant') db()->prepare("DELETE FROM docs WHERE dep=? OR dep LIKE ?")->execute(['embedTenant' . $r['id'], 'embedTenant' . $r['id'] . '%']);
            return [200, ['id' => $r['id'], 'status' => 'deleted'], null];
        });
        [$st, $body, $newId] = $out;
        $h = [];
        if ($st === 201) $h['LOCATION'] = baseUrl() . rtrim(reqPath(), '/') . '/' . $newId;
        send($st, $body, $h);
    };
}
function baseUrl(): string { return 'http://' . ($_SERVER['HTTP_HOST'] ?? '127.0.0.1'); }
function reqPath(): string { return $GLOBALS['REQ']['path']; }

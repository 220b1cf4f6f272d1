<?php
declare(strict_types=1);
const REGIONS = [
    ['id' => 'us-east-1', 'name' => 'US East (N. Virginia)', 'cloudProvider' => 'aws'],
    ['id' => 'eu-west-1', 'name' => 'EU West (Ireland)', 'cloudProvider' => 'aws'],
    ['id' => 'us-central1', 'name' => 'US Central (Iowa)', 'cloudProvider' => 'gcp'],
    ['id' => 'europe-west3', 'name' => 'Europe West (Frankfurt)', 'cloudProvider' => 'gcp'],
    ['id' => 'hosted-us', 'name' => 'Hosted US', 'cloudProvider' => 'cubecloud'],
    ['id' => 'hosted-eu', 'name' => 'Hosted EU', 'cloudProvider' => 'cubecloud'],
];
const CREATION_STEPS = ['source', 'credentials', 'data-model', 'deploy', 'finished'];

function h_spec(array $p): never { require_once __DIR__ . '/openapi.php'; send(200, openapiDoc()); }
function h_appConfig(array $p): never {
    $ts = dget('tenant', 'settings');
    send(200, ['appConfig' => ['appTheme' => obj($ts['appTheme'] ?? []), 'applyThemeGlobally' => (bool)($ts['applyThemeGlobally'] ?? false),
        'creatorMode' => (bool)C()['creator'], 'embedding' => ['enabled' => true, 'signedEmbedding' => true, 'allowedOrigins' => $ts['allowedOrigins'] ?? []],
        'sheetsUi' => ['enabled' => (bool)($ts['sheetsUi'] ?? true)], 'timezoneSettings' => ['defaultTimezone' => $ts['defaultTimezone'] ?? 'UTC', 'allowUserOverride' => true]]]);
}
function h_settings(array $p): never {
    $d = depOr404($p['deploymentId']);
    needRole('developer', 'reading deployment settings');
    $vars = [];
    foreach (envVarsSorted($d['id']) as $v) if (!isSecretName($v['name'])) $vars[$v['name']] = $v['value'];
    $full = depFull($d);
    send(200, ['settings' => ['deploymentId' => $d['id'], 'general' => ['name' => $d['name'], 'cloudProvider' => $d['cloudProvider'], 'region' => $d['region'],
        'creationMethod' => $d['creationMethod'], 'deployMode' => $d['deployMode']],
        'release' => ['releaseChannel' => $d['releaseChannel'], 'releaseChannelVersion' => $full['releaseChannelVersion'], 'version' => $d['version'], 'releaseChannelVersionHold' => $d['releaseChannelVersionHold']],
        'template' => $d['template'], 'templateVariables' => $full['templateVariables'], 'environmentVariables' => obj($vars),
        'launchpad' => ['defaultLaunchpadViewGroup' => $d['defaultLaunchpadViewGroup'], 'launchpadTabs' => $d['launchpadTabs']],
        'workbookLimit' => $d['workbookLimit']]]);
}
function h_deleteDeployment(array $p): never {
    tx(function () use ($p) {
        $d = depOr404($p['deploymentId']);
        needRole('admin', 'deleting a deployment');
        if (C()['scope'] !== null) fail(403, 'KEY_SCOPED', 'a deployment-scoped key cannot delete deployments');
        db()->prepare("DELETE FROM docs WHERE dep=? OR dep=? OR (kind='dep' AND id=?)")->execute([$d['id'], 'd' . $d['id'], $d['id']]);
        audit('Deployment deleted', $d['name']);
    });
    send(200, ['id' => $p['deploymentId'], 'status' => 'deleted']);
}
function branchByParam(array $d, ?string $name, bool $required = false): array {
    if ($name === null || $name === '') { if ($required) vfail('branchName', 'is required'); $name = 'main'; }
    $b = findBranch($d['id'], $name, null);
    if (!$b) fail(404, 'BRANCH_NOT_FOUND', "branch '" . substr($name, 0, 100) . "' not found");
    return $b;
}
function buildState(array $b): string {
    if (!empty($b['buildStartedAt']) && microtime(true) - $b['buildStartedAt'] < 2.0) return 'in_progress';
    return $b['lastBuild'] ?? 'success';
}
function h_buildStatus(array $p): never {
    $d = depOr404($p['deploymentId']);
    $b = branchByParam($d, q('branchName'));
    send(200, ['buildStatus' => ['deploymentId' => $d['id'], 'branchName' => $b['name'], 'status' => buildState($b), 'lastHash' => $b['lastHash'],
        'updatedAt' => isset($b['buildStartedAt']) ? isoTime((int)$b['buildStartedAt']) : $d['updated_at']]]);
}
function h_logs(array $p): never {
    $d = depOr404($p['deploymentId']);
    needRole('developer', 'reading logs');
    $src = qenum('source', ['production', 'dev']);
    $ctr = qenum('container', ['INIT', 'MAIN', 'vector', 'api-proxy', 'cube']);
    $t0 = strtotime('2026-01-10T08:00:00Z'); $all = [];
    $ctrs = ['INIT', 'MAIN', 'vector', 'api-proxy', 'cube']; $msgs = ['Starting container', 'Loaded schema', 'Query completed in 123ms', 'Health check ok', 'Refreshing pre-aggregations'];
    for ($i = 0; $i < 40; $i++) {
        $e = ['id' => $i + 1, 'timestamp' => isoTime($t0 + $i * 37), 'source' => $i % 3 === 0 ? 'dev' : 'production', 'container' => $ctrs[$i % 5],
            'level' => $i % 7 === 0 ? 'warn' : 'info', 'message' => $msgs[$i % 5]];
        if ($src && $e['source'] !== $src) continue;
        if ($ctr && $e['container'] !== $ctr) continue;
        $all[] = $e;
    }
    send(200, listResp($all, fn($e) => $e['id'], fn($e) => $e));
}
function h_pods(array $p): never {
    $d = depOr404($p['deploymentId']);
    $pods = [];
    foreach (['api', 'refresh-worker', 'cubestore-router'] as $i => $n) $pods[] = ['name' => "d{$d['id']}-$n-" . substr(md5($n . $d['id']), 0, 5), 'role' => $n, 'status' => 'Running',
        'restarts' => $i, 'startedAt' => $d['updated_at'], 'containers' => $i === 0 ? ['INIT', 'MAIN', 'vector', 'api-proxy', 'cube'] : ['MAIN']];
    send(200, listResp($pods, fn($x) => $x['name'], fn($x) => $x));
}
function stepOut(array $d): array { $i = array_search($d['creationStep'], CREATION_STEPS, true); return ['creationStep' => ['deploymentId' => $d['id'], 'step' => $d['creationStep'], 'index' => $i, 'steps' => CREATION_STEPS, 'complete' => $d['creationStep'] === 'finished']]; }
function h_stepAdvance(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'driving the setup wizard');
        $i = array_search($d['creationStep'], CREATION_STEPS, true);
        if ($i === count(CREATION_STEPS) - 1) fail(409, 'SETUP_COMPLETE', 'the setup wizard is already finished');
        $d['creationStep'] = CREATION_STEPS[$i + 1]; dput('dep', $d['id'], null, $d); return stepOut($d);
    });
    send(200, $o);
}
function h_stepReset(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'driving the setup wizard');
        $d['creationStep'] = CREATION_STEPS[0]; dput('dep', $d['id'], null, $d); return stepOut($d);
    });
    send(200, $o);
}
function h_regions(array $p): never {
    $cp = q('cloudProvider');
    $all = array_values(array_filter(REGIONS, fn($r) => $cp === null || $cp === '' || $r['cloudProvider'] === normHosted($cp)));
    send(200, listResp($all, fn($r) => $r['id'], fn($r) => $r));
}
function newBranch(string $dep, string $name, string $kind, ?string $parent, ?int $owner, array $files): array {
    $id = nextId('branch');
    $b = ['id' => $id, 'name' => $name, 'kind' => $kind, 'parentBranch' => $parent, 'lastHash' => substr(sha1($name . $id . microtime()), 0, 12),
        'isStagingEnvironmentEnabled' => false, 'ownerId' => $owner, 'devMode' => false, 'files' => $files, 'dirty' => false, 'createdAt' => nowIso()];
    dput('branch', $id, $dep, $b);
    return $b;
}
function h_createDeployment(array $p): never {
    $o = tx(function () {
        accountWrite();
        $b = body();
        $name = bStr($b, 'name', true, 120, 1);
        $cp = normHosted(bStr($b, 'cloudProvider', false, 64) ?? HOSTED);
        if (!in_array($cp, [HOSTED, 'aws', 'gcp'], true)) vfail('cloudProvider', 'must be one of cubecloud, aws, gcp');
        $rg = bStr($b, 'region', false, 64) ?? ($cp === 'gcp' ? 'us-central1' : ($cp === 'aws' ? 'us-east-1' : 'hosted-us'));
        $r = array_values(array_filter(REGIONS, fn($x) => $x['id'] === $rg));
        if (!$r || $r[0]['cloudProvider'] !== $cp) vfail('region', "unknown region for cloud provider $cp");
        $cm = normHosted(bStr($b, 'creationMethod', false, 64) ?? HOSTED);
        if (!in_array($cm, ['upload', HOSTED, 'github', 'ssh'], true)) vfail('creationMethod', 'must be one of upload, cubecloud, github, ssh');
        $dm = bEnum($b, 'deployMode', ['git', 'cli']) ?? 'git';
        $id = (string)nextId('dep', 17);
        $now = nowIso();
        $d = ['id' => $id, 'name' => $name, 'created_at' => $now, 'updated_at' => $now, 'plan' => 'enterprise', 'cloudProvider' => $cp, 'region' => $rg,
            'releaseChannel' => 'latest', 'version' => headOf('latest'), 'releaseChannelVersionHold' => false, 'versionHistory' => [], 'template' => null,
            'templateVariables' => [], 'defaultLaunchpadViewGroup' => null, 'launchpadTabs' => [], 'creationMethod' => $cm, 'deployMode' => $dm,
            'creationStep' => CREATION_STEPS[0], 'workbookLimit' => null, 'ownerId' => me()['id'], 'members' => []];
        dput('dep', $id, null, $d);
        newBranch($id, 'main', 'production', null, null, ['model/cubes/orders.yml' => "cubes:\n  - name: orders\n    sql_table: orders\n"]);
        audit('Deployment created', $name);
        return depFull($d);
    });
    send(201, ['deployment' => $o], ['LOCATION' => baseUrl() . '/api/v1/deployments/' . $o['id']]);
}
// ---- data model ----
function fileList(array $b): array { $out = []; foreach (asArr($b['files'] ?? []) as $path => $c) $out[] = ['path' => (string)$path, 'size' => strlen($c), 'sha1' => sha1($c), 'content' => $c]; usort($out, fn($a, $c) => strcmp($a['path'], $c['path'])); return $out; }
function h_filesList(array $p): never {
    $d = depOr404($p['deploymentId']); needRole('developer', 'reading data-model files');
    $b = branchByParam($d, q('branchName'));
    send(200, listResp(fileList($b), fn($f) => $f['path'], fn($f) => $f));
}
function validPath(string $f, $v): string {
    if (!is_string($v) || $v === '' || strlen($v) > 512 || str_contains($v, '..') || $v[0] === '/' || preg_match('/[\x00-\x1f\\\\]/', $v)) vfail($f, 'must be a relative file path');
    return $v;
}
function devBranch(array $d, array $b): array {
    $br = branchByParam($d, bStr($b, 'branchName', false, 255) ?? q('branchName'));
    if (empty($br['devMode'])) fail(412, 'NOT_IN_DEV_MODE', "branch '{$br['name']}' is not in dev mode; start dev mode before writing files");
    return $br;
}
function h_filesWrite(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'writing data-model files');
        $b = body();
        $files = bList($b, 'files', true);
        $br = devBranch($d, $b);
        $fs = asArr($br['files'] ?? []); $written = [];
        foreach ($files as $i => $f) {
            if (!isObj($f)) vfail("files[$i]", 'must be an object {path, content}');
            $path = validPath("files[$i].path", $f['path'] ?? null);
            if (!isset($f['content']) || !is_string($f['content'])) vfail("files[$i].content", 'must be a string');
            $fs[$path] = $f['content']; $written[] = $path;
        }
        $br['files'] = $fs; $br['dirty'] = true; dput('branch', $br['id'], $d['id'], $br);
        return ['branchName' => $br['name'], 'written' => $written];
    });
    send(200, ['files' => $o]);
}
function h_filesDelete(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'removing data-model files');
        $b = body(true);
        $paths = bList($b, 'paths') ?? [];
        if (($qp = q('paths')) !== null && $qp !== '') $paths = array_merge($paths, explode(',', $qp));
        if (($qp = q('path')) !== null && $qp !== '') $paths[] = $qp;
        if (!$paths) vfail('paths', 'at least one path is required');
        $br = devBranch($d, $b);
        $fs = asArr($br['files'] ?? []);
        foreach ($paths as $i => $x) { validPath("paths[$i]", $x); if (!array_key_exists($x, $fs)) fail(404, 'FILE_NOT_FOUND', "file '$x' not found"); }
        foreach ($paths as $x) unset($fs[$x]);
        $br['files'] = $fs; $br['dirty'] = true; dput('branch', $br['id'], $d['id'], $br);
        return ['branchName' => $br['name'], 'removed' => array_values(array_unique($paths))];
    });
    send(200, ['files' => $o]);
}
function h_filesRename(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'renaming data-model files');
        $b = body();
        $list = bList($b, 'files', true);
        $br = devBranch($d, $b);
        $fs = asArr($br['files'] ?? []); $done = [];
        foreach ($list as $i => $r) {
            if (!isObj($r)) vfail("files[$i]", 'must be an object {fromPath, toPath}');
            $from = validPath("files[$i].fromPath", $r['fromPath'] ?? null); $to = validPath("files[$i].toPath", $r['toPath'] ?? null);
            if (!array_key_exists($from, $fs)) fail(404, 'FILE_NOT_FOUND', "file '$from' not found");
            if (array_key_exists($to, $fs)) fail(409, 'FILE_EXISTS', "file '$to' already exists");
            $fs[$to] = $fs[$from]; unset($fs[$from]); $done[] = ['fromPath' => $from, 'toPath' => $to];
        }
        $br['files'] = $fs; $br['dirty'] = true; dput('branch', $br['id'], $d['id'], $br);
        return ['branchName' => $br['name'], 'renamed' => $done];
    });
    send(200, ['files' => $o]);
}
function h_validate(array $p): never {
    $d = depOr404($p['deploymentId']); needRole('developer', 'validating the data model');
    $b = branchByParam($d, q('branchName'));
    $errors = []; $cubes = 0; $views = 0;
    foreach (asArr($b['files'] ?? []) as $path => $c) {
        if (preg_match('/\.ya?ml$/', (string)$path)) {
            if (str_contains($c, "\t")) $errors[] = ['fileName' => $path, 'line' => substr_count(substr($c, 0, strpos($c, "\t")), "\n") + 1, 'message' => 'tabs are not allowed in YAML'];
            elseif (!preg_match('/^\s*(cubes|views):/m', $c)) $errors[] = ['fileName' => $path, 'line' => 1, 'message' => 'a model file must start with cubes: or views:'];
            $cubes += preg_match_all('/^\s*-\s*name:/m', $c);
            if (preg_match('/^views:/m', $c)) $views++;
        } elseif (preg_match('/\.js$/', (string)$path)) {
            if (substr_count($c, '{') !== substr_count($c, '}') || substr_count($c, '(') !== substr_count($c, ')')) $errors[] = ['fileName' => $path, 'line' => 1, 'message' => 'unbalanced brackets'];
            $cubes += preg_match_all('/\bcube\s*\(/', $c);
        }
    }
    send(200, ['validation' => ['branchName' => $b['name'], 'valid' => !$errors, 'errors' => $errors, 'cubeCount' => $cubes, 'viewCount' => $views]]);
}
function h_fileHashes(array $p): never {
    $d = depOr404($p['deploymentId']); needRole('developer', 'reading file hashes');
    $b = branchByParam($d, q('branchName'));
    send(200, listResp(fileList($b), fn($f) => $f['path'], fn($f) => ['path' => $f['path'], 'hash' => $f['sha1']], 100));
}
function h_uploadStart(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'uploading');
        $b = body(true);
        $br = branchByParam($d, bStr($b, 'branchName', false, 255));
        $id = 'upl_' . rid(16);
        dput('upload', $id, $d['id'], ['uploadId' => $id, 'branchName' => $br['name'], 'status' => 'open', 'files' => [], 'createdAt' => nowIso()]);
        return ['uploadId' => $id, 'branchName' => $br['name'], 'status' => 'open', 'fileCount' => 0];
    });
    send(201, ['upload' => $o]);
}
function uploadOr404(array $d, array $b): array {
    $id = bStr($b, 'uploadId', true, 64);
    $u = dget('upload', $id);
    if (!$u || !is_array($u) || dget('upload', $id) === null) fail(404, 'UPLOAD_NOT_FOUND', 'upload not found');
    return $u;
}
function h_uploadFile(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'uploading');
        $b = body(); $u = uploadOr404($d, $b);
        if ($u['status'] !== 'open') fail(409, 'UPLOAD_FINISHED', 'the upload is already finished');
        $path = validPath('path', $b['path'] ?? null);
        $c = bStr($b, 'content', true, 4000000);
        $enc = bEnum($b, 'encoding', ['utf8', 'base64']) ?? 'utf8';
        if ($enc === 'base64') { $c = base64_decode($c, true); if ($c === false) vfail('content', 'is not valid base64'); }
        $files = asArr($u['files']); $files[$path] = (!empty($b['append']) ? ($files[$path] ?? '') : '') . $c; $u['files'] = $files;
        dput('upload', $u['uploadId'], $d['id'], $u);
        return ['uploadId' => $u['uploadId'], 'branchName' => $u['branchName'], 'status' => 'open', 'fileCount' => count($files)];
    });
    send(200, ['upload' => $o]);
}
function h_uploadFinish(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'uploading');
        $b = body(); $u = uploadOr404($d, $b);
        if ($u['status'] !== 'open') fail(409, 'UPLOAD_FINISHED', 'the upload is already finished');
        $br = branchByParam($d, $u['branchName']);
        $br['files'] = asArr($u['files']); $br['lastHash'] = substr(sha1(jenc($br['files']) . microtime()), 0, 12); $br['buildStartedAt'] = microtime(true); $br['dirty'] = false;
        dput('branch', $br['id'], $d['id'], $br);
        $u['status'] = 'finished'; dput('upload', $u['uploadId'], $d['id'], $u);
        return ['uploadId' => $u['uploadId'], 'branchName' => $u['branchName'], 'status' => 'finished', 'fileCount' => count(asArr($u['files'])), 'lastHash' => $br['lastHash']];
    });
    send(200, ['upload' => $o]);
}
function h_devModeStart(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'dev mode');
        $b = body(true);
        $name = bStr($b, 'branchName', false, 255);
        if ($name === null) {
            $name = 'dev-' . strtolower(preg_replace('/[^A-Za-z0-9]/', '', me()['firstName'] ?? 'user'));
            $br = findBranch($d['id'], $name, null) ?? newBranch($d['id'], $name, 'personal', 'main', me()['id'], asArr(findBranch($d['id'], 'main', null)['files'] ?? []));
        } else $br = branchByParam($d, $name);
        if ($br['kind'] === 'production') fail(422, 'PRODUCTION_BRANCH', 'dev mode cannot be started on the production branch');
        $br['devMode'] = true; dput('branch', $br['id'], $d['id'], $br);
        return branchOut($br);
    });
    send(200, ['branch' => $o]);
}
function h_devModeStop(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'dev mode');
        $name = q('branchName');
        if ($name === null || $name === '') { $b = body(true); $name = bStr($b, 'branchName', false, 255) ?? ('dev-' . strtolower(preg_replace('/[^A-Za-z0-9]/', '', me()['firstName'] ?? 'user'))); }
        $br = branchByParam($d, $name);
        $br['devMode'] = false; dput('branch', $br['id'], $d['id'], $br);
        return branchOut($br);
    });
    send(200, ['branch' => $o]);
}
function h_branchesList(array $p): never {
    $d = depOr404($p['deploymentId']); needRole('developer', 'listing branches');
    $all = dlist('branch', $d['id']);
    usort($all, fn($a, $b) => $a['id'] <=> $b['id']);
    send(200, listResp($all, fn($b) => $b['id'], 'branchOut'));
}
function h_branchCreate(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'creating branches');
        $b = body();
        $name = bStr($b, 'name', true, 100, 1);
        if (!preg_match('/^[A-Za-z0-9][A-Za-z0-9._\/-]*$/', $name)) vfail('name', 'must match ^[A-Za-z0-9][A-Za-z0-9._/-]*$');
        $from = branchByParam($d, bStr($b, 'from', false, 255));
        if (findBranch($d['id'], $name, null)) fail(409, 'BRANCH_EXISTS', "branch '$name' already exists");
        $personal = bBool($b, 'personal') ?? false;
        $br = newBranch($d['id'], $name, $personal ? 'personal' : 'shared', $from['name'], me()['id'], asArr($from['files'] ?? []));
        if (bBool($b, 'activate')) { $br['devMode'] = true; dput('branch', $br['id'], $d['id'], $br); }
        return branchOut($br);
    });
    send(201, ['branch' => $o], ['LOCATION' => baseUrl() . reqPath() . '?branchName=' . rawurlencode($o['name'])]);
}
function h_branchDelete(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'deleting branches');
        $name = q('branchName'); if ($name === null || $name === '') fail(400, 'INVALID_QUERY_PARAMETER', 'query parameter branchName is required');
        $rm = qbool('removeOnUpstream') ?? false;
        $br = branchByParam($d, $name);
        if ($br['kind'] === 'production') fail(422, 'PRODUCTION_BRANCH', 'the production branch cannot be deleted');
        foreach (dlist('branch', $d['id']) as $c) if ($c['parentBranch'] === $br['name']) { $c['parentBranch'] = $br['parentBranch']; dput('branch', $c['id'], $d['id'], $c); }
        ddel('branch', $br['id']);
        return ['id' => $br['id'], 'name' => $br['name'], 'status' => 'deleted', 'removedOnUpstream' => $rm];
    });
    send(200, $o);
}
function h_gitOp(string $op): callable {
    return function (array $p) use ($op) {
        $o = tx(function () use ($p, $op) {
            $d = depOr404($p['deploymentId']); needRole('developer', "git $op");
            $b = body(true);
            $br = branchByParam($d, bStr($b, 'branchName', false, 255), true);
            $res = ['operation' => $op, 'branchName' => $br['name']];
            if ($op === 'commit') {
                $msg = bStr($b, 'message', false, 2000) ?? 'Update data model';
                $res['committed'] = !empty($br['dirty']);
                if ($br['dirty']) { $br['lastHash'] = substr(sha1($msg . microtime()), 0, 12); $br['dirty'] = false; $br['buildStartedAt'] = microtime(true); }
                $res['message'] = $msg;
            } elseif ($op === 'pull') {
                $res['updated'] = false;
            } else {
                $target = $op === 'merge-to-default' ? 'main' : (bStr($b, 'targetBranch', false, 255) ?? bStr($b, 'into', false, 255) ?? $br['parentBranch'] ?? 'main');
                $t = branchByParam($d, $target);
                if ($t['id'] === $br['id']) vfail('targetBranch', 'cannot merge a branch into itself');
                if (!empty($br['dirty'])) fail(409, 'UNCOMMITTED_CHANGES', 'commit the branch before merging');
                $t['files'] = $br['files']; $t['lastHash'] = substr(sha1($br['lastHash'] . $t['lastHash']), 0, 12); $t['buildStartedAt'] = microtime(true);
                dput('branch', $t['id'], $d['id'], $t);
                $res['targetBranch'] = $t['name']; $res['targetHash'] = $t['lastHash'];
            }
            dput('branch', $br['id'], $d['id'], $br);
            $res['lastHash'] = $br['lastHash'];
            return $res;
        });
        send(200, ['git' => $o]);
    };
}
function h_githubConnect(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'connecting a repository');
        $b = body();
        $repo = bStr($b, 'repository', true, 200, 3);
        if (!preg_match('/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/', $repo)) vfail('repository', 'must look like owner/name');
        $branch = bStr($b, 'branch', false, 255) ?? 'main';
        $inst = bInt($b, 'installationId', false, 1);
        $d['github'] = ['repository' => $repo, 'branch' => $branch, 'installationId' => $inst, 'connectedAt' => nowIso()];
        $d['creationMethod'] = 'github'; dput('dep', $d['id'], null, $d);
        return ['deploymentId' => $d['id']] + $d['github'];
    });
    send(200, ['githubConnection' => $o]);
}
function h_githubStatus(array $p): never { send(200, ['github' => ['appInstalled' => true, 'connected' => true, 'account' => 'acme-analytics']]); }
const GH_INST = [['id' => 4401, 'account' => 'acme-analytics', 'type' => 'Organization'], ['id' => 4402, 'account' => 'ada-dev', 'type' => 'User']];
function h_githubInstallations(array $p): never { send(200, listResp(GH_INST, fn($x) => $x['id'], fn($x) => $x)); }
function h_githubRepos(array $p): never {
    $inst = array_values(array_filter(GH_INST, fn($x) => (string)$x['id'] === $p['installationId']));
    if (!$inst) fail(404, 'NOT_FOUND', 'installation not found');
    $repos = array_map(fn($n) => ['fullName' => $inst[0]['account'] . "/$n", 'name' => $n, 'owner' => $inst[0]['account'], 'private' => true, 'defaultBranch' => 'main'], ['cube-model', 'analytics-infra', 'dbt-project']);
    send(200, listResp($repos, fn($x) => $x['fullName'], fn($x) => $x));
}
function h_githubBranches(array $p): never {
    if (!in_array($p['owner'], ['acme-analytics', 'ada-dev'], true)) fail(404, 'NOT_FOUND', 'repository not found');
    $br = array_map(fn($n) => ['name' => $n, 'commitSha' => sha1($p['owner'] . $p['repo'] . $n), 'protected' => $n === 'main'], ['main', 'develop', 'feature/revenue']);
    send(200, listResp($br, fn($x) => $x['name'], fn($x) => $x));
}
// ---- dbt sync ----
function dbtState(array $j): array {
    if (in_array($j['status'], ['waiting', 'in_progress'], true)) {
        $age = microtime(true) - $j['startedTs'];
        if ($age >= 1.0) { $j['status'] = str_contains($j['branchName'], 'fail') ? 'failed' : 'completed'; $j['finishedAt'] = isoTime((int)($j['startedTs'] + 1)); }
        elseif ($age >= 0.4) $j['status'] = 'in_progress';
    }
    return $j;
}
function dbtOut(array $j): array { $j = dbtState($j); unset($j['startedTs']); return $j; }
function dbtOr404(array $d, string $id): array {
    $j = dget('dbt', $id);
    if (!$j || $j['deploymentId'] !== $d['id']) fail(404, 'SYNC_JOB_NOT_FOUND', 'sync job not found');
    return $j;
}
function h_dbtStart(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'dbt sync');
        $b = body(true);
        $br = branchByParam($d, bStr($b, 'branchName', false, 255));
        $ref = bStr($b, 'ref', false, 255);
        $id = 'sync_' . rid(10);
        $j = ['id' => $id, 'deploymentId' => $d['id'], 'branchName' => $br['name'], 'ref' => $ref, 'status' => 'waiting', 'trigger' => 'api',
            'createdAt' => nowIso(), 'finishedAt' => null, 'createdBy' => me()['email'], 'startedTs' => microtime(true)];
        dput('dbt', $id, $d['id'], $j);
        return dbtOut($j);
    });
    send(202, ['syncJob' => $o], ['LOCATION' => baseUrl() . reqPath() . '/' . $o['id']]);
}
function h_dbtList(array $p): never {
    $d = depOr404($p['deploymentId']);
    $st = qenum('status', ['waiting', 'in_progress', 'completed', 'failed', 'canceled']);
    $tr = qenum('trigger', ['api', 'schedule', 'manual']);
    $all = array_map('dbtState', dlist('dbt', $d['id']));
    $all = array_values(array_filter($all, fn($j) => (!$st || $j['status'] === $st) && (!$tr || $j['trigger'] === $tr)));
    usort($all, fn($a, $b) => strcmp($b['createdAt'], $a['createdAt']) ?: strcmp($b['id'], $a['id']));
    send(200, listResp($all, fn($j) => $j['id'], 'dbtOut'));
}
function h_dbtGet(array $p): never { $d = depOr404($p['deploymentId']); send(200, ['syncJob' => dbtOut(dbtOr404($d, $p['syncJobId']))]); }
function h_dbtCancel(array $p): never {
    $o = tx(function () use ($p) {
        $d = depOr404($p['deploymentId']); needRole('developer', 'dbt sync');
        $j = dbtState(dbtOr404($d, $p['syncJobId']));
        if (!in_array($j['status'], ['waiting', 'in_progress'], true)) fail(409, 'JOB_FINISHED', "the sync job already ended with status {$j['status']}");
        $j['status'] = 'canceled'; $j['finishedAt'] = nowIso(); dput('dbt', $j['id'], $d['id'], $j);
        return dbtOut($j);
    });
    send(200, ['syncJob' => $o]);
}
function h_dbtResult(array $p): never {
    $d = depOr404($p['deploymentId']);
    $j = dbtOut(dbtOr404($d, $p['syncJobId']));
    $done = in_array($j['status'], ['completed', 'failed', 'canceled'], true);
    $res = null;
    if ($j['status'] === 'completed') $res = ['modelsImported' => 12, 'cubesGenerated' => 9, 'viewsGenerated' => 2, 'filesChanged' => ['model/cubes/orders.yml', 'model/cubes/customers.yml']];
    if ($j['status'] === 'failed') $res = ['error' => 'dbt manifest could not be parsed'];
    send(200, ['syncResult' => ['syncJobId' => $j['id'], 'status' => $j['status'], 'ready' => $done, 'result' => $res]]);
}
function h_dbtLogs(array $p): never {
    $d = depOr404($p['deploymentId']);
    $j = dbtOut(dbtOr404($d, $p['syncJobId']));
    $lines = [['seq' => 1, 'level' => 'info', 'message' => "sync {$j['id']} queued on branch {$j['branchName']}"]];
    if ($j['status'] !== 'waiting') $lines[] = ['seq' => 2, 'level' => 'info', 'message' => 'fetching dbt manifest'];
    if ($j['status'] === 'completed') $lines[] = ['seq' => 3, 'level' => 'info', 'message' => 'generated 9 cubes and 2 views'];
    if ($j['status'] === 'failed') $lines[] = ['seq' => 3, 'level' => 'error', 'message' => 'dbt manifest could not be parsed'];
    if ($j['status'] === 'canceled') $lines[] = ['seq' => 3, 'level' => 'warn', 'message' => 'sync canceled'];
    foreach ($lines as $i => $l) $lines[$i]['timestamp'] = $j['createdAt'];
    send(200, listResp($lines, fn($l) => $l['seq'], fn($l) => $l, 100));
}

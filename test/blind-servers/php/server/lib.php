<?php
// Core helpers: DB, JSON, errors, validation, pagination, time.
declare(strict_types=1);

class ApiError extends Exception {
    public int $status; public string $reason; public array $extra; public array $headers;
    function __construct(int $status, string $reason, string $msg, array $extra = [], array $headers = []) {
        parent::__construct($msg); $this->status = $status; $this->reason = $reason; $this->extra = $extra; $this->headers = $headers;
    }
}
function fail(int $status, string $reason, string $msg, array $extra = [], array $headers = []): never {
    throw new ApiError($status, $reason, $msg, $extra, $headers);
}

function db(): PDO {
    static $pdo = null;
    if ($pdo === null) {
        $pdo = new PDO('sqlite:' . getenv('BP_DB'));
        $pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
        $pdo->exec('PRAGMA busy_timeout=20000');
        $pdo->exec('PRAGMA synchronous=NORMAL');
    }
    return $pdo;
}
// Run $fn inside a transaction. Writers use BEGIN IMMEDIATE (serialised by SQLite).
function tx(callable $fn, bool $write = true) {
    $pdo = db();
    for ($attempt = 0; ; $attempt++) {
        try { $pdo->exec($write ? 'BEGIN IMMEDIATE' : 'BEGIN'); break; }
        catch (PDOException $e) { if ($attempt > 50) throw $e; usleep(20000); }
    }
    try { $r = $fn(); $pdo->exec('COMMIT'); return $r; }
    catch (Throwable $e) { try { $pdo->exec('ROLLBACK'); } catch (Throwable $x) {} throw $e; }
}

// ---- JSON (objects decoded as assoc arrays; empty objects kept as stdClass) ----
function jconv($v) {
    if ($v instanceof stdClass) {
        $a = get_object_vars($v);
        if (!$a) return new stdClass();
        foreach ($a as $k => $x) $a[$k] = jconv($x);
        return $a;
    }
    if (is_array($v)) return array_map('jconv', $v);
    return $v;
}
function jdec(string $s) { return jconv(json_decode($s, false, 512, JSON_THROW_ON_ERROR)); }
function jenc($v, bool $pretty = false): string {
    $f = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION;
    if ($pretty) $f |= JSON_PRETTY_PRINT;
    return json_encode($v, $f);
}
function isObj($v): bool { return $v instanceof stdClass || (is_array($v) && $v !== [] && !array_is_list($v)); }
function isList($v): bool { return is_array($v) && array_is_list($v); }
function obj($v) { return (is_array($v) && $v === []) || $v === null ? new stdClass() : $v; }
function asArr($v): array { return $v instanceof stdClass ? [] : (is_array($v) ? $v : []); }
function isInt($v): bool { return is_int($v) || (is_float($v) && floor($v) == $v && abs($v) < 9.0e15); }

// ---- Docs store ----
function dget(string $kind, $id): ?array {
    $st = db()->prepare('SELECT body FROM docs WHERE kind=? AND id=?');
    $st->execute([$kind, (string)$id]);
    $b = $st->fetchColumn();
    return $b === false ? null : asArr(jdec($b)) ;
}
function dput(string $kind, $id, $dep, array $body): void {
    $st = db()->prepare('INSERT INTO docs(kind,id,dep,body) VALUES(?,?,?,?) ON CONFLICT(kind,id) DO UPDATE SET dep=excluded.dep, body=excluded.body');
    $st->execute([$kind, (string)$id, $dep === null ? null : (string)$dep, jenc($body)]);
}
function ddel(string $kind, $id): void { db()->prepare('DELETE FROM docs WHERE kind=? AND id=?')->execute([$kind, (string)$id]); }
function dlist(string $kind, $dep = null): array {
    if ($dep === null) { $st = db()->prepare('SELECT body FROM docs WHERE kind=? ORDER BY seq'); $st->execute([$kind]); }
    else { $st = db()->prepare('SELECT body FROM docs WHERE kind=? AND dep=? ORDER BY seq'); $st->execute([$kind, (string)$dep]); }
    $out = [];
    foreach ($st->fetchAll(PDO::FETCH_COLUMN) as $b) $out[] = asArr(jdec($b));
    return $out;
}
// Sparse global sequence for workspace ids; plain sequences elsewhere.
function nextId(string $name, int $stepMax = 1): int {
    $st = db()->prepare('SELECT val FROM seqs WHERE name=?'); $st->execute([$name]);
    $v = $st->fetchColumn();
    $step = $stepMax > 1 ? random_int(1, $stepMax) : 1;
    $n = (int)$v + $step;
    db()->prepare('UPDATE seqs SET val=? WHERE name=?')->execute([$n, $name]);
    return $n;
}
function wsId(): int { return nextId('ws', 7); }

// ---- time ----
function isoTime(int $ts): string { return gmdate('Y-m-d\TH:i:s', $ts) . '+00:00'; }
function nowIso(): string { return isoTime(time()); }
function parseTime(string $s, bool $endOfDay = false): ?int {
    if (preg_match('/^\d{4}-\d{2}-\d{2}$/', $s)) {
        $d = DateTime::createFromFormat('!Y-m-d', $s, new DateTimeZone('UTC'));
        if (!$d || $d->format('Y-m-d') !== $s) return null;
        return $d->getTimestamp() + ($endOfDay ? 86399 : 0);
    }
    if (preg_match('/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i', $s)) {
        try { $d = new DateTime($s, new DateTimeZone('UTC')); return $d->getTimestamp(); } catch (Throwable $e) { return null; }
    }
    return null;
}
function rid(int $n = 12): string { $c = 'abcdefghijkmnpqrstuvwxyz23456789'; $s = ''; for ($i = 0; $i < $n; $i++) $s .= $c[random_int(0, strlen($c) - 1)]; return $s; }

// ---- request ----
$GLOBALS['REQ'] = ['query' => [], 'body' => null, 'rawBody' => '', 'path' => '', 'method' => 'GET'];
function q(string $name): ?string {
    $v = $GLOBALS['REQ']['query'][$name] ?? null;
    if (is_array($v)) { $v = end($v); if (is_array($v)) $v = ''; } // last value wins
    return $v === null ? null : (string)$v;
}
function qhas(string $name): bool { return array_key_exists($name, $GLOBALS['REQ']['query']); }
function qint(string $name, int $min, ?int $default, int $max = 1000000000000): ?int {
    $v = q($name);
    if ($v === null || $v === '') return $default;
    if (!preg_match('/^[+-]?\d+$/', $v)) fail(400, 'INVALID_QUERY_PARAMETER', "query parameter '$name' must be an integer");
    $neg = $v[0] === '-'; $digits = ltrim($v, '+-0');
    if (strlen($digits) > 15) { if ($neg) fail(400, 'INVALID_QUERY_PARAMETER', "query parameter '$name' must be at least $min"); return $max; }
    $n = (int)$v;
    if ($n < $min) fail(400, 'INVALID_QUERY_PARAMETER', "query parameter '$name' must be at least $min");
    return min($n, $max);
}
function qenum(string $name, array $allowed): ?string {
    $v = q($name);
    if ($v === null || $v === '') return null;
    if (!in_array($v, $allowed, true)) fail(400, 'INVALID_QUERY_PARAMETER', "query parameter '$name' must be one of: " . implode(', ', $allowed));
    return $v;
}
function qbool(string $name): ?bool {
    $v = q($name); if ($v === null || $v === '') return null;
    $l = strtolower($v);
    if (in_array($l, ['true', '1', 'yes'], true)) return true;
    if (in_array($l, ['false', '0', 'no'], true)) return false;
    fail(400, 'INVALID_QUERY_PARAMETER', "query parameter '$name' must be a boolean");
}
// Body as object (assoc array). $optional: empty body = [].
function body(bool $optional = false): array {
    $raw = $GLOBALS['REQ']['rawBody'];
    if (trim($raw) === '') { if ($optional) return []; fail(400, 'MALFORMED_JSON', 'request body is required'); }
    try { $v = jdec($raw); } catch (Throwable $e) { fail(400, 'MALFORMED_JSON', 'request body is not valid JSON'); }
    if ($v instanceof stdClass) return [];
    if (!isObj($v)) fail(400, 'MALFORMED_JSON', 'request body must be a JSON object');
    return $v;
}
function vfail(string $field, string $msg): never { fail(422, 'VALIDATION_FAILED', "$field: $msg", ['field' => $field]); }
function bStr(array $b, string $k, bool $req = false, int $max = 10000, int $min = 0): ?string {
    if (!array_key_exists($k, $b) || $b[$k] === null) { if ($req) vfail($k, 'is required'); return null; }
    if (!is_string($b[$k])) vfail($k, 'must be a string');
    $l = strlen($b[$k]);
    if ($l > $max) vfail($k, "must be at most $max characters");
    if ($l < $min) vfail($k, "must be at least $min characters");
    return $b[$k];
}
function bInt(array $b, string $k, bool $req = false, ?int $min = null, ?int $max = null): ?int {
    if (!array_key_exists($k, $b) || $b[$k] === null) { if ($req) vfail($k, 'is required'); return null; }
    if (!isInt($b[$k])) vfail($k, 'must be an integer');
    $n = (int)$b[$k];
    if ($min !== null && $n < $min) vfail($k, "must be at least $min");
    if ($max !== null && $n > $max) vfail($k, "must be at most $max");
    return $n;
}
function bBool(array $b, string $k, bool $req = false): ?bool {
    if (!array_key_exists($k, $b) || $b[$k] === null) { if ($req) vfail($k, 'is required'); return null; }
    if (!is_bool($b[$k])) vfail($k, 'must be a boolean');
    return $b[$k];
}
function bEnum(array $b, string $k, array $allowed, bool $req = false): ?string {
    $v = bStr($b, $k, $req);
    if ($v !== null && !in_array($v, $allowed, true)) vfail($k, 'must be one of: ' . implode(', ', $allowed));
    return $v;
}
function bObj(array $b, string $k, bool $req = false): ?array {
    if (!array_key_exists($k, $b) || $b[$k] === null) { if ($req) vfail($k, 'is required'); return null; }
    if (!($b[$k] instanceof stdClass) && !isObj($b[$k])) vfail($k, 'must be an object');
    return asArr($b[$k]);
}
function bList(array $b, string $k, bool $req = false): ?array {
    if (!array_key_exists($k, $b) || $b[$k] === null) { if ($req) vfail($k, 'is required'); return null; }
    if (!isList($b[$k])) vfail($k, 'must be an array');
    return $b[$k];
}

// ---- cursor pagination (keyset: the cursor names the last item's key, with its position as fallback) ----
const DEFAULT_PAGE = 16;
const MAX_PAGE = 1000;
function curEnc($key, int $pos): string { return 'ck_' . rtrim(strtr(base64_encode(jenc([$key, $pos])), '+/', '-_'), '='); }
function curDec(string $c): array {
    if (strncmp($c, 'ck_', 3) !== 0) fail(400, 'INVALID_CURSOR', 'cursor is not valid');
    $raw = base64_decode(strtr(substr($c, 3), '-_', '+/'), true);
    $v = $raw === false ? null : json_decode($raw, true);
    if (!is_array($v) || count($v) !== 2 || !is_int($v[1]) || $v[1] < 0 || !(is_int($v[0]) || is_string($v[0]))) fail(400, 'INVALID_CURSOR', 'cursor is not valid');
    return $v;
}
// Returns [pageItems, pageInfo]. $all: whole ordered list; $keyFn gives a stable key.
function cursorPage(array $all, callable $keyFn, ?int $defaultSize = DEFAULT_PAGE): array {
    $first = qint('first', 1, null, MAX_PAGE);
    $after = q('after');
    $start = 0;
    if ($after !== null && $after !== '') {
        [$key, $pos] = curDec($after);
        $start = min($pos + 1, count($all));
        foreach ($all as $i => $it) { if ($keyFn($it) === $key) { $start = $i + 1; break; } }
    }
    $size = $first ?? $defaultSize ?? count($all);
    $page = array_slice($all, $start, max($size, 0));
    $n = count($page);
    $info = ['hasNextPage' => $start + $n < count($all), 'hasPreviousPage' => $start > 0,
        'startCursor' => $n ? curEnc($keyFn($page[0]), $start) : null,
        'endCursor' => $n ? curEnc($keyFn($page[$n - 1]), $start + $n - 1) : null];
    return [$page, $info];
}
function listResp(array $all, callable $keyFn, callable $ser, ?int $defaultSize = DEFAULT_PAGE): array {
    [$page, $info] = cursorPage($all, $keyFn, $defaultSize);
    $items = array_map($ser, $page);
    return ['items' => $items, 'pageInfo' => $info, 'data' => $items, 'count' => count($all)];
}

// ---- output ----
function hdr(string $name, string $value): void { header("$name: $value"); }
function send(int $status, $data, array $headers = []): never {
    $body = $data === null ? '' : jenc($data, true) . "\n";
    http_response_code($status);
    if ($data !== null) hdr('CONTENT-type', 'application/json; api-version=1.0.0; charset=utf-8');
    foreach ($headers as $k => $v) header("$k: $v", true, $status); // keep the status (PHP turns Location into 302 otherwise)
    hdr('CONTENT-length', (string)strlen($body));
    hdr('X-API-revision', '0.4.0');
    if ($GLOBALS['REQ']['method'] !== 'HEAD') echo $body;
    exit;
}

<?php
declare(strict_types=1);
ini_set('display_errors', '0');
ini_set('log_errors', '1');
error_reporting(E_ALL);
header_remove('X-Powered-By');
require __DIR__ . '/lib.php';
require __DIR__ . '/model.php';
require __DIR__ . '/h_core.php';
require __DIR__ . '/h_generic.php';
require __DIR__ . '/h_e14.php';
require __DIR__ . '/h_ws.php';
require __DIR__ . '/routes.php';

set_error_handler(function ($no, $str, $file, $line) { throw new ErrorException($str, 0, $no, $file, $line); });

function errorOut(ApiError $e): never {
    $h = $e->headers;
    send($e->status, ['error' => $e->getMessage(), 'reason' => $e->reason] + $e->extra, $h);
}
function matchRoute(string $path, string $method): array { // [route|null, params, allowed methods]
    $allowed = []; $found = null; $params = [];
    foreach ($GLOBALS['ROUTES'] as $r) {
        $re = '#^' . preg_replace('#\\\\\{[A-Za-z]+\\\\\}#', '([^/]+)', preg_quote($r['path'], '#')) . '$#';
        if (!preg_match($re, $path, $m)) continue;
        $allowed[] = $r['m'];
        if ($found === null && ($r['m'] === $method || ($method === 'HEAD' && $r['m'] === 'GET'))) {
            $found = $r;
            preg_match_all('#\{([A-Za-z]+)\}#', $r['path'], $names);
            foreach ($names[1] as $i => $n) $params[$n] = rawurldecode($m[$i + 1]);
        }
    }
    return [$found, $params, array_values(array_unique($allowed))];
}
function authenticate(): void {
    $h = $_SERVER['HTTP_AUTHORIZATION'] ?? null;
    $www = ['WWW-authenticate' => 'Bearer realm="platform-api"'];
    if ($h === null || trim($h) === '') fail(401, 'MISSING_CREDENTIALS', 'an Authorization header with a Bearer API key is required', [], $www);
    if (!preg_match('/^\s*(Bearer|Api-Key)\s+(\S+)\s*$/i', $h, $m)) fail(401, 'MALFORMED_CREDENTIALS', 'the Authorization header must be "Bearer <API key>"', [], $www);
    $tok = $m[2];
    $k = strlen($tok) <= 200 ? dget('key', $tok) : null;
    if (!$k) {
        if (substr_count($tok, '.') === 2 && jwtCheck($tok) !== null) fail(401, 'METADATA_TOKEN_NOT_ACCEPTED', 'metadata tokens are only valid for metadata endpoints, not as an API key', [], $www);
        fail(401, 'INVALID_CREDENTIALS', 'the API key is not valid', [], $www);
    }
    $u = dget('user', $k['userId']);
    if (!$u) fail(401, 'INVALID_CREDENTIALS', 'the API key is not valid', [], $www);
    if ($u['status'] !== 'active') fail(403, 'USER_DEACTIVATED', 'the user owning this API key is deactivated');
    $GLOBALS['CALLER'] = ['user' => $u, 'scope' => $k['scope'] ?? null, 'creator' => (bool)($k['creatorMode'] ?? false), 'key' => $k['label']];
}

try {
    $method = $_SERVER['REQUEST_METHOD'] ?? 'GET';
    $uri = $_SERVER['REQUEST_URI'] ?? '/';
    $qpos = strpos($uri, '?');
    $path = $qpos === false ? $uri : substr($uri, 0, $qpos);
    $GLOBALS['REQ']['method'] = $method;
    $GLOBALS['REQ']['path'] = $path;
    $GLOBALS['REQ']['query'] = $_GET;
    [$route, $params, $allowed] = matchRoute($path, $method);
    if (!$allowed) { // other spelling of the trailing slash
        $alt = str_ends_with($path, '/') ? rtrim($path, '/') : $path . '/';
        if ($alt !== '' && $alt !== $path) {
            [$route, $params, $allowed] = matchRoute($alt, $method);
            if ($allowed && in_array($method, ['GET', 'HEAD'], true)) {
                send(302, ['error' => 'this resource lives at ' . $alt, 'reason' => 'REDIRECT'], ['LOCATION' => $alt . ($qpos === false ? '' : substr($uri, $qpos))]);
            }
        }
    }
    if (!$allowed) fail(404, 'ROUTE_NOT_FOUND', "no route for $method " . substr($path, 0, 200));
    if (!$route) fail(405, 'METHOD_NOT_ALLOWED', "method $method is not allowed here", [], ['ALLOW' => implode(', ', $allowed)]);
    $len = (int)($_SERVER['CONTENT_LENGTH'] ?? 0);
    if ($len > 524288) fail(413, 'PAYLOAD_TOO_LARGE', 'request bodies are limited to 512 KiB');
    $GLOBALS['REQ']['rawBody'] = (string)file_get_contents('php://input');
    if (strlen($GLOBALS['REQ']['rawBody']) > 524288) fail(413, 'PAYLOAD_TOO_LARGE', 'request bodies are limited to 512 KiB');
    tx('authenticate', false);
    ($route['h'])($params);
    send(204, null);
} catch (ApiError $e) {
    errorOut($e);
} catch (Throwable $e) {
    error_log('[platform-api] ' . get_class($e) . ': ' . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine());
    send(400, ['error' => 'the request could not be processed', 'reason' => 'UNPROCESSABLE_REQUEST']);
}

"""HTTP core: routing, auth, errors, JSON-schema validation and OpenAPI generation.

Standard library only.
"""
import base64
import datetime as _dt
import json
import math
import re
import threading
import traceback
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.RLock()
MAX_BODY = 2 * 1024 * 1024
MAX_PAGE = 100  # silent clamp for `limit` / `first`


# --------------------------------------------------------------------------- errors
class ApiError(Exception):
    def __init__(self, status, message, code=None, **extra):
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.extra = extra


CODES = {400: "bad_request", 401: "unauthenticated", 403: "forbidden", 404: "not_found",
         405: "method_not_allowed", 409: "conflict", 413: "payload_too_large",
         415: "unsupported_media_type", 422: "validation_failed", 500: "internal"}


def error_body(e):
    body = {"error": e.message, "code": e.code or CODES.get(e.status, "error"), "statusCode": e.status}
    body.update(e.extra)
    return body


# --------------------------------------------------------------------------- time
def now():
    return _dt.datetime.now(_dt.timezone.utc)


def ts(d):
    """Timestamps: microsecond precision, explicit +00:00 offset (never 'Z')."""
    if d is None:
        return None
    if isinstance(d, str):
        return d
    if isinstance(d, _dt.date) and not isinstance(d, _dt.datetime):
        return d.isoformat()
    d = d.astimezone(_dt.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+00:00"


# --------------------------------------------------------------------------- schema registry
SCHEMAS = {}


def schema(name, s):
    SCHEMAS[name] = s
    return {"$ref": "#/components/schemas/" + name}


def ref(name):
    return {"$ref": "#/components/schemas/" + name}


def nullable(s):
    if "$ref" in s or "oneOf" in s or "anyOf" in s:
        return {"anyOf": [s, {"type": "null"}]}
    s = dict(s)
    t = s.get("type")
    if isinstance(t, list):
        if "null" not in t:
            s["type"] = t + ["null"]
    elif t:
        s["type"] = [t, "null"]
    if "enum" in s and None not in s["enum"]:
        s["enum"] = list(s["enum"]) + [None]
    return s


def obj(props, required=(), additional=False, **kw):
    s = {"type": "object", "properties": props}
    if required:
        s["required"] = list(required)
    s["additionalProperties"] = additional
    s.update(kw)
    return s


def arr(items, **kw):
    s = {"type": "array", "items": items}
    s.update(kw)
    return s


S = {"type": "string"}
I = {"type": "integer"}
N = {"type": "number"}
B = {"type": "boolean"}
DT = {"type": "string", "format": "date-time"}
ANYOBJ = {"type": "object", "additionalProperties": True}


def _resolve(s):
    while "$ref" in s:
        s = SCHEMAS[s["$ref"].rsplit("/", 1)[1]]
    return s


def _type_ok(t, v):
    if t == "null":
        return v is None
    if t == "boolean":
        return isinstance(v, bool)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "string":
        return isinstance(v, str)
    if t == "array":
        return isinstance(v, list)
    if t == "object":
        return isinstance(v, dict)
    return True


_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DT_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


def validate(s, v, path="body"):
    """Return None when v matches s, else a message. Covers the subset of JSON Schema used here."""
    s = _resolve(s)
    if "anyOf" in s or "oneOf" in s:
        alts = s.get("anyOf") or s.get("oneOf")
        msgs = []
        for a in alts:
            m = validate(a, v, path)
            if m is None:
                return None
            if not (v is not None and _resolve(a).get("type") == "null"):
                msgs.append(m)
        return msgs[0] if msgs else "%s: does not match any allowed shape" % path
    t = s.get("type")
    if t is not None:
        ts_ = t if isinstance(t, list) else [t]
        if not any(_type_ok(x, v) for x in ts_):
            return "%s: expected %s" % (path, " or ".join(ts_))
    if v is None:
        return None
    if "const" in s and v != s["const"]:
        return "%s: must be %r" % (path, s["const"])
    if "enum" in s and v not in s["enum"]:
        return "%s: must be one of %s" % (path, ", ".join(str(x) for x in s["enum"] if x is not None))
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
            return "%s: not a finite number" % path
        if "minimum" in s and v < s["minimum"]:
            return "%s: must be >= %s" % (path, s["minimum"])
        if "maximum" in s and v > s["maximum"]:
            return "%s: must be <= %s" % (path, s["maximum"])
        if "exclusiveMinimum" in s and v <= s["exclusiveMinimum"]:
            return "%s: must be > %s" % (path, s["exclusiveMinimum"])
    if isinstance(v, str):
        if "minLength" in s and len(v) < s["minLength"]:
            return "%s: shorter than %d" % (path, s["minLength"])
        if "maxLength" in s and len(v) > s["maxLength"]:
            return "%s: longer than %d" % (path, s["maxLength"])
        if "pattern" in s and not re.search(s["pattern"], v):
            return "%s: does not match pattern %s" % (path, s["pattern"])
        f = s.get("format")
        if f == "date" and not _DATE_RE.match(v):
            return "%s: not a date" % path
        if f == "date-time" and not _DT_RE.match(v):
            return "%s: not a date-time" % path
    if isinstance(v, list):
        if "minItems" in s and len(v) < s["minItems"]:
            return "%s: needs at least %d items" % (path, s["minItems"])
        if "maxItems" in s and len(v) > s["maxItems"]:
            return "%s: at most %d items" % (path, s["maxItems"])
        if "items" in s:
            for i, x in enumerate(v):
                m = validate(s["items"], x, "%s[%d]" % (path, i))
                if m:
                    return m
    if isinstance(v, dict):
        props = s.get("properties", {})
        for r in s.get("required", []):
            if r not in v:
                return "%s.%s: required" % (path, r)
        addl = s.get("additionalProperties", True)
        for k, x in v.items():
            if k in props:
                m = validate(props[k], x, "%s.%s" % (path, k))
                if m:
                    return m
            elif addl is False:
                return "%s.%s: unknown field" % (path, k)
            elif isinstance(addl, dict):
                m = validate(addl, x, "%s.%s" % (path, k))
                if m:
                    return m
    return None


# --------------------------------------------------------------------------- query params
def qp(name, s, required=False, desc=None):
    return {"name": name, "schema": s, "required": required, "description": desc or name}


FIRST = qp("first", {"type": "integer", "minimum": 1}, desc="page size (default 10, values above 100 are clamped to 100)")
AFTER = qp("after", S, desc="opaque cursor (endCursor of the previous page)")
OFFSET = qp("offset", {"type": "integer", "minimum": 0, "default": 0})
LIMIT = qp("limit", {"type": "integer", "minimum": 1, "default": 20}, desc="page size (default 20, clamped to 100)")
CURSOR_Q = [FIRST, AFTER]


def _conv(name, s, raw):
    s = _resolve(s)
    t = s.get("type")
    tl = t if isinstance(t, list) else [t]
    if raw == "null" and "null" in tl:
        return None
    if "integer" in tl:
        if not re.fullmatch(r"[+-]?\d{1,30}", raw.strip()):
            raise ApiError(422, "query parameter %s: expected an integer" % name)
        v = int(raw)
    elif "number" in tl:
        try:
            v = float(raw)
        except ValueError:
            raise ApiError(422, "query parameter %s: expected a number" % name)
    elif "boolean" in tl:
        if raw.lower() not in ("true", "false", "1", "0"):
            raise ApiError(422, "query parameter %s: expected true or false" % name)
        v = raw.lower() in ("true", "1")
    else:
        v = raw
    m = validate(s, v, "query." + name)
    if m:
        raise ApiError(422, m)
    return v


# --------------------------------------------------------------------------- routing
ROUTES = []
TAGS = []


class Route:
    def __init__(self, method, path, fn, opid, summary, tag, query, body, body_required, resp, status,
                 auth, content, errors, extra_statuses, pre=None):
        self.method, self.path, self.fn = method, path, fn
        self.opid, self.summary, self.tag = opid, summary, tag
        self.query = query or []
        self.body, self.body_required = body, body_required
        self.resp, self.status, self.auth, self.content = resp, status, auth, content
        self.errors = errors
        self.extra_statuses = extra_statuses or {}
        self.pre = pre
        pat = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path.rstrip("/"))
        self.rx = re.compile("^" + pat + "/?$")


def op(method, path, opid, summary, tag, query=None, body=None, body_required=False, resp=None, status=200,
       auth=True, content="application/json", errors=(400, 401, 403, 404, 422), extra_statuses=None, pre=None):
    def deco(fn):
        ROUTES.append(Route(method, path, fn, opid, summary, tag, query, body, body_required, resp, status,
                            auth, content, errors, extra_statuses, pre))
        if tag not in TAGS:
            TAGS.append(tag)
        return fn
    return deco


class Raw:
    def __init__(self, status, ctype, chunks, headers=None):
        self.status, self.ctype, self.chunks, self.headers = status, ctype, chunks, headers or {}


class Req:
    pass


# --------------------------------------------------------------------------- cursors
def enc_cursor(i):
    return base64.urlsafe_b64encode(("pos:%d" % i).encode()).decode().rstrip("=")


def dec_cursor(c):
    try:
        pad = "=" * (-len(c) % 4)
        s = base64.urlsafe_b64decode((c + pad).encode("ascii")).decode("ascii")
        if not s.startswith("pos:"):
            raise ValueError
        i = int(s[4:])
        if i < 0 or i > 10 ** 9:
            raise ValueError
        return i
    except Exception:
        raise ApiError(400, "invalid cursor", code="invalid_cursor")


def cursor_page(items, first, after, default=10, all_if_missing=False):
    """Slice items for cursor pagination. Returns (page, pageInfo)."""
    start = 0
    if after is not None:
        start = dec_cursor(after) + 1
    if first is None:
        n = len(items) if all_if_missing else default
    else:
        n = min(first, MAX_PAGE)
    page = items[start:start + n]
    info = {"hasNextPage": start + n < len(items), "hasPreviousPage": start > 0,
            "startCursor": enc_cursor(start) if page else None,
            "endCursor": enc_cursor(start + len(page) - 1) if page else None}
    return page, info


def cursor_list(items, q, default=10, all_if_missing=False, legacy=True):
    page, info = cursor_page(items, q.get("first"), q.get("after"), default, all_if_missing)
    out = {"items": page, "pageInfo": info}
    if legacy:
        out["data"] = list(page)
        out["count"] = len(items)
    return out


def offset_page(items, q, default=20):
    off = q.get("offset") or 0
    lim = q.get("limit")
    lim = default if lim is None else min(lim, MAX_PAGE)
    return items[off:off + lim], {"offset": off, "limit": lim, "total": len(items)}


# --------------------------------------------------------------------------- http handler
AUTH_HOOK = None  # set by server: fn(req) -> user


def _reject_const(c):
    raise ValueError("non-finite number " + c)


def parse_json(raw):
    try:
        txt = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "request body is not valid UTF-8", code="malformed_body")
    try:
        return json.loads(txt, parse_constant=_reject_const)
    except (ValueError, RecursionError) as e:
        raise ApiError(400, "malformed JSON body: %s" % str(e)[:120], code="malformed_json")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "PlatformAPI/1.0"
    sys_version = ""

    def log_message(self, fmt, *args):
        pass

    def _read_body(self):
        te = (self.headers.get("Transfer-Encoding") or "").lower()
        if "chunked" in te:
            data = b""
            while True:
                line = self.rfile.readline(65537)
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass
                    break
                data += self.rfile.read(size)
                self.rfile.readline(65537)
                if len(data) > MAX_BODY:
                    self.close_connection = True
                    raise ApiError(413, "request body too large")
            return data
        cl = self.headers.get("Content-Length")
        if not cl:
            return b""
        try:
            n = int(cl)
            if n < 0:
                raise ValueError
        except ValueError:
            self.close_connection = True
            raise ApiError(400, "invalid Content-Length")
        if n > MAX_BODY:
            self.close_connection = True
            raise ApiError(413, "request body too large (max %d bytes)" % MAX_BODY)
        return self.rfile.read(n)

    def _send(self, status, body_bytes, ctype, headers=None):
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(body_bytes)))
        self.send_header("x-api-version", "1.0.0")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if self.close_connection:
            self.send_header("connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body_bytes)

    def _send_json(self, status, obj, headers=None):
        self._send(status, json.dumps(obj).encode("ascii"), "application/json; charset=utf-8", headers)

    def _send_raw(self, raw):
        self.send_response(raw.status)
        self.send_header("content-type", raw.ctype)
        self.send_header("transfer-encoding", "chunked")
        for k, v in raw.headers.items():
            self.send_header(k, v)
        self.end_headers()
        if self.command == "HEAD":
            return
        for ch in raw.chunks:
            if not ch:
                continue
            b = ch.encode("utf-8") if isinstance(ch, str) else ch
            self.wfile.write(b"%x\r\n" % len(b) + b + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")

    def _dispatch(self):
        try:
            self._dispatch_inner()
        except ApiError as e:
            hdrs = {}
            if e.status == 401:
                hdrs["www-authenticate"] = 'Bearer realm="platform-api"'
            if e.status == 405 and "allow" in e.extra:
                hdrs["allow"] = e.extra["allow"]
            self._send_json(e.status, error_body(e), hdrs)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception:
            traceback.print_exc()
            self.close_connection = True
            try:
                self._send_json(500, {"error": "internal error", "code": "internal", "statusCode": 500})
            except Exception:
                pass

    def _dispatch_inner(self):
        raw_path = self.path
        if "?" in raw_path:
            path_part, qs = raw_path.split("?", 1)
        else:
            path_part, qs = raw_path, ""
        if path_part.startswith("http://") or path_part.startswith("https://"):
            path_part = "/" + path_part.split("/", 3)[-1]
        try:
            path = urllib.parse.unquote(path_part, errors="strict")
        except UnicodeDecodeError:
            self._read_body()
            raise ApiError(404, "no such resource")
        path = re.sub("/+", "/", path)
        method = self.command
        body_raw = self._read_body()
        match, allowed = None, []
        for r in ROUTES:
            m = r.rx.match(path)
            if m:
                if r.method == method or (method == "HEAD" and r.method == "GET"):
                    match = (r, m)
                    break
                allowed.append(r.method)
        if not match:
            if allowed:
                raise ApiError(405, "method %s not allowed here" % method, allow=", ".join(sorted(set(allowed))))
            raise ApiError(404, "no route for %s %s" % (method, path_part[:200]), code="route_not_found")
        r, m = match
        req = Req()
        req.route = r
        req.method = method
        req.headers = self.headers
        req.path = path
        req.params = {k: v for k, v in m.groupdict().items()}
        # auth first
        req.user = AUTH_HOOK(req) if r.auth else None
        # query
        try:
            pairs = urllib.parse.parse_qsl(qs, keep_blank_values=True, errors="strict")
        except (UnicodeDecodeError, ValueError):
            raise ApiError(400, "query string is not valid UTF-8")
        known = {p["name"]: p for p in r.query}
        q = {}
        for k, v in pairs:
            if k not in known:
                raise ApiError(400, "unknown query parameter: %s" % k[:80], code="unknown_query_parameter")
            p = known[k]
            sch = _resolve(p["schema"])
            if sch.get("type") == "array":
                q.setdefault(k, []).append(_conv(k, sch["items"], v))
            else:
                if k in q:
                    raise ApiError(400, "query parameter %s given more than once" % k)
                q[k] = _conv(k, sch, v)
        for p in r.query:
            if p["required"] and p["name"] not in q:
                raise ApiError(422, "query parameter %s is required" % p["name"])
        req.query = q
        # body
        req.body = None
        has_body = False
        if body_raw.strip():
            if r.body is None:
                if method in ("GET", "HEAD", "DELETE"):
                    req.body = None
                else:
                    raise ApiError(400, "this operation takes no request body")
            else:
                ct = (self.headers.get("Content-Type") or "application/json").lower()
                if "json" not in ct:
                    raise ApiError(415, "request body must be application/json")
                req.body = parse_json(body_raw)
                has_body = True
        elif r.body is not None and r.body_required:
            raise ApiError(422, "request body is required")
        if r.body is not None and has_body:
            if r.pre:
                req.body = r.pre(req.body)
            msg = validate(r.body, req.body)
            if msg:
                raise ApiError(422, msg)
        res = r.fn(req)
        if isinstance(res, Raw):
            self._send_raw(res)
            return
        status = r.status
        headers = None
        if isinstance(res, tuple):
            if len(res) == 3:
                status, res, headers = res
            else:
                status, res = res
        self._send_json(status, res, headers)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _dispatch


# --------------------------------------------------------------------------- OpenAPI
def build_openapi(base_url):
    paths = {}
    for r in ROUTES:
        item = paths.setdefault(r.path, {})
        params = []
        for name in re.findall(r"\{(\w+)\}", r.path):
            sch = {"type": "string"}
            if name in PATH_SCHEMAS:
                sch = PATH_SCHEMAS[name]
            params.append({"name": name, "in": "path", "required": True, "schema": sch})
        for p in r.query:
            params.append({"name": p["name"], "in": "query", "required": p["required"],
                           "description": p["description"], "schema": p["schema"]})
        o = {"operationId": r.opid, "summary": r.summary, "tags": [r.tag]}
        if params:
            o["parameters"] = params
        if r.body is not None:
            o["requestBody"] = {"required": r.body_required,
                                "content": {"application/json": {"schema": r.body}}}
        responses = {}
        if r.content == "application/json":
            responses[str(r.status)] = {"description": "success",
                                        "content": {"application/json": {"schema": r.resp or ANYOBJ}}}
        else:
            responses[str(r.status)] = {"description": "success",
                                        "content": {r.content: {"schema": {"type": "string"}}}}
        for st, (desc, sch) in r.extra_statuses.items():
            responses[str(st)] = {"description": desc, "content": {"application/json": {"schema": sch}}}
        for st in sorted(set(r.errors) | {400, 401, 403, 404, 405, 413, 415, 422}):
            if str(st) not in responses:
                responses[str(st)] = {"$ref": "#/components/responses/E%d" % st}
        o["responses"] = responses
        if not r.auth:
            o["security"] = []
        item[r.method.lower()] = o
    err_resp = {}
    for st, d in [(400, "Bad request (malformed JSON, unknown query parameter, invalid cursor, rule violation)"),
                  (401, "Missing or malformed credential"),
                  (403, "Credential not recognised, or not allowed for this operation or target"),
                  (404, "Resource not found"), (405, "Method not allowed"),
                  (409, "Conflict with the current state"),
                  (413, "Request body too large"),
                  (415, "Unsupported content type"),
                  (422, "Validation failed (types, enums, bounds, required fields)")]:
        err_resp["E%d" % st] = {"description": d, "content": {"application/json": {"schema": ref("Error")}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Analytics Platform API", "version": "1.0.0",
                 "description": "Management API of the analytics platform (independent implementation)."},
        "servers": [{"url": base_url}],
        "security": [{"bearerAuth": []}],
        "tags": [{"name": t} for t in TAGS],
        "paths": paths,
        "components": {
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                               "description": "Account API key; `Api-Key <key>` also accepted"}},
            "schemas": SCHEMAS,
            "responses": err_resp,
        },
    }


PATH_SCHEMAS = {}


def serve(port, on_ready):
    srv = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    srv.daemon_threads = True
    on_ready(srv.server_address[1])
    srv.serve_forever()

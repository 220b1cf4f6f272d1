import com.sun.net.httpserver.*;
import java.io.*;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicLong;

interface Handler { Object handle(R r) throws Exception; }

final class Resp {
    int status; Object body; byte[] raw; String ctype; Map<String, String> headers = new LinkedHashMap<>();
    Resp(int status, Object body) { this.status = status; this.body = body; }
    static Resp raw(int status, byte[] raw, String ctype) { Resp r = new Resp(status, null); r.raw = raw; r.ctype = ctype; return r; }
}

final class Route {
    String method, path, opId, summary, tag, description;
    String[] segs;
    LinkedHashMap<String, Schema> query = new LinkedHashMap<>();
    Set<String> requiredQuery = new HashSet<>();
    LinkedHashMap<String, String> pathTypes = new LinkedHashMap<>();
    Schema body; boolean bodyRequired;
    int status = 200; Schema resp; String respType = "application/json";
    List<Integer> errors = new ArrayList<>(List.of(401, 403, 422));
    Handler h; boolean selfLock;

    Route q(String... specs) {
        for (String s : specs) {
            int c = s.indexOf(':');
            String n = s.substring(0, c);
            boolean req = n.endsWith("!");
            if (req) { n = n.substring(0, n.length() - 1); requiredQuery.add(n); }
            query.put(n, Schema.parse(s.substring(c + 1)));
        }
        return this;
    }
    Route body(String dsl, boolean required) { body = Schema.parse(dsl); body.closed = body.kind.equals("object") && body.props != null; bodyRequired = required; return this; }
    Route resp(int st, String dsl) { status = st; resp = dsl == null ? null : Schema.parse(dsl); return this; }
    Route err(Integer... e) { for (Integer x : e) if (!errors.contains(x)) errors.add(x); return this; }
    Route h(Handler h) { this.h = h; return this; }
    Route desc(String d) { description = d; return this; }
    Route self() { selfLock = true; return this; }
}

final class R {
    HttpExchange ex; Route route; String method;
    Map<String, String> path = new HashMap<>();
    Map<String, Object> q = new HashMap<>();
    Object body; boolean hasBody;
    Store.User user;

    boolean has(String qn) { return q.containsKey(qn); }
    Long qLong(String n) { Object o = q.get(n); return o == null ? null : (Long) o; }
    String qStr(String n) { Object o = q.get(n); return o == null ? null : o.toString(); }
    long pid(String n) {
        String s = path.get(n);
        try { long v = Long.parseLong(s); if (v < 0) throw new NumberFormatException(); return v; }
        catch (NumberFormatException e) { throw ApiError.notFound(n.replace("Id", "")); }
    }
    String p(String n) { return path.get(n); }
    @SuppressWarnings("unchecked") Map<String, Object> b() { return body instanceof Map ? (Map<String, Object>) body : new LinkedHashMap<>(); }
}

public final class Main {
    static final List<Route> ROUTES = new ArrayList<>();
    static final Object LOCK = new Object();
    static final AtomicLong REQ = new AtomicLong(1000);
    static final boolean SELFCHECK = System.getenv("SELFCHECK") != null;
    static String baseUrl;

    static Route route(String method, String path, String opId, String tag, String summary) {
        Route r = new Route();
        r.method = method; r.path = path; r.opId = opId; r.tag = tag; r.summary = summary;
        String norm = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        r.segs = norm.substring(1).split("/");
        for (String s : r.segs) if (s.startsWith("{")) r.pathTypes.put(s.substring(1, s.length() - 1), s.endsWith("Id}") && !s.equals("{publicId}") && !s.equals("{environmentId}") && !s.equals("{installationId}") ? "integer" : "string");
        ROUTES.add(r);
        return r;
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Store.seed();
        Api.register();
        Extra.register();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 512);
        server.setExecutor(Executors.newFixedThreadPool(48));
        server.createContext("/", Main::handle);
        server.start();
        baseUrl = "http://127.0.0.1:" + server.getAddress().getPort();
        Map<String, Object> toks = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : Store.ROLE_TOKENS.entrySet()) toks.put(e.getKey(), e.getValue());
        LinkedHashMap<String, Object> out = new LinkedHashMap<>();
        out.put("baseUrl", baseUrl); out.put("token", Store.ROLE_TOKENS.get("admin")); out.put("tokens", toks);
        // printed in insertion order (not the sorted writer) so baseUrl comes first
        StringBuilder sb = new StringBuilder("{\"baseUrl\": \"" + baseUrl + "\", \"token\": \"" + Store.ROLE_TOKENS.get("admin") + "\", \"tokens\": {");
        boolean first = true;
        for (Map.Entry<String, String> e : Store.ROLE_TOKENS.entrySet()) { if (!first) sb.append(", "); first = false; sb.append("\"").append(e.getKey()).append("\": \"").append(e.getValue()).append("\""); }
        sb.append("}}");
        System.out.println(sb);
        System.out.flush();
    }

    static void handle(HttpExchange ex) {
        String rid = "req_" + Long.toString(REQ.incrementAndGet(), 36);
        Resp resp;
        Route matched = null;
        try {
            try {
                R r = new R();
                r.ex = ex; r.method = ex.getRequestMethod().toUpperCase(Locale.ROOT);
                String raw = ex.getRequestURI().getRawPath();
                if (raw == null || raw.isEmpty()) raw = "/";
                if (raw.length() > 1 && raw.endsWith("/")) raw = raw.substring(0, raw.length() - 1);
                String[] segs = raw.substring(1).split("/", -1);
                for (int k = 0; k < segs.length; k++) segs[k] = decode(segs[k], false);
                List<String> allowed = new ArrayList<>();
                for (Route rt : ROUTES) {
                    Map<String, String> pp = match(rt, segs);
                    if (pp == null) continue;
                    if (!rt.method.equals(r.method)) { allowed.add(rt.method); continue; }
                    matched = rt; r.path = pp; break;
                }
                if (matched == null) {
                    if (!allowed.isEmpty()) { ApiError e = new ApiError(405, "method_not_allowed", "method " + r.method + " is not allowed here"); throw e; }
                    throw new ApiError(404, "route_not_found", "no route for " + r.method + " " + raw);
                }
                r.route = matched;
                r.user = authenticate(ex);
                parseQuery(ex.getRequestURI().getRawQuery(), matched, r);
                readBody(ex, matched, r);
                Object out;
                if (matched.selfLock) out = matched.h.handle(r);
                else synchronized (LOCK) { out = matched.h.handle(r); }
                resp = out instanceof Resp ? (Resp) out : new Resp(matched.status, out);
                if (SELFCHECK && matched.resp != null && resp.body != null && resp.status < 300) {
                    List<String> errs = new ArrayList<>();
                    matched.resp.validate(Json.parse(Json.write(resp.body)), "$", errs, true);
                    if (!errs.isEmpty()) System.err.println("SELFCHECK " + matched.opId + ": " + errs);
                }
            } catch (ApiError e) {
                throw e;
            } catch (Json.JsonError e) {
                throw new ApiError(400, "malformed_json", "request body is not valid JSON: " + e.getMessage());
            } catch (Throwable t) {
                System.err.println("unexpected error: " + t);
                t.printStackTrace();
                throw new ApiError(400, "unprocessable_request", "the request could not be processed");
            }
        } catch (ApiError e) {
            LinkedHashMap<String, Object> b = new LinkedHashMap<>();
            b.put("error", e.getMessage());
            b.put("code", e.code);
            b.put("status", e.status);
            b.put("requestId", rid);
            if (e.details != null) b.put("details", e.details);
            resp = new Resp(e.status, b);
            if (e.status == 401) resp.headers.put("WWW-Authenticate", "Bearer realm=\"platform-api\"");
            if (e.status == 405 && matched == null) {
                // list allowed methods
                resp.headers.put("Allow", "GET, POST, PUT, PATCH, DELETE");
            }
        }
        try { send(ex, resp, rid); } catch (IOException ignored) { } finally { ex.close(); }
    }

    static void send(HttpExchange ex, Resp resp, String rid) throws IOException {
        Headers h = ex.getResponseHeaders();
        for (Map.Entry<String, String> e : resp.headers.entrySet()) h.set(e.getKey(), e.getValue());
        h.set("X-Request-Id", rid);
        h.set("Cache-Control", "no-store");
        byte[] bytes;
        if (resp.raw != null) { bytes = resp.raw; h.set("Content-Type", resp.ctype); }
        else if (resp.status == 204) bytes = null;
        else { bytes = Json.write(resp.body).getBytes(StandardCharsets.UTF_8); h.set("Content-Type", "application/json;charset=utf-8"); }
        if (bytes == null || ex.getRequestMethod().equalsIgnoreCase("HEAD")) { ex.sendResponseHeaders(resp.status, -1); return; }
        ex.sendResponseHeaders(resp.status, 0); // chunked transfer encoding
        try (OutputStream os = ex.getResponseBody()) { os.write(bytes); }
    }

    static Map<String, String> match(Route rt, String[] segs) {
        if (rt.segs.length != segs.length) return null;
        Map<String, String> pp = new HashMap<>();
        for (int k = 0; k < segs.length; k++) {
            String t = rt.segs[k];
            if (t.startsWith("{")) { if (segs[k].isEmpty()) return null; pp.put(t.substring(1, t.length() - 1), segs[k]); }
            else if (!t.equals(segs[k])) return null;
        }
        return pp;
    }

    static String decode(String s, boolean plus) {
        try {
            if (!plus) s = s.replace("+", "%2B");
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) { throw ApiError.bad("malformed percent-encoding in URL"); }
    }

    static Store.User authenticate(HttpExchange ex) {
        String a = ex.getRequestHeaders().getFirst("Authorization");
        if (a == null || a.isBlank()) throw new ApiError(401, "unauthenticated", "missing Authorization header");
        String t = a.trim();
        int sp = t.indexOf(' ');
        if (sp < 0) throw new ApiError(401, "unauthenticated", "malformed Authorization header");
        String scheme = t.substring(0, sp), key = t.substring(sp + 1).trim();
        if (!scheme.equalsIgnoreCase("Bearer") && !scheme.equalsIgnoreCase("Api-Key")) throw new ApiError(401, "unauthenticated", "unsupported authorization scheme");
        if (key.isEmpty()) throw new ApiError(401, "unauthenticated", "empty credential");
        Store.User u = Store.KEYS.get(key);
        if (u == null) {
            if (Store.isMetaToken(key)) throw new ApiError(403, "token_scope", "metadata tokens are only valid for data-model metadata endpoints");
            throw new ApiError(403, "invalid_credential", "the API key is not recognised");
        }
        if (!u.active) throw new ApiError(403, "invalid_credential", "the API key belongs to a deactivated user");
        return u;
    }

    static void parseQuery(String raw, Route rt, R r) {
        Map<String, String> vals = new LinkedHashMap<>();
        if (raw != null && !raw.isEmpty()) {
            for (String part : raw.split("&")) {
                if (part.isEmpty()) continue;
                int eq = part.indexOf('=');
                String k = decode(eq < 0 ? part : part.substring(0, eq), true);
                String v = eq < 0 ? "" : decode(part.substring(eq + 1), true);
                if (vals.containsKey(k)) throw ApiError.invalid("query parameter '" + k + "' given more than once");
                vals.put(k, v);
            }
        }
        for (Map.Entry<String, String> e : vals.entrySet()) {
            Schema s = rt.query.get(e.getKey());
            if (s == null) throw new ApiError(400, "unknown_parameter", "unknown query parameter '" + e.getKey() + "'");
            r.q.put(e.getKey(), convert(e.getKey(), e.getValue(), s));
        }
        for (String req : rt.requiredQuery) if (!r.q.containsKey(req)) throw ApiError.invalid("query parameter '" + req + "' is required");
    }

    static Object convert(String name, String v, Schema s) {
        if (s.nullable && v.equals("null")) return null;
        List<String> errs = new ArrayList<>();
        Object val;
        switch (s.kind) {
            case "integer":
                if (!v.matches("-?[0-9]{1,18}")) throw ApiError.invalid("query parameter '" + name + "' must be an integer" + (v.matches("-?[0-9]+") ? " within range" : ""));
                val = Long.parseLong(v); break;
            case "number":
                try { val = Double.parseDouble(v); } catch (NumberFormatException e) { throw ApiError.invalid("query parameter '" + name + "' must be a number"); }
                break;
            case "boolean":
                if (!v.equals("true") && !v.equals("false")) throw ApiError.invalid("query parameter '" + name + "' must be true or false");
                val = Boolean.parseBoolean(v); break;
            default: val = v;
        }
        s.validate(val, name, errs, false);
        if (!errs.isEmpty()) throw new ApiError(422, "validation_failed", "invalid query parameter: " + errs.get(0), errs);
        return val;
    }

    static void readBody(HttpExchange ex, Route rt, R r) throws IOException {
        byte[] data;
        try (InputStream in = ex.getRequestBody()) {
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            byte[] buf = new byte[8192]; int n;
            while ((n = in.read(buf)) > 0) { bo.write(buf, 0, n); if (bo.size() > 2_000_000) throw new ApiError(413, "payload_too_large", "request body exceeds 2000000 bytes"); }
            data = bo.toByteArray();
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data)).toString();
        } catch (CharacterCodingException e) { throw ApiError.bad("request body is not valid UTF-8"); }
        if (text.startsWith("\uFEFF")) text = text.substring(1);
        if (text.isBlank()) {
            if (rt.body != null && rt.bodyRequired) throw ApiError.invalid("a JSON request body is required");
            return;
        }
        if (rt.body == null) {
            if (rt.method.equals("GET") || rt.method.equals("DELETE")) return; // bodies ignored on GET/DELETE without a schema
            throw ApiError.invalid("this operation takes no request body");
        }
        String ct = ex.getRequestHeaders().getFirst("Content-Type");
        if (ct != null && !ct.toLowerCase(Locale.ROOT).contains("json")) throw new ApiError(415, "unsupported_media_type", "request body must be application/json");
        r.body = Json.parse(text);
        r.hasBody = true;
        List<String> errs = new ArrayList<>();
        rt.body.validate(r.body, "$", errs, false);
        if (!errs.isEmpty()) throw new ApiError(422, "validation_failed", "request body is invalid: " + errs.get(0), errs);
    }

    // ---------------- OpenAPI document ----------------
    static Map<String, Object> openapi() {
        LinkedHashMap<String, Object> doc = new LinkedHashMap<>();
        doc.put("openapi", "3.1.0");
        doc.put("info", Json.obj("title", "Analytics Platform Management API", "version", "1.0.0",
                "description", "Management API of the analytics platform (independent implementation). All operations use bearer API keys."));
        doc.put("servers", Json.arr(Json.obj("url", baseUrl)));
        doc.put("security", Json.arr(Json.obj("bearerAuth", new ArrayList<>())));
        LinkedHashMap<String, Object> paths = new LinkedHashMap<>();
        for (Route rt : ROUTES) {
            @SuppressWarnings("unchecked")
            Map<String, Object> item = (Map<String, Object>) paths.computeIfAbsent(rt.path, k -> new LinkedHashMap<String, Object>());
            LinkedHashMap<String, Object> op = new LinkedHashMap<>();
            op.put("operationId", rt.opId);
            op.put("summary", rt.summary);
            if (rt.description != null) op.put("description", rt.description);
            op.put("tags", Json.arr(rt.tag));
            List<Object> params = new ArrayList<>();
            for (Map.Entry<String, String> e : rt.pathTypes.entrySet())
                params.add(Json.obj("name", e.getKey(), "in", "path", "required", true, "schema", e.getValue().equals("integer") ? Json.obj("type", "integer", "minimum", 0) : Json.obj("type", "string")));
            for (Map.Entry<String, Schema> e : rt.query.entrySet())
                params.add(Json.obj("name", e.getKey(), "in", "query", "required", rt.requiredQuery.contains(e.getKey()), "schema", e.getValue().toJson()));
            if (!params.isEmpty()) op.put("parameters", params);
            if (rt.body != null)
                op.put("requestBody", Json.obj("required", rt.bodyRequired, "content", Json.obj("application/json", Json.obj("schema", rt.body.toJson()))));
            LinkedHashMap<String, Object> rs = new LinkedHashMap<>();
            LinkedHashMap<String, Object> ok = new LinkedHashMap<>();
            ok.put("description", "Success");
            if (rt.resp != null) ok.put("content", Json.obj(rt.respType, Json.obj("schema", rt.resp.toJson())));
            else if (rt.respType.startsWith("text/csv")) ok.put("content", Json.obj("text/csv", Json.obj("schema", Json.obj("type", "string"))));
            rs.put(String.valueOf(rt.status), ok);
            List<Integer> errs = new ArrayList<>(rt.errors);
            if (rt.path.contains("{") && !errs.contains(404)) errs.add(404);
            errs.add(400); Collections.sort(errs);
            for (Integer e : new LinkedHashSet<>(errs))
                rs.put(String.valueOf(e), Json.obj("description", errDesc(e), "content", Json.obj("application/json", Json.obj("schema", Json.obj("$ref", "#/components/schemas/Error")))));
            op.put("responses", rs);
            item.put(rt.method.toLowerCase(Locale.ROOT), op);
        }
        doc.put("paths", paths);
        LinkedHashMap<String, Object> schemas = new LinkedHashMap<>();
        for (Map.Entry<String, Schema> e : Schema.COMPONENTS.entrySet()) schemas.put(e.getKey(), e.getValue().toJson());
        doc.put("components", Json.obj("schemas", schemas, "securitySchemes",
                Json.obj("bearerAuth", Json.obj("type", "http", "scheme", "bearer", "description", "Account API key; 'Api-Key <key>' is also accepted"))));
        return doc;
    }

    static String errDesc(int s) {
        switch (s) {
            case 400: return "Malformed request, or a rule of the operation rejected it";
            case 401: return "Missing or malformed credential";
            case 403: return "Credential not recognised or not allowed";
            case 404: return "Resource not found";
            case 409: return "Conflict";
            case 413: return "Body too large";
            case 415: return "Unsupported media type";
            case 422: return "Validation failed";
            default: return "Error";
        }
    }
}

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.*;

/**
 * Tiny schema language used both to validate requests and to emit the OpenAPI document.
 *  type  := base ['?']            ('?' = nullable)
 *  base  := '{' [field {',' field}] '}' | '[' type ']' | '(' word {'|' word} ')' | '$'Name | prim [op number]
 *  field := name ['!'] ':' type   ('!' = required)
 *  prim  := string integer number boolean object any datetime date     op := '>=' | '<='
 */
final class Schema {
    static final Map<String, Schema> COMPONENTS = new LinkedHashMap<>();

    String kind; // object array string integer number boolean any ref enum
    boolean nullable, closed;
    LinkedHashMap<String, Schema> props;
    LinkedHashSet<String> required = new LinkedHashSet<>();
    Schema items;
    List<String> enums;
    String ref, format;
    Long min, max;
    Integer maxLen;

    static Schema def(String name, String dsl) { Schema s = parse(dsl); COMPONENTS.put(name, s); return s; }

    static Schema parse(String dsl) {
        Tok t = new Tok(dsl);
        Schema s = t.type();
        if (t.peek() != null) throw new IllegalArgumentException("trailing schema text: " + dsl.substring(t.i));
        return s;
    }

    private static final class Tok {
        final String s; int i = 0;
        Tok(String s) { this.s = s; }
        void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }
        String peek() {
            ws(); if (i >= s.length()) return null;
            char c = s.charAt(i);
            if (c == '>' || c == '<') return s.substring(i, Math.min(i + 2, s.length()));
            if ("{}[]()|,:!?$".indexOf(c) >= 0) return String.valueOf(c);
            int j = i; while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || "_-.@/".indexOf(s.charAt(j)) >= 0)) j++;
            if (j == i) throw new IllegalArgumentException("bad schema char '" + c + "' in " + s);
            return s.substring(i, j);
        }
        String next() { String p = peek(); if (p == null) throw new IllegalArgumentException("eof in " + s); i += p.length(); return p; }
        void expect(String e) { String n = next(); if (!n.equals(e)) throw new IllegalArgumentException("expected " + e + " got " + n + " in " + s); }
        Schema type() {
            Schema sc = base();
            if ("?".equals(peek())) { next(); sc.nullable = true; }
            return sc;
        }
        Schema base() {
            String n = next();
            Schema sc = new Schema();
            switch (n) {
                case "{":
                    sc.kind = "object"; sc.props = new LinkedHashMap<>();
                    if ("}".equals(peek())) { next(); sc.props = null; return sc; }
                    while (true) {
                        String name = next();
                        boolean req = false;
                        if ("!".equals(peek())) { next(); req = true; }
                        expect(":");
                        sc.props.put(name, type());
                        if (req) sc.required.add(name);
                        String d = next();
                        if (d.equals("}")) break;
                        if (!d.equals(",")) throw new IllegalArgumentException("expected , in " + s);
                    }
                    return sc;
                case "[":
                    sc.kind = "array"; sc.items = type(); expect("]");
                    if ("<=".equals(peek())) { next(); sc.max = Long.parseLong(next()); }
                    return sc;
                case "(":
                    sc.kind = "enum"; sc.enums = new ArrayList<>();
                    while (true) { sc.enums.add(next()); String d = next(); if (d.equals(")")) break; }
                    return sc;
                case "$":
                    sc.kind = "ref"; sc.ref = next(); return sc;
                default:
                    switch (n) {
                        case "string": case "integer": case "number": case "boolean": case "any": sc.kind = n; break;
                        case "object": sc.kind = "object"; break;
                        case "strmap": sc.kind = "object"; sc.format = "strmap"; break;
                        case "datetime": sc.kind = "string"; sc.format = "date-time"; break;
                        case "date": sc.kind = "string"; sc.format = "date"; break;
                        default: throw new IllegalArgumentException("unknown type " + n + " in " + s);
                    }
                    String p = peek();
                    if (">=".equals(p) || "<=".equals(p)) {
                        next(); long v = Long.parseLong(next());
                        if (sc.kind.equals("string")) sc.maxLen = (int) v;
                        else if (p.equals(">=")) sc.min = v; else sc.max = v;
                        if (">=".equals(peek())) { next(); sc.min = Long.parseLong(next()); }
                        if ("<=".equals(peek())) { next(); sc.max = Long.parseLong(next()); }
                    }
                    return sc;
            }
        }
    }

    Schema copy() {
        Schema c = new Schema();
        c.kind = kind; c.nullable = nullable; c.closed = closed; c.props = props; c.required = required; c.items = items;
        c.enums = enums; c.ref = ref; c.format = format; c.min = min; c.max = max; c.maxLen = maxLen;
        return c;
    }

    // ---------------- OpenAPI 3.1 output ----------------
    Map<String, Object> toJson() {
        LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        if (kind.equals("ref")) {
            Map<String, Object> r = Json.obj("$ref", "#/components/schemas/" + ref);
            if (!nullable) return r;
            m.put("anyOf", Json.arr(r, Json.obj("type", "null")));
            return m;
        }
        if (kind.equals("any")) { return m; }
        if (kind.equals("enum")) {
            m.put("type", nullable ? Json.arr("string", "null") : "string");
            List<Object> e = new ArrayList<>(enums);
            if (nullable) e.add(null);
            m.put("enum", e);
            return m;
        }
        m.put("type", nullable ? Json.arr(kind, "null") : kind);
        if (format != null) m.put("format", format);
        if (min != null) m.put("minimum", min);
        if (max != null) m.put(kind.equals("array") ? "maxItems" : "maximum", max);
        if ("strmap".equals(format)) { m.remove("format"); m.put("additionalProperties", Json.obj("type", "string")); }
        if (maxLen != null) m.put("maxLength", maxLen);
        if (kind.equals("array")) m.put("items", items.toJson());
        if (kind.equals("object") && props != null) {
            LinkedHashMap<String, Object> p = new LinkedHashMap<>();
            for (Map.Entry<String, Schema> e : props.entrySet()) p.put(e.getKey(), e.getValue().toJson());
            m.put("properties", p);
            if (!required.isEmpty()) m.put("required", new ArrayList<>(required));
            if (closed) m.put("additionalProperties", false);
        }
        return m;
    }

    // ---------------- validation ----------------
    /** Validates v; adds messages to errs. reportExtra: list undeclared properties (self check). */
    @SuppressWarnings("unchecked")
    void validate(Object v, String path, List<String> errs, boolean reportExtra) {
        if (errs.size() > 20) return;
        if (v == null) { if (!nullable && !kind.equals("any")) errs.add(path + ": must not be null"); return; }
        switch (kind) {
            case "ref": {
                Schema t = COMPONENTS.get(ref);
                if (t == null) { errs.add(path + ": unknown schema " + ref); return; }
                t.validate(v, path, errs, reportExtra);
                return;
            }
            case "any": return;
            case "enum":
                if (!(v instanceof String) || !enums.contains(v)) errs.add(path + ": must be one of " + String.join(", ", enums));
                return;
            case "string":
                if (!(v instanceof String)) { errs.add(path + ": must be a string"); return; }
                if (maxLen != null && ((String) v).length() > maxLen) errs.add(path + ": longer than " + maxLen + " characters");
                if ("date-time".equals(format) && !Util.isDateTime((String) v)) errs.add(path + ": must be an ISO 8601 date-time");
                if ("date".equals(format) && !Util.isDate((String) v)) errs.add(path + ": must be an ISO 8601 date");
                return;
            case "boolean":
                if (!(v instanceof Boolean)) errs.add(path + ": must be a boolean");
                return;
            case "integer":
                if (v instanceof BigInteger) { errs.add(path + ": integer out of range"); return; }
                if (!(v instanceof Long || v instanceof Integer)) { errs.add(path + ": must be an integer"); return; }
                range(((Number) v).doubleValue(), path, errs);
                return;
            case "number":
                if (v instanceof BigDecimal || v instanceof BigInteger) { errs.add(path + ": number out of range"); return; }
                if (!(v instanceof Number)) { errs.add(path + ": must be a number"); return; }
                range(((Number) v).doubleValue(), path, errs);
                return;
            case "array":
                if (!(v instanceof List)) { errs.add(path + ": must be an array"); return; }
                if (max != null && ((List<Object>) v).size() > max) { errs.add(path + ": at most " + max + " entries allowed"); return; }
                int k = 0;
                for (Object o : (List<Object>) v) items.validate(o, path + "[" + (k++) + "]", errs, reportExtra);
                return;
            case "object":
                if (!(v instanceof Map)) { errs.add(path + ": must be an object"); return; }
                Map<String, Object> m = (Map<String, Object>) v;
                if ("strmap".equals(format)) { for (Map.Entry<String, Object> e : m.entrySet()) if (!(e.getValue() instanceof String)) errs.add(path + "." + e.getKey() + ": must be a string"); return; }
                if (props == null) return;
                for (String r : required) if (!m.containsKey(r)) errs.add(path + "." + r + ": is required");
                for (Map.Entry<String, Object> e : m.entrySet()) {
                    Schema ps = props.get(e.getKey());
                    if (ps == null) {
                        if (closed || reportExtra) errs.add(path + "." + e.getKey() + ": unknown field");
                        continue;
                    }
                    ps.validate(e.getValue(), path + "." + e.getKey(), errs, reportExtra);
                }
                return;
            default:
                errs.add(path + ": unsupported schema kind");
        }
    }

    private void range(double d, String path, List<String> errs) {
        if (min != null && d < min) errs.add(path + ": must be >= " + min);
        if (max != null && d > max) errs.add(path + ": must be <= " + max);
    }
}

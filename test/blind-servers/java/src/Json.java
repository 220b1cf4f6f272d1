import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.*;

/** Minimal strict JSON parser / writer. JSON null is Java null. */
final class Json {
    static final class JsonError extends RuntimeException {
        JsonError(String m) { super(m); }
    }

    static Object parse(String s) {
        P p = new P(s);
        p.ws();
        Object v = p.value(0);
        p.ws();
        if (p.i != s.length()) throw new JsonError("unexpected trailing characters at offset " + p.i);
        return v;
    }

    private static final class P {
        final String s; int i = 0; final int n;
        P(String s) { this.s = s; this.n = s.length(); }
        void ws() { while (i < n) { char c = s.charAt(i); if (c == ' ' || c == '\t' || c == '\n' || c == '\r') i++; else break; } }
        JsonError err(String m) { return new JsonError(m + " at offset " + i); }
        Object value(int depth) {
            if (depth > 128) throw err("nesting too deep");
            if (i >= n) throw err("unexpected end of input");
            char c = s.charAt(i);
            switch (c) {
                case '{': return obj(depth);
                case '[': return arr(depth);
                case '"': return str();
                case 't': lit("true"); return Boolean.TRUE;
                case 'f': lit("false"); return Boolean.FALSE;
                case 'n': lit("null"); return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return num();
                    throw err("unexpected character");
            }
        }
        void lit(String w) { if (!s.startsWith(w, i)) throw err("invalid literal"); i += w.length(); }
        Map<String, Object> obj(int depth) {
            LinkedHashMap<String, Object> m = new LinkedHashMap<>();
            i++; ws();
            if (i < n && s.charAt(i) == '}') { i++; return m; }
            while (true) {
                ws();
                if (i >= n || s.charAt(i) != '"') throw err("expected string key");
                String k = str();
                ws();
                if (i >= n || s.charAt(i) != ':') throw err("expected ':'");
                i++; ws();
                Object v = value(depth + 1);
                if (m.containsKey(k)) throw err("duplicate key '" + k + "'");
                m.put(k, v);
                ws();
                if (i >= n) throw err("unterminated object");
                char c = s.charAt(i++);
                if (c == '}') return m;
                if (c != ',') throw err("expected ',' or '}'");
            }
        }
        List<Object> arr(int depth) {
            ArrayList<Object> a = new ArrayList<>();
            i++; ws();
            if (i < n && s.charAt(i) == ']') { i++; return a; }
            while (true) {
                ws();
                a.add(value(depth + 1));
                ws();
                if (i >= n) throw err("unterminated array");
                char c = s.charAt(i++);
                if (c == ']') return a;
                if (c != ',') throw err("expected ',' or ']'");
            }
        }
        String str() {
            i++;
            StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= n) throw err("unterminated string");
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c < 0x20) throw err("control character in string");
                if (c != '\\') { b.append(c); continue; }
                if (i >= n) throw err("bad escape");
                char e = s.charAt(i++);
                switch (e) {
                    case '"': b.append('"'); break;
                    case '\\': b.append('\\'); break;
                    case '/': b.append('/'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'n': b.append('\n'); break;
                    case 'r': b.append('\r'); break;
                    case 't': b.append('\t'); break;
                    case 'u':
                        if (i + 4 > n) throw err("bad unicode escape");
                        int cp = 0;
                        for (int k = 0; k < 4; k++) {
                            int d = Character.digit(s.charAt(i + k), 16);
                            if (d < 0) throw err("bad unicode escape");
                            cp = cp * 16 + d;
                        }
                        i += 4; b.append((char) cp); break;
                    default: throw err("bad escape");
                }
            }
        }
        Object num() {
            int st = i;
            if (s.charAt(i) == '-') i++;
            if (i >= n) throw err("bad number");
            if (s.charAt(i) == '0') i++;
            else if (s.charAt(i) >= '1' && s.charAt(i) <= '9') { while (i < n && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) i++; }
            else throw err("bad number");
            boolean frac = false;
            if (i < n && s.charAt(i) == '.') {
                frac = true; i++;
                int d0 = i; while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
                if (i == d0) throw err("bad number");
            }
            if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                frac = true; i++;
                if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
                int d0 = i; while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
                if (i == d0) throw err("bad number");
            }
            String t = s.substring(st, i);
            if (t.length() > 400) throw err("number too long");
            if (!frac) {
                try { return Long.parseLong(t); } catch (NumberFormatException ex) { return new BigInteger(t); }
            }
            BigDecimal bd = new BigDecimal(t);
            double d = bd.doubleValue();
            if (Double.isInfinite(d)) return bd;
            return d;
        }
    }

    // ---------------- writer ----------------
    static String write(Object v) { StringBuilder b = new StringBuilder(); w(b, v, -1, 0); return b.toString(); }
    static String pretty(Object v) { StringBuilder b = new StringBuilder(); w(b, v, 2, 0); return b.toString(); }

    @SuppressWarnings("unchecked")
    private static void w(StringBuilder b, Object v, int ind, int lvl) {
        if (v == null) { b.append("null"); return; }
        if (v instanceof String) { str(b, (String) v); return; }
        if (v instanceof Boolean) { b.append(v); return; }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) b.append("null"); else b.append(Double.toString(d));
            return;
        }
        if (v instanceof Number) { b.append(v.toString()); return; }
        if (v instanceof Map) {
            Map<String, Object> m = new TreeMap<>((Map<String, Object>) v); // keys written in sorted order
            b.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : m.entrySet()) {
                if (!first) b.append(',');
                first = false;
                nl(b, ind, lvl + 1);
                str(b, e.getKey());
                b.append(ind >= 0 ? ": " : ":");
                w(b, e.getValue(), ind, lvl + 1);
            }
            if (!m.isEmpty()) nl(b, ind, lvl);
            b.append('}');
            return;
        }
        if (v instanceof Collection) {
            b.append('[');
            boolean first = true;
            for (Object o : (Collection<Object>) v) {
                if (!first) b.append(',');
                first = false;
                nl(b, ind, lvl + 1);
                w(b, o, ind, lvl + 1);
            }
            if (!((Collection<Object>) v).isEmpty()) nl(b, ind, lvl);
            b.append(']');
            return;
        }
        str(b, v.toString());
    }

    private static void nl(StringBuilder b, int ind, int lvl) {
        if (ind < 0) return;
        b.append('\n');
        for (int k = 0; k < ind * lvl; k++) b.append(' ');
    }

    private static void str(StringBuilder b, String s) {
        b.append('"');
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                case '\b': b.append("\\b"); break;
                case '\f': b.append("\\f"); break;
                default:
                    if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        b.append('"');
    }

    // --------------- helpers ----------------
    @SafeVarargs
    static LinkedHashMap<String, Object> obj(Object... kv) {
        LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        for (int k = 0; k + 1 < kv.length; k += 2) m.put((String) kv[k], kv[k + 1]);
        return m;
    }

    static List<Object> arr(Object... vs) { return new ArrayList<>(Arrays.asList(vs)); }

    @SuppressWarnings("unchecked")
    static Object deepCopy(Object v) {
        if (v instanceof Map) {
            LinkedHashMap<String, Object> m = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) m.put(e.getKey(), deepCopy(e.getValue()));
            return m;
        }
        if (v instanceof List) {
            ArrayList<Object> a = new ArrayList<>();
            for (Object o : (List<Object>) v) a.add(deepCopy(o));
            return a;
        }
        return v;
    }
}

#include "json.hpp"
#include <cmath>
#include <cstdio>
#include <cstring>

bool Json::isInt() const {
  if (t == Int) return true;
  if (t == Dbl) return std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.0e15;
  return false;
}

Json& Json::operator[](const std::string& k) {
  if (t != Obj) { t = Obj; o.clear(); }
  for (auto& p : o) if (p.first == k) return p.second;
  o.emplace_back(k, Json());
  return o.back().second;
}
const Json* Json::get(const std::string& k) const {
  if (t != Obj) return nullptr;
  for (auto& p : o) if (p.first == k) return &p.second;
  return nullptr;
}
Json* Json::get(const std::string& k) {
  if (t != Obj) return nullptr;
  for (auto& p : o) if (p.first == k) return &p.second;
  return nullptr;
}
Json& Json::set(const std::string& k, Json v) { (*this)[k] = std::move(v); return *this; }
void Json::erase(const std::string& k) {
  if (t != Obj) return;
  for (size_t n = 0; n < o.size(); n++) if (o[n].first == k) { o.erase(o.begin() + n); return; }
}

bool Json::operator==(const Json& x) const {
  if (isNum() && x.isNum()) {
    if (t == Int && x.t == Int) return i == x.i;
    return asDbl() == x.asDbl();
  }
  if (t != x.t) return false;
  switch (t) {
    case Null: return true;
    case Bool: return b == x.b;
    case Str: return s == x.s;
    case Arr: return a == x.a;
    case Obj: {
      if (o.size() != x.o.size()) return false;
      for (auto& p : o) { const Json* q = x.get(p.first); if (!q || !(*q == p.second)) return false; }
      return true;
    }
    default: return false;
  }
}

std::string jsonEscape(const std::string& s) {
  std::string r;
  r.reserve(s.size() + 2);
  for (unsigned char c : s) {
    switch (c) {
      case '"': r += "\\\""; break;
      case '\\': r += "\\\\"; break;
      case '\n': r += "\\n"; break;
      case '\r': r += "\\r"; break;
      case '\t': r += "\\t"; break;
      case '\b': r += "\\b"; break;
      case '\f': r += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7f) { char buf[8]; snprintf(buf, sizeof buf, "\\u%04x", c); r += buf; }
        else r += (char)c;
    }
  }
  return r;
}

static void nl(std::string& out, int indent, int level) {
  if (indent < 0) return;
  out += '\n';
  out.append((size_t)(indent * level), ' ');
}

void Json::dumpTo(std::string& out, int indent, int level) const {
  switch (t) {
    case Null: out += "null"; break;
    case Bool: out += b ? "true" : "false"; break;
    case Int: out += std::to_string(i); break;
    case Dbl: {
      if (!std::isfinite(d)) { out += "null"; break; }
      char buf[40];
      snprintf(buf, sizeof buf, "%.15g", d);
      double back = strtod(buf, nullptr);
      if (back != d) snprintf(buf, sizeof buf, "%.17g", d);
      out += buf;
      break;
    }
    case Str: out += '"'; out += jsonEscape(s); out += '"'; break;
    case Arr:
      if (a.empty()) { out += "[]"; break; }
      out += '[';
      for (size_t n = 0; n < a.size(); n++) {
        if (n) out += ',';
        nl(out, indent, level + 1);
        a[n].dumpTo(out, indent, level + 1);
      }
      nl(out, indent, level);
      out += ']';
      break;
    case Obj:
      if (o.empty()) { out += "{}"; break; }
      out += '{';
      for (size_t n = 0; n < o.size(); n++) {
        if (n) out += ',';
        nl(out, indent, level + 1);
        out += '"'; out += jsonEscape(o[n].first); out += '"';
        out += indent < 0 ? ":" : ": ";
        o[n].second.dumpTo(out, indent, level + 1);
      }
      nl(out, indent, level);
      out += '}';
      break;
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dumpTo(out, indent, 0);
  return out;
}

namespace {
struct Parser {
  const std::string& s;
  size_t p = 0;
  std::string err;
  explicit Parser(const std::string& x) : s(x) {}
  void ws() { while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r')) p++; }
  bool fail(const std::string& m) { if (err.empty()) err = m + " at offset " + std::to_string(p); return false; }
  static void utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) out += (char)cp;
    else if (cp < 0x800) { out += (char)(0xC0 | (cp >> 6)); out += (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { out += (char)(0xE0 | (cp >> 12)); out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F)); }
    else { out += (char)(0xF0 | (cp >> 18)); out += (char)(0x80 | ((cp >> 12) & 0x3F)); out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F)); }
  }
  bool hex4(uint32_t& v) {
    if (p + 4 > s.size()) return fail("truncated \\u escape");
    v = 0;
    for (int k = 0; k < 4; k++) {
      char c = s[p++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
      else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
      else return fail("bad \\u escape");
    }
    return true;
  }
  bool str(std::string& out) {
    p++;  // opening quote
    while (true) {
      if (p >= s.size()) return fail("unterminated string");
      unsigned char c = (unsigned char)s[p];
      if (c == '"') { p++; return true; }
      if (c < 0x20) return fail("control character in string");
      if (c == '\\') {
        p++;
        if (p >= s.size()) return fail("unterminated escape");
        char e = s[p++];
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            uint32_t v;
            if (!hex4(v)) return false;
            if (v >= 0xD800 && v <= 0xDBFF) {
              if (p + 2 > s.size() || s[p] != '\\' || s[p + 1] != 'u') return fail("lone surrogate");
              p += 2;
              uint32_t lo;
              if (!hex4(lo)) return false;
              if (lo < 0xDC00 || lo > 0xDFFF) return fail("bad surrogate pair");
              v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
            } else if (v >= 0xDC00 && v <= 0xDFFF) return fail("lone surrogate");
            utf8(out, v);
            break;
          }
          default: return fail("bad escape");
        }
        continue;
      }
      if (c < 0x80) { out += (char)c; p++; continue; }
      // validate UTF-8 sequence
      int len; uint32_t cp;
      if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; }
      else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; }
      else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; }
      else return fail("invalid UTF-8");
      if (p + (size_t)len > s.size()) return fail("invalid UTF-8");
      for (int k = 1; k < len; k++) {
        unsigned char cc = (unsigned char)s[p + k];
        if ((cc & 0xC0) != 0x80) return fail("invalid UTF-8");
        cp = (cp << 6) | (cc & 0x3F);
      }
      if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
          (cp >= 0xD800 && cp <= 0xDFFF))
        return fail("invalid UTF-8");
      out.append(s, p, (size_t)len);
      p += (size_t)len;
    }
  }
  bool num(Json& out) {
    size_t st = p;
    bool isF = false;
    if (s[p] == '-') p++;
    if (p >= s.size()) return fail("bad number");
    if (s[p] == '0') p++;
    else if (s[p] >= '1' && s[p] <= '9') { while (p < s.size() && isdigit((unsigned char)s[p])) p++; }
    else return fail("bad number");
    if (p < s.size() && s[p] == '.') {
      isF = true; p++;
      if (p >= s.size() || !isdigit((unsigned char)s[p])) return fail("bad number");
      while (p < s.size() && isdigit((unsigned char)s[p])) p++;
    }
    if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
      isF = true; p++;
      if (p < s.size() && (s[p] == '+' || s[p] == '-')) p++;
      if (p >= s.size() || !isdigit((unsigned char)s[p])) return fail("bad number");
      while (p < s.size() && isdigit((unsigned char)s[p])) p++;
    }
    std::string t = s.substr(st, p - st);
    if (!isF && t.size() < 19) { out = Json((long long)strtoll(t.c_str(), nullptr, 10)); return true; }
    double v = strtod(t.c_str(), nullptr);
    if (!std::isfinite(v)) return fail("number out of range");
    out = Json(v);
    return true;
  }
  bool val(Json& out, int depth) {
    if (depth > 96) return fail("nesting too deep");
    ws();
    if (p >= s.size()) return fail("unexpected end of input");
    char c = s[p];
    if (c == '{') {
      p++;
      out = Json::object();
      ws();
      if (p < s.size() && s[p] == '}') { p++; return true; }
      while (true) {
        ws();
        if (p >= s.size() || s[p] != '"') return fail("expected object key");
        std::string k;
        if (!str(k)) return false;
        ws();
        if (p >= s.size() || s[p] != ':') return fail("expected ':'");
        p++;
        Json v;
        if (!val(v, depth + 1)) return false;
        if (!out.has(k)) out.o.emplace_back(std::move(k), std::move(v));
        ws();
        if (p < s.size() && s[p] == ',') { p++; continue; }
        if (p < s.size() && s[p] == '}') { p++; return true; }
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      p++;
      out = Json::array();
      ws();
      if (p < s.size() && s[p] == ']') { p++; return true; }
      while (true) {
        Json v;
        if (!val(v, depth + 1)) return false;
        out.a.push_back(std::move(v));
        ws();
        if (p < s.size() && s[p] == ',') { p++; continue; }
        if (p < s.size() && s[p] == ']') { p++; return true; }
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') { out = Json(std::string()); return str(out.s); }
    if (c == '-' || (c >= '0' && c <= '9')) return num(out);
    if (s.compare(p, 4, "true") == 0) { p += 4; out = Json(true); return true; }
    if (s.compare(p, 5, "false") == 0) { p += 5; out = Json(false); return true; }
    if (s.compare(p, 4, "null") == 0) { p += 4; out = Json(); return true; }
    return fail("unexpected character");
  }
};
}  // namespace

bool parseJson(const std::string& in, Json& out, std::string& err) {
  Parser ps(in);
  size_t st = 0;
  if (in.size() >= 3 && (unsigned char)in[0] == 0xEF && (unsigned char)in[1] == 0xBB && (unsigned char)in[2] == 0xBF) st = 3;
  ps.p = st;
  if (!ps.val(out, 0)) { err = ps.err; return false; }
  ps.ws();
  if (ps.p != in.size()) { err = "trailing characters at offset " + std::to_string(ps.p); return false; }
  return true;
}

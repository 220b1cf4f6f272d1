// Minimal ordered JSON value, strict parser and pretty serializer.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

struct Json {
  enum Type { Null, Bool, Int, Dbl, Str, Arr, Obj };
  Type t = Null;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string s;
  std::vector<Json> a;
  std::vector<std::pair<std::string, Json>> o;

  Json() {}
  Json(std::nullptr_t) {}
  Json(bool v) : t(Bool), b(v) {}
  Json(int v) : t(Int), i(v) {}
  Json(long v) : t(Int), i(v) {}
  Json(long long v) : t(Int), i(v) {}
  Json(unsigned v) : t(Int), i(v) {}
  Json(unsigned long v) : t(Int), i((int64_t)v) {}
  Json(unsigned long long v) : t(Int), i((int64_t)v) {}
  Json(double v) : t(Dbl), d(v) {}
  Json(const char* v) : t(Str), s(v) {}
  Json(const std::string& v) : t(Str), s(v) {}
  Json(std::string&& v) : t(Str), s(std::move(v)) {}

  static Json object() { Json j; j.t = Obj; return j; }
  static Json array() { Json j; j.t = Arr; return j; }

  bool isNull() const { return t == Null; }
  bool isBool() const { return t == Bool; }
  bool isNum() const { return t == Int || t == Dbl; }
  bool isInt() const;  // Int, or Dbl with an integral value in int64 range
  bool isStr() const { return t == Str; }
  bool isArr() const { return t == Arr; }
  bool isObj() const { return t == Obj; }
  int64_t asInt() const { return t == Int ? i : (int64_t)d; }
  double asDbl() const { return t == Int ? (double)i : d; }

  // object access
  Json& operator[](const std::string& k);  // inserts null when missing (object)
  const Json* get(const std::string& k) const;
  Json* get(const std::string& k);
  bool has(const std::string& k) const { return get(k) != nullptr; }
  Json& set(const std::string& k, Json v);  // replace or append; returns *this
  void erase(const std::string& k);
  // array
  Json& push(Json v) { if (t != Arr) { t = Arr; } a.push_back(std::move(v)); return *this; }
  size_t size() const { return t == Arr ? a.size() : t == Obj ? o.size() : 0; }

  std::string dump(int indent = 2) const;  // indent<0: compact
  void dumpTo(std::string& out, int indent, int level) const;
  bool operator==(const Json& x) const;
  bool operator!=(const Json& x) const { return !(*this == x); }
};

// Strict parse (RFC 8259, UTF-8 validated, depth <= 96, first duplicate key wins).
bool parseJson(const std::string& in, Json& out, std::string& err);
std::string jsonEscape(const std::string& s);

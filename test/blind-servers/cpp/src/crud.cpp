#include "crud.hpp"
#include <algorithm>

Json validateFields(const Json& body, const std::vector<FieldSpec>& specs, bool create, std::map<std::string, std::string>& secrets) {
  Json out = Json::object();
  for (auto& f : specs) {
    const Json* v = body.get(f.name);
    if (!v || (v->isNull() && create && f.required)) {
      if (create && f.required) fail(400, "field '" + f.name + "' is required");
      continue;
    }
    if (v->isNull()) {
      if (f.required || !f.nullable) fail(400, "field '" + f.name + "' must not be null");
      out.set(f.name, Json());
      continue;
    }
    const std::string& t = f.type;
    if (t == "string" || t == "email") {
      if (!v->isStr()) fail(400, "field '" + f.name + "' must be a string");
      if (v->s.size() > f.maxLen) fail(422, "field '" + f.name + "' is longer than " + std::to_string(f.maxLen) + " characters");
      if (f.required && trim(v->s).empty()) fail(422, "field '" + f.name + "' must not be empty");
      if (t == "email") {
        size_t at = v->s.find('@');
        if (at == std::string::npos || at == 0 || v->s.find('.', at) == std::string::npos || v->s.find(' ') != std::string::npos)
          fail(422, "field '" + f.name + "' must be an email address");
      }
      if (!f.enums.empty()) needEnum(f.name, v->s, f.enums);
    } else if (t == "integer") {
      if (!v->isInt()) fail(400, "field '" + f.name + "' must be an integer");
    } else if (t == "number") {
      if (!v->isNum()) fail(400, "field '" + f.name + "' must be a number");
    } else if (t == "boolean") {
      if (!v->isBool()) fail(400, "field '" + f.name + "' must be a boolean");
    } else if (t == "object") {
      if (!v->isObj()) fail(400, "field '" + f.name + "' must be an object");
    } else if (t == "array") {
      if (!v->isArr()) fail(400, "field '" + f.name + "' must be an array");
    } else if (t == "strings") {
      if (!v->isArr()) fail(400, "field '" + f.name + "' must be an array of strings");
      for (auto& e : v->a) {
        if (!e.isStr()) fail(400, "field '" + f.name + "' must be an array of strings");
        if (!f.enums.empty()) needEnum(f.name, e.s, f.enums);
      }
    }
    if (f.secret) secrets[f.name] = v->isStr() ? v->s : v->dump(-1);
    else out.set(f.name, *v);
  }
  return out;
}

Json withSecretHints(const Json& row, const std::map<std::string, std::string>& secrets) {
  Json r = row;
  for (auto& kv : secrets) {
    std::string tail = kv.second.size() >= 4 ? kv.second.substr(kv.second.size() - 4) : std::string();
    r.set(kv.first + "Hint", "****" + tail);
  }
  return r;
}

std::string fieldSchema(const std::vector<FieldSpec>& specs, bool forCreate) {
  Json props = Json::object(), req = Json::array();
  for (auto& f : specs) {
    Json s = Json::object();
    const std::string& t = f.type;
    std::string jt = t == "email" ? "string" : t == "strings" ? "array" : t == "any" ? "" : t;
    if (!jt.empty()) {
      if (f.nullable && !(forCreate && f.required)) s.set("type", Json::array().push(jt).push("null"));
      else s.set("type", jt);
    }
    if (t == "email") s.set("format", "email");
    if (t == "strings") {
      Json it = Json::object().set("type", "string");
      if (!f.enums.empty()) { Json e = Json::array(); for (auto& x : f.enums) e.push(x); it.set("enum", e); }
      s.set("items", it);
    } else if (!f.enums.empty()) {
      Json e = Json::array();
      for (auto& x : f.enums) e.push(x);
      if (f.nullable && !(forCreate && f.required)) e.push(Json());
      s.set("enum", e);
    }
    if (jt == "string") s.set("maxLength", (int64_t)f.maxLen);
    if (f.secret) s.set("writeOnly", true);
    props.set(f.name, s);
    if (forCreate && f.required) req.push(f.name);
  }
  Json o = Json::object().set("type", "object").set("properties", props);
  if (req.size()) o.set("required", req);
  return o.dump(-1);
}

int64_t rowId(Ctx& c, Coll& coll, const std::string& param, const std::string& what) {
  int64_t id;
  std::string v = c.param(param);
  if (!parseI64(v, id) || !coll.rows.count(id)) fail(404, what + " '" + v + "' not found");
  return id;
}

std::vector<Json> searchRows(const Coll& coll, const std::string& search, const std::vector<std::string>& fields,
                             std::function<bool(const Json&)> keep) {
  std::vector<Json> out;
  for (auto& kv : coll.rows) {
    if (keep && !keep(kv.second)) continue;
    if (!search.empty()) {
      bool hit = false;
      for (auto& f : fields) {
        const Json* v = kv.second.get(f);
        if (v && v->isStr() && icontains(v->s, search)) hit = true;
      }
      if (!hit) continue;
    }
    auto sec = coll.secrets.find(kv.first);
    out.push_back(sec == coll.secrets.end() ? kv.second : withSecretHints(kv.second, sec->second));
  }
  return out;
}

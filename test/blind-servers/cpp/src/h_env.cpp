// E2 environments, E3 metadata tokens, E13 env vars and PUT env-vars.
#include <algorithm>
#include <cmath>
#include "app.hpp"

namespace {
struct Env {
  std::string id, type, branch, user;
  const Branch* b;
};

std::string hostFor(const Deployment& d, const Branch& b, const std::string& type) {
  std::string h = lower(d.name);
  for (auto& ch : h) if (!isalnum((unsigned char)ch)) ch = '-';
  if (type == "production") return h + "-" + std::to_string(d.id) + ".analytics.acme.example";
  std::string bn = lower(b.name);
  for (auto& ch : bn) if (!isalnum((unsigned char)ch)) ch = '-';
  return bn + "--" + type.substr(0, 3) + "." + h + "-" + std::to_string(d.id) + ".analytics.acme.example";
}

std::vector<Env> environmentsOf(Deployment& d) {
  std::vector<Env> out;
  for (auto& kv : S.branches) {
    Branch& b = kv.second;
    if (b.dep != d.id) continue;
    std::string type;
    if (b.kind == "production") type = "production";
    else if (b.kind == "shared" && b.staging) type = "staging";
    else if (b.kind == "personal" && b.devMode) type = "development";
    else continue;
    std::string& id = b.envIds[type];
    if (id.empty()) id = ulid();
    int64_t owner = b.kind == "production" ? d.ownerId : b.ownerId;
    auto u = S.users.find(owner);
    out.push_back({id, type, b.name, u == S.users.end() ? std::string("unknown@acme.example") : u->second.email, &b});
  }
  auto rank = [](const std::string& t) { return t == "staging" ? 0 : t == "production" ? 1 : 2; };
  std::sort(out.begin(), out.end(), [&](const Env& a, const Env& b) {
    if (rank(a.type) != rank(b.type)) return rank(a.type) < rank(b.type);
    return a.branch < b.branch;
  });
  return out;
}

Json envJson(const Deployment& d, const Env& e) {
  std::string host = hostFor(d, *e.b, e.type);
  Json creds = Json::array();
  creds.push(Json::object()
                 .set("type", "rest")
                 .set("version", 2)
                 .set("database", d.dbName)
                 .set("host", host)
                 .set("port", 443)
                 .set("url", "https://" + host + "/cubejs-api/v1"));
  creds.push(Json::object()
                 .set("type", "sql")
                 .set("version", 3)
                 .set("database", d.dbName)
                 .set("host", "sql." + host)
                 .set("port", 15432)
                 .set("url", "postgresql://sql." + host + ":15432/" + d.dbName));
  return Json::object().set("id", e.id).set("type", e.type).set("branch", e.branch).set("user", e.user).set("api_credentials", creds);
}

void listEnvironments(Ctx& c) {
  Deployment& d = needDep(c);
  auto type = c.q("type");
  if (type && *type != "production" && *type != "staging" && *type != "development")
    fail(400, "query parameter 'type' must be production, staging or development");
  auto offsetQ = c.qInt("offset", 0, 1000000000);
  auto limitQ = c.qInt("limit", 0);
  std::vector<Json> all;
  for (auto& e : environmentsOf(d))
    if (!type || e.type == *type) all.push_back(envJson(d, e));
  CursorPage p = cursorPage(c, all.size(), true);
  Json items = Json::array();
  for (size_t k = p.start; k < p.end; k++) items.push(all[k]);
  int64_t offset = offsetQ.value_or(0), limit = std::min<int64_t>(limitQ.value_or(20), kMaxPage);
  Json data = Json::array();
  for (int64_t k = offset; k < (int64_t)all.size() && k < offset + limit; k++) data.push(all[(size_t)k]);
  Json r = Json::object();
  r.set("items", items);
  r.set("pageInfo", p.pageInfo);
  r.set("data", data);
  if (offsetQ || limitQ) r.set("pagination", Json::object().set("offset", offset).set("limit", limit).set("total", (int64_t)all.size()));
  else r.set("pagination", Json());
  c.ok(r);
}

void metaToken(Ctx& c) {
  Deployment& d = needDep(c, ROLE_AIBI);
  std::string envId = c.param("environmentId");
  bool found = false;
  for (auto& e : environmentsOf(d)) if (e.id == envId) found = true;
  if (!found) fail(404, "environment '" + envId + "' not found in deployment " + std::to_string(d.id));
  Json& b = c.body(true);
  const Json* sc = b.get("security_context");
  if (!sc || sc->isNull()) fail(400, "field 'security_context' is required");
  if (!sc->isObj()) fail(400, "field 'security_context' must be an object");
  int64_t ttl = 86400;
  if (const Json* e = b.get("expires_in")) {
    if (!e->isNull()) {
      if (!e->isNum()) fail(400, "field 'expires_in' must be a number of seconds");
      double v = e->asDbl();
      if (!(v > 0) || v > 172800) fail(422, "field 'expires_in' must be greater than 0 and at most 172800 seconds");
      ttl = std::max<int64_t>(1, (int64_t)llround(v));
    }
  }
  int64_t now = nowSec();
  Json hdr = Json::object().set("alg", "HS384").set("typ", "JWT");
  Json claims = Json::object()
                    .set("typ", "meta")
                    .set("dep", std::to_string(d.id))
                    .set("env", envId)
                    .set("ctx", *sc)
                    .set("iat", now)
                    .set("exp", now + ttl)
                    .set("jti", randHex(16));
  std::string signing = b64url(hdr.dump(-1)) + "." + b64url(claims.dump(-1));
  std::string token = signing + "." + b64url(hmacSha384(S.jwtSecret, signing));
  Json data = Json::object()
                  .set("token", token)
                  .set("created_at", fmtTime(now))
                  .set("expires_at", fmtTime(now + ttl))
                  .set("security_context", *sc)
                  .set("scopes", Json::array().push("meta_sync"));
  c.ok(Json::object().set("data", data));
}

std::vector<Json> envVarList(const Deployment& d) {
  std::vector<const EnvVar*> v;
  for (auto& e : d.envVars) v.push_back(&e);
  std::sort(v.begin(), v.end(), [](const EnvVar* a, const EnvVar* b) {
    bool sa = isSecretName(a->name), sb = isSecretName(b->name);
    if (sa != sb) return !sa;
    std::string la = lower(a->name), lb = lower(b->name);
    if (la != lb) return la < lb;
    return a->name < b->name;
  });
  std::vector<Json> out;
  for (auto* e : v) out.push_back(Json::object().set("name", e->name).set("value", isSecretName(e->name) ? std::string("[ENCRYPTED]") : e->value));
  return out;
}

void listEnvVars(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  c.ok(cursorList(c, envVarList(d), false));
}

bool validVarName(const std::string& n) {
  if (n.empty() || n.size() > 255) return false;
  if (!(isalpha((unsigned char)n[0]) || n[0] == '_')) return false;
  for (char ch : n) if (!(isalnum((unsigned char)ch) || ch == '_')) return false;
  return true;
}

void putEnvVars(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  const Json* list = b.get("env_variables");
  if (!list || list->isNull()) fail(400, "field 'env_variables' is required");
  if (!list->isArr()) fail(400, "field 'env_variables' must be an array");
  std::vector<std::pair<std::string, std::string>> sets;
  for (size_t k = 0; k < list->a.size(); k++) {
    const Json& e = list->a[k];
    std::string p = "env_variables[" + std::to_string(k) + "]";
    if (!e.isObj()) fail(400, p + " must be an object with name and value");
    const Json* n = e.get("name");
    const Json* v = e.get("value");
    if (!n || !n->isStr()) fail(400, p + ".name is required and must be a string");
    if (!v || !v->isStr()) fail(400, p + ".value is required and must be a string");
    if (v->s == "[ENCRYPTED]") fail(422, p + ".value: the [ENCRYPTED] placeholder cannot be stored; send the real value");
    bool exists = false;
    for (auto& ev : d.envVars) if (ev.name == n->s) exists = true;
    if (!exists && !validVarName(n->s)) fail(422, p + ".name must match ^[A-Za-z_][A-Za-z0-9_]*$");
    if (v->s.size() > 65536) fail(422, p + ".value is longer than 65536 characters");
    if (isSecretName(n->s) && !hasPerm(c.me(), "SecretsManage")) fail(403, "setting secret-named variables requires the SecretsManage permission");
    sets.push_back({n->s, v->s});
  }
  Json names = Json::array();
  for (auto& s : sets) {
    bool done = false;
    for (auto& ev : d.envVars)
      if (ev.name == s.first) { ev.value = s.second; ev.updatedAt = nowSec(); done = true; }
    if (!done) d.envVars.push_back({s.first, s.second, nowSec()});
    names.push(s.first);
  }
  if (!sets.empty()) audit(&c.me(), d.id, "Environment variables updated", Json::object().set("names", names));
  std::vector<Json> all = envVarList(d);
  Json items = Json::array();
  for (auto& j : all) items.push(j);
  Json pi = Json::object()
                .set("hasNextPage", false)
                .set("hasPreviousPage", false)
                .set("startCursor", all.empty() ? Json() : Json(makeCursor(0)))
                .set("endCursor", all.empty() ? Json() : Json(makeCursor(all.size() - 1)));
  c.ok(Json::object().set("items", items).set("pageInfo", pi).set("data", items));
}
}  // namespace

void regEnvironments() {
  route("GET", "/api/v1/deployments/{deploymentId}/environments", listEnvironments)
      .op("listEnvironments", "List environments of a deployment", "Environments")
      .desc("items is the whole (type-filtered) list unless first/after is given; the deprecated data array is sliced by offset/limit. "
            "pagination is null unless offset or limit is sent.")
      .pp("deploymentId", SCH_DEPID)
      .qp("type", R"J({"type":"string","enum":["production","staging","development"]})J")
      .qp("offset", R"J({"type":"integer","minimum":0,"default":0})J")
      .qp("limit", R"J({"type":"integer","minimum":0,"default":20})J")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "#EnvironmentListResponse");
  route("POST", "/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync", metaToken)
      .op("createMetaSyncToken", "Issue a metadata-only token", "Environments")
      .pp("deploymentId", SCH_DEPID)
      .body("#MetaTokenRequest")
      .resp(200, "#MetaTokenResponse");
  route("GET", "/api/v1/deployments/{deploymentId}/env-vars", listEnvVars)
      .op("listEnvVars", "List environment variables (secret-named values masked)", "Environments")
      .pp("deploymentId", SCH_DEPID)
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "#EnvVarListResponse");
  route("PUT", "/api/v1/deployments/{deploymentId}/env-vars", putEnvVars)
      .op("setEnvVars", "Add or update environment variables by name", "Environments")
      .pp("deploymentId", SCH_DEPID)
      .body("#SetEnvVarsRequest")
      .resp(200, "#EnvVarListResponse");
}

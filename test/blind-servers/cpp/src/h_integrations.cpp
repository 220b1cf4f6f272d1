// OAuth integrations, user OAuth tokens, OIDC token configs, GitHub discovery.
#include <algorithm>
#include "crud.hpp"

namespace {
bool isAdmin(Ctx& c) { User& u = c.me(); return u.role == ROLE_ADMIN && !u.scopedDeployment; }
void needAdmin(Ctx& c) { if (!isAdmin(c)) fail(403, "this operation requires an account admin"); }
Json dataOf(const Json& j) { return Json::object().set("data", j); }
Json pub(Coll& coll, int64_t id) {
  auto s = coll.secrets.find(id);
  return s == coll.secrets.end() ? coll.rows[id] : withSecretHints(coll.rows[id], s->second);
}
bool httpsUrl(const std::string& s) { return s.compare(0, 8, "https://") == 0 && s.size() > 8; }

const std::vector<FieldSpec> kOauth = {{"name", "string", true, {}, 200},
                                       {"provider", "string", true, {"snowflake", "salesforce", "google-sheets", "bigquery", "databricks", "generic"}, 40},
                                       {"clientId", "string", true, {}, 500},
                                       {"clientSecret", "string", false, {}, 2000, true},
                                       {"scopes", "strings"},
                                       {"authorizeUrl", "string", false, {}, 2000},
                                       {"tokenUrl", "string", false, {}, 2000}};
const std::vector<FieldSpec> kToken = {{"integrationId", "integer", true}, {"userId", "integer"}, {"accessToken", "string", true, {}, 8000, true},
                                       {"refreshToken", "string", false, {}, 8000, true}, {"scopes", "strings"}, {"expiresAt", "string", false, {}, 40}};
const std::vector<FieldSpec> kOidc = {{"name", "string", true, {}, 200}, {"issuer", "string", true, {}, 2000}, {"audience", "string", true, {}, 500},
                                      {"claimMappings", "object"}};

void checkOauth(const Json& f) {
  for (const char* k : {"authorizeUrl", "tokenUrl"})
    if (auto v = f.get(k)) if (v->isStr() && !httpsUrl(v->s)) fail(422, std::string("field '") + k + "' must be an https URL");
}
void checkToken(const Json& f) {
  if (auto v = f.get("integrationId")) if (v->isInt() && !S.oauthIntegrations.rows.count(v->asInt())) fail(422, "integration " + std::to_string(v->asInt()) + " does not exist");
  if (auto v = f.get("userId")) if (v->isInt() && !S.users.count(v->asInt())) fail(422, "user " + std::to_string(v->asInt()) + " does not exist");
  if (auto v = f.get("expiresAt")) {
    int64_t t; bool d;
    if (v->isStr() && !parseIsoTime(v->s, t, d)) fail(422, "field 'expiresAt' must be an ISO 8601 date-time");
  }
}
void checkOidc(const Json& f) {
  if (auto v = f.get("issuer")) if (v->isStr() && !httpsUrl(v->s)) fail(422, "field 'issuer' must be an https URL");
}

struct Kind {
  Coll* coll;
  const std::vector<FieldSpec>* fields;
  std::string what, path;
  void (*check)(const Json&);
  bool own;  // records belong to users (tokens)
};
const Kind kinds[] = {
    {&S.oauthIntegrations, &kOauth, "OAuth integration", "/api/v1/oauth-integrations", checkOauth, false},
    {&S.userTokens, &kToken, "user OAuth token", "/api/v1/user-oauth-tokens", checkToken, true},
    {&S.oidcConfigs, &kOidc, "OIDC token config", "/api/v1/oidc-token-configs", checkOidc, false},
};

bool visible(Ctx& c, const Kind& k, const Json& row) {
  if (!k.own || isAdmin(c)) return true;
  const Json* u = row.get("userId");
  return u && u->asInt() == c.uid;
}
void readerCheck(Ctx& c, const Kind& k) { if (!k.own) needRole(c, ROLE_DEV, "reading " + k.what + "s"); }
int64_t findRow(Ctx& c, const Kind& k) {
  int64_t id = rowId(c, *k.coll, "id", k.what);
  if (!visible(c, k, k.coll->rows[id])) fail(404, k.what + " '" + c.param("id") + "' not found");
  return id;
}

void doList(Ctx& c, const Kind& k) {
  readerCheck(c, k);
  std::vector<Json> all = searchRows(*k.coll, c.q("search").value_or(""), {"name", "provider", "issuer"}, [&](const Json& r) { return visible(c, k, r); });
  c.ok(cursorList(c, all));
}
void doCreate(Ctx& c, const Kind& k) {
  if (!k.own) needAdmin(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), *k.fields, true, sec);
  k.check(f);
  if (k.own) {
    if (f.get("userId") && f.get("userId")->isInt() && f.get("userId")->asInt() != c.uid && !isAdmin(c))
      fail(403, "only an admin can store tokens for other users");
    if (!f.get("userId") || f.get("userId")->isNull()) f.set("userId", c.uid);
  }
  int64_t id = S.smallId();
  Json row = Json::object().set("id", id);
  for (auto& fs : *k.fields) if (!fs.secret) row.set(fs.name, f.get(fs.name) ? *f.get(fs.name) : Json());
  row.set("createdAt", fmtTime(nowSec())).set("updatedAt", fmtTime(nowSec()));
  k.coll->rows[id] = row;
  if (!sec.empty()) k.coll->secrets[id] = sec;
  c.created(dataOf(pub(*k.coll, id)), k.path + "/" + std::to_string(id));
}
void doGet(Ctx& c, const Kind& k) {
  readerCheck(c, k);
  c.ok(dataOf(pub(*k.coll, findRow(c, k))));
}
void doPatch(Ctx& c, const Kind& k) {
  if (!k.own) needAdmin(c);
  int64_t id = findRow(c, k);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), *k.fields, false, sec);
  for (auto& fs : *k.fields) if (fs.required && f.get(fs.name) && f.get(fs.name)->isNull()) fail(400, "field '" + fs.name + "' must not be null");
  if (k.own && f.get("userId") && f.get("userId")->asInt() != c.uid && !isAdmin(c)) fail(403, "only an admin can move tokens to other users");
  k.check(f);
  for (auto& kv : f.o) k.coll->rows[id].set(kv.first, kv.second);
  for (auto& kv : sec) k.coll->secrets[id][kv.first] = kv.second;
  k.coll->rows[id].set("updatedAt", fmtTime(nowSec()));
  c.ok(dataOf(pub(*k.coll, id)));
}
void doDelete(Ctx& c, const Kind& k) {
  if (!k.own) needAdmin(c);
  int64_t id = findRow(c, k);
  k.coll->rows.erase(id);
  k.coll->secrets.erase(id);
  c.ok(Json::object());
}

// ---------------- GitHub discovery (static catalogue)
struct Repo { int64_t inst; const char* owner; const char* name; bool priv; };
const Repo kRepos[] = {{5501, "acme", "analytics-model", true}, {5501, "acme", "dbt-project", true}, {5501, "acme", "dashboards", false},
                       {5502, "acme-labs", "experiments", false}, {5502, "acme-labs", "cube-playground", false}};
void ghStatus(Ctx& c) {
  needRole(c, ROLE_DEV, "GitHub discovery");
  c.ok(dataOf(Json::object().set("connected", true).set("appSlug", "acme-analytics-platform").set("account", "acme").set("installationCount", 2)));
}
void ghInstallations(Ctx& c) {
  needRole(c, ROLE_DEV, "GitHub discovery");
  std::vector<Json> all;
  all.push_back(Json::object().set("id", 5501).set("account", "acme").set("accountType", "Organization").set("repositorySelection", "selected"));
  all.push_back(Json::object().set("id", 5502).set("account", "acme-labs").set("accountType", "Organization").set("repositorySelection", "all"));
  c.ok(cursorList(c, all));
}
void ghRepos(Ctx& c) {
  needRole(c, ROLE_DEV, "GitHub discovery");
  int64_t inst;
  if (!parseI64(c.param("installationId"), inst) || (inst != 5501 && inst != 5502)) fail(404, "installation '" + c.param("installationId") + "' not found");
  std::vector<Json> all;
  int64_t n = 9100;
  for (auto& r : kRepos) {
    n++;
    if (r.inst != inst) continue;
    all.push_back(Json::object()
                      .set("id", n)
                      .set("fullName", std::string(r.owner) + "/" + r.name)
                      .set("owner", r.owner)
                      .set("name", r.name)
                      .set("private", r.priv)
                      .set("defaultBranch", "main"));
  }
  c.ok(cursorList(c, all));
}
void ghBranches(Ctx& c) {
  needRole(c, ROLE_DEV, "GitHub discovery");
  std::string owner = c.param("owner"), repo = c.param("repo");
  bool found = false;
  for (auto& r : kRepos) if (owner == r.owner && repo == r.name) found = true;
  if (!found) fail(404, "repository '" + owner + "/" + repo + "' not found");
  std::vector<Json> all;
  for (const char* b : {"main", "develop", "release/2025-q3", "feature/new-cubes"})
    all.push_back(Json::object().set("name", b).set("protected", std::string(b) == "main").set("commitSha", sha256Hex(owner + repo + b).substr(0, 40)));
  c.ok(cursorList(c, all));
}
}  // namespace

void regIntegrations() {
  const char* names[][3] = {{"OauthIntegration", "oauthIntegration", "Integrations"},
                            {"UserOauthToken", "userOauthToken", "Integrations"},
                            {"OidcTokenConfig", "oidcTokenConfig", "Integrations"}};
  for (int i = 0; i < 3; i++) {
    const Kind* k = &kinds[i];
    std::string N = names[i][0];
    route("GET", k->path, [k](Ctx& c) { doList(c, *k); })
        .op("list" + N + "s", "List " + k->what + "s", names[i][2])
        .qp("search", SCH_STR)
        .qp("first", SCH_FIRST)
        .qp("after", SCH_CURSOR)
        .resp(200, "list:" + N);
    route("POST", k->path, [k](Ctx& c) { doCreate(c, *k); })
        .op("create" + N, "Create a " + k->what, names[i][2])
        .body(fieldSchema(*k->fields, true))
        .resp(201, "data:" + N);
    route("GET", k->path + "/{id}", [k](Ctx& c) { doGet(c, *k); })
        .op("get" + N, "Get a " + k->what, names[i][2])
        .pp("id", SCH_ID)
        .resp(200, "data:" + N);
    route("PATCH", k->path + "/{id}", [k](Ctx& c) { doPatch(c, *k); })
        .op("update" + N, "Update a " + k->what + " (partial)", names[i][2])
        .pp("id", SCH_ID)
        .body(fieldSchema(*k->fields, false))
        .resp(200, "data:" + N);
    route("DELETE", k->path + "/{id}", [k](Ctx& c) { doDelete(c, *k); })
        .op("delete" + N, "Delete a " + k->what, names[i][2])
        .pp("id", SCH_ID)
        .resp(200, "#Empty");
  }
  route("GET", "/api/v1/github/status", ghStatus).op("getGithubStatus", "GitHub app connection status", "GitHub").resp(200, "data:GithubStatus");
  route("GET", "/api/v1/github/installations", ghInstallations)
      .op("listGithubInstallations", "GitHub app installations", "GitHub")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:GithubInstallation");
  route("GET", "/api/v1/github/installations/{installationId}/repositories", ghRepos)
      .op("listGithubRepositories", "Repositories of an installation", "GitHub")
      .pp("installationId", SCH_ID)
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:GithubRepository");
  route("GET", "/api/v1/github/repositories/{owner}/{repo}/branches", ghBranches)
      .op("listGithubBranches", "Branches of a repository", "GitHub")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:GithubBranch");
}

// Router, authentication, request context helpers, pagination, access rules, serializers.
#include "app.hpp"
#include <algorithm>
#include <cstdio>
#include <exception>

Store S;
std::mutex g_mu;
const int kDefaultFirst = 9;
const int kMaxPage = 75;

const char* SCH_CURSOR = R"J({"type":"string","description":"opaque cursor (endCursor of the previous page)"})J";
const char* SCH_FIRST = R"J({"type":"integer","minimum":1,"description":"page size; default 9, values above 75 are clamped to 75"})J";
const char* SCH_STR = R"({"type":"string"})";
const char* SCH_ID = R"({"type":"integer","format":"int64"})";
const char* SCH_DEPID = R"({"type":"string","pattern":"^[0-9]+$"})";

std::string roleName(int r) {
  switch (r) {
    case ROLE_ADMIN: return "admin";
    case ROLE_DEV: return "developer";
    case ROLE_AIBI: return "ai-bi-user";
    default: return "viewer";
  }
}
int roleFromName(const std::string& s) {
  std::string l = lower(s);
  if (l == "admin") return ROLE_ADMIN;
  if (l == "developer") return ROLE_DEV;
  if (l == "ai-bi-user") return ROLE_AIBI;
  if (l == "viewer") return ROLE_VIEWER;
  return -1;
}

// ---------------------------------------------------------------- errors
std::string kindFor(int s) {
  switch (s) {
    case 400: return "BadRequest";
    case 401: return "Unauthenticated";
    case 402: return "FeatureNotInPlan";
    case 403: return "Forbidden";
    case 404: return "NotFound";
    case 405: return "MethodNotAllowed";
    case 409: return "Conflict";
    case 413: return "PayloadTooLarge";
    case 422: return "ValidationFailed";
    case 423: return "BranchLocked";
    default: return "Error";
  }
}
void fail(int status, const std::string& msg, const std::string& kind) { throw ApiError(status, msg, kind); }

static void writeJson(Response& rs, int status, const Json& j) {
  rs.status = status;
  rs.headers.push_back({"content-Type", "application/json; charset=\"utf-8\""});
  rs.body = j.dump(2);
}
static void writeError(Request& rq, Response& rs, int status, const std::string& msg, const std::string& kind, const Json& extra) {
  Json e = Json::object();
  e.set("error", msg);
  e.set("kind", kind.empty() ? kindFor(status) : kind);
  e.set("instance", rq.rawPath.empty() ? std::string("/") : rq.rawPath);
  if (extra.isObj()) for (auto& kv : extra.o) e.set(kv.first, kv.second);
  writeJson(rs, status, e);
}

// ---------------------------------------------------------------- context
User& Ctx::me() {
  auto it = S.users.find(uid);
  if (it == S.users.end()) fail(401, "the user of this key no longer exists");
  return it->second;
}
std::string Ctx::param(const std::string& k) const {
  auto it = params.find(k);
  return it == params.end() ? "" : it->second;
}
std::optional<std::string> Ctx::q(const std::string& k) const {
  std::optional<std::string> r;
  for (auto& kv : req.query) {
    if (kv.first != k) continue;
    if (r && *r != kv.second) fail(400, "query parameter '" + k + "' is repeated with different values");
    r = kv.second;
  }
  return r;
}
std::vector<std::string> Ctx::qAll(const std::string& k) const {
  std::vector<std::string> r;
  for (auto& kv : req.query) if (kv.first == k) r.push_back(kv.second);
  return r;
}
std::optional<int64_t> Ctx::qInt(const std::string& k, int64_t min, int64_t max) const {
  auto v = q(k);
  if (!v) return std::nullopt;
  int64_t n;
  if (!parseI64(*v, n)) fail(400, "query parameter '" + k + "' must be an integer");
  if (n < min) fail(400, "query parameter '" + k + "' must be at least " + std::to_string(min));
  if (n > max) fail(400, "query parameter '" + k + "' must be at most " + std::to_string(max));
  return n;
}
std::optional<bool> Ctx::qBool(const std::string& k) const {
  auto v = q(k);
  if (!v) return std::nullopt;
  std::string l = lower(*v);
  if (l == "true" || l == "1") return true;
  if (l == "false" || l == "0") return false;
  fail(400, "query parameter '" + k + "' must be true or false");
}
Json& Ctx::body(bool required) {
  if (bodyParsed) return bodyJson;
  bodyParsed = true;
  std::string t = trim(req.body);
  if (t.empty()) {
    if (required) fail(400, "a JSON request body is required");
    bodyJson = Json::object();
    return bodyJson;
  }
  std::string err;
  Json j;
  if (!parseJson(req.body, j, err)) fail(400, "malformed JSON body: " + err);
  if (!j.isObj()) fail(400, "the request body must be a JSON object");
  bodyJson = std::move(j);
  return bodyJson;
}
void Ctx::json(int status, const Json& j) { writeJson(res, status, j); }
void Ctx::created(const Json& j, const std::string& location) {
  writeJson(res, 201, j);
  if (!location.empty()) res.headers.push_back({"content-Location", location});
}

// ---------------------------------------------------------------- body helpers
std::optional<std::string> optStr(const Json& b, const std::string& k, size_t maxLen, bool nonEmpty) {
  const Json* v = b.get(k);
  if (!v || v->isNull()) return std::nullopt;
  if (!v->isStr()) fail(400, "field '" + k + "' must be a string");
  if (v->s.size() > maxLen) fail(422, "field '" + k + "' is longer than " + std::to_string(maxLen) + " characters");
  if (nonEmpty && trim(v->s).empty()) fail(422, "field '" + k + "' must not be empty");
  return v->s;
}
std::string reqStr(const Json& b, const std::string& k, size_t maxLen) {
  const Json* v = b.get(k);
  if (!v || v->isNull()) fail(400, "field '" + k + "' is required");
  auto s = optStr(b, k, maxLen, true);
  return *s;
}
std::optional<int64_t> optInt(const Json& b, const std::string& k, int64_t min, int64_t max) {
  const Json* v = b.get(k);
  if (!v || v->isNull()) return std::nullopt;
  if (!v->isInt()) fail(400, "field '" + k + "' must be an integer");
  int64_t n = v->asInt();
  if (n < min) fail(422, "field '" + k + "' must be at least " + std::to_string(min));
  if (n > max) fail(422, "field '" + k + "' must be at most " + std::to_string(max));
  return n;
}
std::optional<bool> optBool(const Json& b, const std::string& k) {
  const Json* v = b.get(k);
  if (!v || v->isNull()) return std::nullopt;
  if (!v->isBool()) fail(400, "field '" + k + "' must be a boolean");
  return v->b;
}
void needEnum(const std::string& field, const std::string& v, const std::vector<std::string>& allowed) {
  for (auto& a : allowed) if (a == v) return;
  std::string l;
  for (auto& a : allowed) l += (l.empty() ? "" : ", ") + a;
  fail(422, "field '" + field + "' must be one of: " + l);
}
bool isNullField(const Json& b, const std::string& k) {
  const Json* v = b.get(k);
  return v && v->isNull();
}

// ---------------------------------------------------------------- pagination
CursorPage cursorPage(Ctx& c, size_t total, bool explicitOnly) {
  CursorPage p;
  auto first = c.qInt("first", 1);
  auto after = c.q("after");
  size_t start = 0;
  if (after && !after->empty()) {
    size_t idx;
    if (!readCursor(*after, idx)) fail(400, "query parameter 'after' is not a valid cursor");
    start = std::min(total, idx + 1);
  }
  size_t n;
  if (!first && explicitOnly) n = total;
  else n = (size_t)std::min<int64_t>(first ? *first : kDefaultFirst, kMaxPage);
  p.start = start;
  p.end = std::min(total, start + n);
  p.pageInfo = Json::object();
  p.pageInfo.set("hasNextPage", p.end < total);
  p.pageInfo.set("hasPreviousPage", start > 0);
  p.pageInfo.set("startCursor", p.start < p.end ? Json(makeCursor(p.start)) : Json());
  p.pageInfo.set("endCursor", p.start < p.end ? Json(makeCursor(p.end - 1)) : Json());
  return p;
}
Json cursorList(Ctx& c, const std::vector<Json>& all, bool withCount) {
  CursorPage p = cursorPage(c, all.size());
  Json items = Json::array();
  for (size_t k = p.start; k < p.end; k++) items.push(all[k]);
  Json r = Json::object();
  r.set("items", items);
  r.set("pageInfo", p.pageInfo);
  r.set("data", items);
  if (withCount) r.set("count", (int64_t)all.size());
  return r;
}

// ---------------------------------------------------------------- access
bool hasPerm(const User& u, const std::string& action) {
  if (u.role == ROLE_ADMIN && !u.scopedDeployment) return true;
  for (auto& kv : S.policies) {
    const Policy& p = kv.second;
    if (p.resourceType != "account") continue;
    bool mine = (p.principalType == "user" && p.principalId == u.id) ||
                (p.principalType == "group" && std::find(u.groupIds.begin(), u.groupIds.end(), p.principalId) != u.groupIds.end());
    if (!mine) continue;
    for (auto& a : p.actions) if (a == action) return true;
  }
  return false;
}
void needRole(Ctx& c, int role, const std::string& what) {
  if (c.me().role < role) fail(403, what + " requires the " + roleName(role) + " role or higher");
}
bool canSeeDep(const User& u, const Deployment& d) {
  if (u.scopedDeployment && u.scopedDeployment != d.id) return false;
  if (!d.members.empty() && u.role != ROLE_ADMIN && std::find(d.members.begin(), d.members.end(), u.id) == d.members.end()) return false;
  return true;
}
static bool parseDepId(const std::string& s, int64_t& id) {
  if (s.empty() || s.size() > 18) return false;
  for (char ch : s) if (ch < '0' || ch > '9') return false;
  return parseI64(s, id);
}
Deployment& needDep(Ctx& c, int minRole) {
  int64_t id;
  if (!parseDepId(c.param("deploymentId"), id)) fail(404, "deployment '" + c.param("deploymentId") + "' not found");
  auto it = S.deps.find(id);
  if (it == S.deps.end()) fail(404, "deployment " + std::to_string(id) + " not found");
  User& u = c.me();
  if (!canSeeDep(u, it->second)) fail(403, "this API key has no access to deployment " + std::to_string(id));
  if (u.role < minRole) fail(403, "this operation requires the " + roleName(minRole) + " role or higher");
  return it->second;
}
int64_t parseIdParam(Ctx& c, const std::string& param) {
  int64_t id;
  std::string v = c.param(param);
  if (!parseI64(v, id) || id < 0) fail(404, param + " '" + v + "' not found");
  return id;
}
Item* findItem(int64_t dep, int64_t id) {
  auto it = S.items.find(id);
  if (it == S.items.end() || it->second.dep != dep) return nullptr;
  return &it->second;
}
std::vector<int64_t> folderChain(const Item& it) {
  std::vector<int64_t> r;
  int64_t f = it.folderId;
  int guard = 0;
  while (f && guard++ < 64) {
    auto p = S.items.find(f);
    if (p == S.items.end()) break;
    r.push_back(f);
    f = p->second.folderId;
  }
  return r;
}
int folderDepth(int64_t folderId) {
  if (!folderId) return 0;
  auto it = S.items.find(folderId);
  if (it == S.items.end()) return 0;
  return 1 + (int)folderChain(it->second).size();
}
static int policyLevel(const User& u, int64_t resourceId, bool& found) {
  int best = -1;
  for (auto& kv : S.policies) {
    const Policy& p = kv.second;
    if (p.resourceId != resourceId || (p.resourceType != "folder" && p.resourceType != "workbook")) continue;
    bool mine = (p.principalType == "user" && p.principalId == u.id) ||
                (p.principalType == "group" && std::find(u.groupIds.begin(), u.groupIds.end(), p.principalId) != u.groupIds.end());
    if (!mine) continue;
    for (auto& a : p.actions) {
      int l = a == "Manage" ? LV_MANAGE : a == "Edit" ? LV_EDIT : a == "Read" ? LV_READ : a == "NoAccess" ? LV_NONE : -1;
      if (l > best) best = l;
      if (l == LV_NONE && best < 0) best = 0;
    }
  }
  found = best >= 0;
  return best < 0 ? 0 : best;
}
int rootLevel(const User& u) {
  if (u.role >= ROLE_DEV) return LV_MANAGE;
  if (u.role == ROLE_AIBI) return LV_EDIT;
  return LV_READ;
}
int accessLevel(const User& u, const Item& it0) {
  if (u.role == ROLE_ADMIN) return LV_MANAGE;
  const Item* itp = &it0;
  if (it0.type == "REPORT" && it0.workbookId) {
    auto w = S.items.find(it0.workbookId);
    if (w != S.items.end()) itp = &w->second;
  }
  const Item& it = *itp;
  if (it.ownerId == u.id || it0.ownerId == u.id) return LV_MANAGE;
  std::vector<int64_t> chain = folderChain(it);
  for (int64_t f : chain) {
    auto p = S.items.find(f);
    if (p != S.items.end() && p->second.ownerId == u.id) return LV_MANAGE;
  }
  std::vector<int64_t> nodes;
  nodes.push_back(it.id);
  for (int64_t f : chain) nodes.push_back(f);
  for (int64_t n : nodes) {
    bool found;
    int l = policyLevel(u, n, found);
    if (found) return l;
  }
  if (it.restricted) return LV_NONE;
  for (int64_t f : chain) {
    auto p = S.items.find(f);
    if (p != S.items.end() && p->second.restricted) return LV_NONE;
  }
  return rootLevel(u);
}
int folderLevel(const User& u, int64_t folderId) {
  if (!folderId) return rootLevel(u);
  auto it = S.items.find(folderId);
  if (it == S.items.end()) return LV_NONE;
  return accessLevel(u, it->second);
}
Item& needWsItem(Ctx& c, Deployment& d, const std::string& param, const std::string& type, int minLevel) {
  int64_t id = parseIdParam(c, param);
  Item* it = findItem(d.id, id);
  std::string what = type.empty() ? "item" : lower(type);
  if (!it || (!type.empty() && it->type != type)) fail(404, what + " " + std::to_string(id) + " not found in deployment " + std::to_string(d.id));
  int l = accessLevel(c.me(), *it);
  if (l < LV_READ) fail(403, "no read access to " + what + " " + std::to_string(id));
  if (l < minLevel) fail(403, std::string("this operation needs ") + (minLevel == LV_MANAGE ? "manage" : "edit") + " access to " + what + " " + std::to_string(id));
  return *it;
}

// ---------------------------------------------------------------- serializers
Json ownerJson(int64_t uid) {
  auto it = S.users.find(uid);
  if (it == S.users.end()) return Json();
  Json o = Json::object();
  o.set("id", it->second.id);
  o.set("email", it->second.email);
  o.set("firstName", it->second.firstName.empty() ? Json() : Json(it->second.firstName));
  o.set("picture", it->second.picture.empty() ? Json() : Json(it->second.picture));
  return o;
}
static Json folderPathJson(const Item& it) {
  std::vector<int64_t> chain = folderChain(it);  // containing folder first
  Json arr = Json::array();
  for (size_t k = chain.size(); k-- > 1;) {
    auto f = S.items.find(chain[k]);
    Json e = Json::object();
    e.set("id", chain[k]);
    e.set("name", f->second.name);
    arr.push(e);
  }
  return arr;
}
Json dashboardJson(const Dashboard& d) {
  Json j = Json::object();
  j.set("id", d.id);
  j.set("publicId", d.publicId);
  j.set("deploymentId", d.dep);
  j.set("workbookId", d.workbookId);
  j.set("status", d.status);
  j.set("allowEmbed", d.allowEmbed);
  j.set("config", d.config);
  j.set("versionNumber", d.versionNumber);
  j.set("versionId", d.versionId);
  Json snaps = Json::array();
  for (auto& s : d.snapshots) snaps.push(s);
  j.set("reportSnapshots", snaps);
  j.set("createdBy", d.createdBy ? Json(d.createdBy) : Json());
  j.set("title", d.title.empty() ? Json() : Json(d.title));
  j.set("description", d.description.empty() ? Json() : Json(d.description));
  j.set("fromSharedWorkspace", d.fromShared);
  j.set("restrictDataDownload", d.restrictDownload);
  j.set("useBoardDashboards", d.useBoard);
  return j;
}
Json workbookJson(const Item& it, const User& viewer) {
  Json j = Json::object();
  j.set("id", it.id);
  j.set("deploymentId", it.dep);
  j.set("name", it.name);
  j.set("type", it.type);
  j.set("meta", it.meta);
  j.set("calculatedFields", it.calc);
  j.set("createdAt", it.dateOnly ? fmtDate(it.createdAt) : fmtTime(it.createdAt));
  j.set("updatedAt", it.dateOnly ? fmtDate(it.updatedAt) : fmtTime(it.updatedAt));
  j.set("createdBy", it.ownerId);
  j.set("userId", it.ownerId);
  j.set("user", ownerJson(it.ownerId));
  j.set("folderId", it.folderId ? Json(it.folderId) : Json());
  j.set("folderPath", folderPathJson(it));
  j.set("isFavorite", it.type == "WORKBOOK" ? Json(it.favoritedBy.count(viewer.id) > 0) : Json());
  j.set("slug", it.hasSlug ? Json(it.slug) : Json());
  j.set("dashboardDraft", it.draft);
  const Dashboard* d = nullptr;
  if (it.dashboardId) {
    auto p = S.dashboards.find(it.dashboardId);
    if (p != S.dashboards.end()) d = &p->second;
  }
  j.set("dashboardPublished", d ? d->config : Json());
  j.set("publishedDashboard", d ? dashboardJson(*d) : Json());
  if (it.type == "REPORT") {
    j.set("workbookId", it.workbookId);
    j.set("publicId", it.publicId);
    j.set("kind", it.kind.empty() ? Json() : Json(it.kind));
  } else if (it.type == "FOLDER") {
    j.set("parentId", it.folderId ? Json(it.folderId) : Json());
    j.set("position", it.position);
  }
  return j;
}
Json folderJson(const Item& it, const User& viewer) {
  (void)viewer;
  Json j = Json::object();
  j.set("id", it.id);
  j.set("name", it.name);
  j.set("position", it.position);
  j.set("deploymentId", it.dep);
  j.set("createdAt", fmtTime(it.createdAt));
  j.set("updatedAt", fmtTime(it.updatedAt));
  j.set("type", "FOLDER");
  j.set("parentId", it.folderId ? Json(it.folderId) : Json());
  j.set("createdBy", it.ownerId);
  j.set("updatedBy", it.updatedBy ? Json(it.updatedBy) : Json());
  j.set("user", ownerJson(it.ownerId));
  j.set("folderPath", folderPathJson(it));
  return j;
}
static std::string imageRef(const std::string& v) { return "docker.io/cubejs/cube:v" + v; }
Json deploymentListItem(const Deployment& d) {
  Json j = Json::object();
  j.set("id", std::to_string(d.id));
  j.set("name", d.name);
  j.set("created_at", fmtTime(d.createdAt));
  j.set("updated_at", fmtTime(d.updatedAt));
  j.set("cloud_provider", d.cloudProvider);
  j.set("region", d.region);
  return j;
}
Json deploymentFull(const Deployment& d) {
  Json j = Json::object();
  j.set("id", std::to_string(d.id));
  j.set("name", d.name);
  j.set("created_at", fmtTime(d.createdAt));
  j.set("updated_at", fmtTime(d.updatedAt));
  j.set("cloudProvider", d.cloudProvider);
  j.set("region", d.region);
  j.set("releaseChannel", d.releaseChannel);
  j.set("releaseChannelVersion", imageRef(d.version));
  j.set("version", d.version);
  j.set("releaseChannelVersionHold", d.hold);
  j.set("image", imageRef(d.version));
  j.set("template", d.tmpl);
  Json tv = Json::object();
  for (auto& kv : d.templateVariables.o) if (!isSecretName(kv.first)) tv.set(kv.first, kv.second);
  j.set("templateVariables", tv);
  j.set("defaultLaunchpadViewGroup", d.defaultLaunchpadViewGroup);
  j.set("launchpadTabs", d.launchpadTabs);
  j.set("creationMethod", d.creationMethod);
  j.set("deployMode", d.deployMode);
  static const char* steps[] = {"repository", "database", "schema", "build", "ready"};
  j.set("creationStep", steps[std::max(0, std::min(4, d.creationStep))]);
  j.set("workbookLimit", d.workbookLimit ? Json(d.workbookLimit) : Json());
  return j;
}
void touch(Item& it, const User& u) {
  it.updatedAt = nowSec();
  it.updatedBy = u.id;
  it.dateOnly = false;
}
bool isSecretName(const std::string& n) {
  std::string u = upper(n);
  for (const char* w : {"PASS", "SECRET", "TOKEN", "KEY", "CREDENTIAL"}) if (u.find(w) != std::string::npos) return true;
  return false;
}
int countWorkbooks(int64_t dep) {
  int n = 0;
  for (auto& kv : S.items) if (kv.second.dep == dep && kv.second.type == "WORKBOOK") n++;
  return n;
}
void deleteWorkbookCascade(int64_t id) {
  auto it = S.items.find(id);
  if (it == S.items.end()) return;
  if (it->second.dashboardId) S.dashboards.erase(it->second.dashboardId);
  for (auto p = S.items.begin(); p != S.items.end();) {
    if (p->second.type == "REPORT" && p->second.workbookId == id) p = S.items.erase(p);
    else ++p;
  }
  for (auto p = S.policies.begin(); p != S.policies.end();) {
    if (p->second.resourceType == "workbook" && p->second.resourceId == id) p = S.policies.erase(p);
    else ++p;
  }
  S.items.erase(id);
}
std::string newPublicId() { return randBase62(22); }

// ---------------------------------------------------------------- dashboard validation
static void vErr(const std::string& path, const std::string& m) { fail(422, path + ": " + m); }
static void vNullOrObj(const Json& j, const std::string& p) { if (!j.isNull() && !j.isObj()) vErr(p, "must be an object or null"); }
static void vNullOrStr(const Json& j, const std::string& p) { if (!j.isNull() && !j.isStr()) vErr(p, "must be a string or null"); }
static void vNullOrInt(const Json& j, const std::string& p) { if (!j.isNull() && !j.isInt()) vErr(p, "must be an integer or null"); }
static void vPosition(const Json& j, const std::string& p) {
  if (!j.isObj()) vErr(p, "must be an object with x, y, w, h");
  for (const char* k : {"x", "y", "w", "h"}) {
    const Json* v = j.get(k);
    if (!v || !v->isInt()) vErr(p + "." + k, "is required and must be an integer");
  }
}
static void vSizes(const Json& j, const std::string& p) {
  if (j.isNull()) return;
  if (!j.isObj()) vErr(p, "must be an object");
  for (auto& kv : j.o) {
    if (kv.first != "lg" && kv.first != "md" && kv.first != "sm" && kv.first != "xs" && kv.first != "xxs") continue;
    vNullOrInt(kv.second, p + "." + kv.first);
  }
}
void validateDashboardConfig(Json& cfg, const std::string& where) {
  if (cfg.isNull()) return;
  if (!cfg.isObj()) vErr(where, "must be an object or null");
  if (Json* k = cfg.get("kind")) {
    if (!k->isNull() && !(k->isStr() && (k->s == "CLASSIC" || k->s == "APP"))) vErr(where + ".kind", "must be CLASSIC, APP or null");
  }
  if (Json* t = cfg.get("title")) vNullOrStr(*t, where + ".title");
  if (Json* t = cfg.get("description")) vNullOrStr(*t, where + ".description");
  if (Json* t = cfg.get("settings")) vNullOrObj(*t, where + ".settings");
  if (Json* t = cfg.get("theme")) vNullOrObj(*t, where + ".theme");
  if (Json* w = cfg.get("widgets")) {
    if (!w->isNull()) {
      if (!w->isArr()) vErr(where + ".widgets", "must be an array or null");
      static const std::vector<std::string> types = {"CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"};
      for (size_t n = 0; n < w->a.size(); n++) {
        Json& x = w->a[n];
        std::string p = where + ".widgets[" + std::to_string(n) + "]";
        if (!x.isObj()) vErr(p, "must be an object");
        const Json* id = x.get("id");
        if (!id || !id->isStr() || id->s.empty()) vErr(p + ".id", "is required and must be a non-empty string");
        Json* ty = x.get("type");
        if (!ty || !ty->isStr()) vErr(p + ".type", "is required and must be a string");
        if (ty->s == "TABS_CONTAINER") {
          ty->s = "CONTAINER";
          Json* c = x.get("config");
          if (!c || c->isNull()) { x.set("config", Json::object()); c = x.get("config"); }
          if (!c->isObj()) vErr(p + ".config", "must be an object or null");
          c->set("layout", "tabs");
        } else if (std::find(types.begin(), types.end(), ty->s) == types.end()) vErr(p + ".type", "unknown widget type '" + ty->s + "'");
        const Json* pos = x.get("position");
        if (!pos) vErr(p + ".position", "is required");
        vPosition(*pos, p + ".position");
        if (const Json* rl = x.get("responsiveLayouts")) {
          if (!rl->isNull()) {
            if (!rl->isObj()) vErr(p + ".responsiveLayouts", "must be an object or null");
            for (auto& kv : rl->o) if (!kv.second.isNull()) vPosition(kv.second, p + ".responsiveLayouts." + kv.first);
          }
        }
        if (const Json* c = x.get("config")) vNullOrObj(*c, p + ".config");
        if (const Json* s = x.get("style")) vNullOrObj(*s, p + ".style");
      }
    }
  }
  if (Json* l = cfg.get("layout")) {
    if (!l->isNull()) {
      if (!l->isObj()) vErr(where + ".layout", "must be an object or null");
      if (Json* b = l->get("breakpoints")) vSizes(*b, where + ".layout.breakpoints");
      if (Json* b = l->get("cols")) vSizes(*b, where + ".layout.cols");
      for (const char* k : {"containerPadding", "margin"}) {
        if (Json* a = l->get(k)) {
          if (a->isNull()) continue;
          if (!a->isArr()) vErr(where + ".layout." + k, "must be an array of integers");
          for (auto& e : a->a) if (!e.isInt()) vErr(where + ".layout." + k, "must be an array of integers");
        }
      }
      if (Json* r = l->get("rowHeight")) vNullOrInt(*r, where + ".layout.rowHeight");
    }
  }
  if (Json* app = cfg.get("app")) {
    if (!app->isNull()) {
      if (!app->isObj()) vErr(where + ".app", "must be an object or null");
      if (Json* e = app->get("entry")) {
        vNullOrStr(*e, where + ".app.entry");
        if (e->isStr() && e->s.size() > 255) vErr(where + ".app.entry", "must be at most 255 characters");
      }
      if (Json* h = app->get("html")) vNullOrStr(*h, where + ".app.html");
      if (Json* f = app->get("files")) {
        if (!f->isNull()) {
          if (!f->isObj()) vErr(where + ".app.files", "must be an object of strings");
          for (auto& kv : f->o) if (!kv.second.isStr()) vErr(where + ".app.files." + kv.first, "must be a string");
        }
      }
      if (Json* m = app->get("manifest")) {
        if (!m->isNull()) {
          if (!m->isObj()) vErr(where + ".app.manifest", "must be an object or null");
          if (Json* d = m->get("dependencies")) {
            if (!d->isNull()) {
              if (!d->isObj()) vErr(where + ".app.manifest.dependencies", "must be an object of strings");
              for (auto& kv : d->o) if (!kv.second.isStr()) vErr(where + ".app.manifest.dependencies." + kv.first, "must be a string");
            }
          }
          if (Json* v = m->get("version")) vNullOrInt(*v, where + ".app.manifest.version");
        }
      }
    }
  }
}

// ---------------------------------------------------------------- routing
static std::vector<Route>& routes() {
  static std::vector<Route> r;
  return r;
}
const std::vector<Route>& allRoutes() { return routes(); }
Route& route(const std::string& method, const std::string& path, Handler h) {
  Route r;
  r.method = method;
  r.path = path;
  std::vector<std::string> parts = split(path, '/');
  parts.erase(parts.begin());
  r.segs = parts;
  r.h = std::move(h);
  for (auto& s : parts)
    if (s.size() > 2 && s.front() == '{') r.params.push_back({s.substr(1, s.size() - 2), "path", SCH_STR, "", true});
  routes().push_back(std::move(r));
  return routes().back();
}

static bool matchRoute(const Route& r, const std::vector<std::string>& segs, std::map<std::string, std::string>* out, int& score) {
  if (r.segs.size() != segs.size()) return false;
  score = 0;
  for (size_t k = 0; k < segs.size(); k++) {
    const std::string& p = r.segs[k];
    bool isParam = p.size() > 2 && p.front() == '{';
    score <<= 1;
    if (isParam) {
      if (segs[k].empty()) return false;
      if (out) (*out)[p.substr(1, p.size() - 2)] = segs[k];
    } else {
      if (p != segs[k]) return false;
      score |= 1;
    }
  }
  return true;
}

// best matching routes for a path (all methods sharing the best pattern)
static std::vector<const Route*> findPath(const std::vector<std::string>& segs) {
  int best = -1;
  std::string bestPath;
  for (auto& r : routes()) {
    int sc;
    if (matchRoute(r, segs, nullptr, sc) && sc > best) { best = sc; bestPath = r.path; }
  }
  std::vector<const Route*> out;
  if (best < 0) return out;
  // every route whose pattern matches with the same score (same shape)
  for (auto& r : routes()) {
    int sc;
    if (matchRoute(r, segs, nullptr, sc) && sc == best) out.push_back(&r);
  }
  return out;
}

static bool authenticate(Request& rq, Response& rs, int64_t& uid) {
  std::string h = rq.header("authorization");
  auto deny = [&](int st, const std::string& msg, const std::string& challenge) {
    writeError(rq, rs, st, msg, "", Json());
    if (!challenge.empty()) rs.headers.push_back({"www-Authenticate", challenge});
  };
  const std::string realm = "Bearer realm=\"analytics-platform\"";
  if (h.empty() || !rq.hasHeader("authorization")) {
    deny(401, "missing credentials: send 'Authorization: Bearer <API key>'", realm);
    return false;
  }
  size_t sp = h.find(' ');
  std::string scheme = lower(sp == std::string::npos ? h : h.substr(0, sp));
  std::string tok = sp == std::string::npos ? "" : trim(h.substr(sp + 1));
  if ((scheme != "bearer" && scheme != "api-key") || tok.empty() || tok.find(' ') != std::string::npos) {
    deny(401, "malformed Authorization header: expected 'Bearer <API key>'", realm + ", error=\"invalid_request\"");
    return false;
  }
  std::lock_guard<std::mutex> l(g_mu);
  for (auto& kv : S.users) {
    if (!kv.second.apiKey.empty() && kv.second.apiKey == tok) {
      if (!kv.second.active) {
        deny(401, "the user owning this API key is deactivated", realm + ", error=\"invalid_token\", error_description=\"user deactivated\"");
        return false;
      }
      uid = kv.first;
      return true;
    }
  }
  // metadata JWT issued by E3?
  std::vector<std::string> parts = split(tok, '.');
  if (parts.size() == 3) {
    std::string sig = b64url(hmacSha384(S.jwtSecret, parts[0] + "." + parts[1]));
    if (sig == parts[2]) {
      std::string payload;
      Json pj;
      std::string err;
      if (b64urlDecode(parts[1], payload) && parseJson(payload, pj, err) && pj.get("exp") && pj.get("exp")->isNum() &&
          pj.get("exp")->asInt() < nowSec()) {
        deny(401, "the token has expired", realm + ", error=\"invalid_token\", error_description=\"expired\"");
        return false;
      }
      writeError(rq, rs, 403, "metadata tokens are only valid on metadata endpoints (data sources, entities)", "TokenScope", Json());
      return false;
    }
  }
  deny(401, "invalid API key", realm + ", error=\"invalid_token\"");
  return false;
}

static std::string rebuildPath(const std::vector<std::string>& rawSegs, bool trailing) {
  std::string p;
  for (auto& s : rawSegs) if (!s.empty()) p += "/" + s;
  if (p.empty() || trailing) p += "/";
  return p;
}

void dispatch(Request& rq, Response& rs) {
  int64_t t0 = nowMs();
  std::string target = rq.target;
  if (target.compare(0, 7, "http://") == 0 || target.compare(0, 8, "https://") == 0) {
    size_t s = target.find('/', target.find("//") + 2);
    target = s == std::string::npos ? "/" : target.substr(s);
  }
  size_t hash = target.find('#');
  if (hash != std::string::npos) target = target.substr(0, hash);
  size_t qm = target.find('?');
  rq.rawPath = target.substr(0, qm);
  rq.rawQuery = qm == std::string::npos ? "" : target.substr(qm + 1);
  try {
    if (rq.rawPath.empty() || rq.rawPath[0] != '/') fail(400, "request target must be an absolute path");
    std::vector<std::string> raw = split(rq.rawPath, '/');
    raw.erase(raw.begin());
    for (auto& s : raw) {
      std::string d;
      if (!percentDecode(s, d, false)) fail(400, "invalid percent-encoding in the path");
      if (!validUtf8(d)) fail(400, "the path is not valid UTF-8");
      rq.segs.push_back(d);
    }
    if (!rq.rawQuery.empty()) {
      for (auto& part : split(rq.rawQuery, '&')) {
        if (part.empty()) continue;
        size_t eq = part.find('=');
        std::string k, v;
        if (!percentDecode(part.substr(0, eq), k, true) || (eq != std::string::npos && !percentDecode(part.substr(eq + 1), v, true)))
          fail(400, "invalid percent-encoding in the query string");
        if (!validUtf8(k) || !validUtf8(v)) fail(400, "the query string is not valid UTF-8");
        rq.query.emplace_back(k, v);
      }
    }
    std::vector<const Route*> cands = findPath(rq.segs);
    if (cands.empty()) {
      // redirect other spellings (trailing slash, repeated slashes) to the documented one
      std::vector<std::string> collapsed;
      std::vector<std::string> rawCollapsed;
      for (size_t k = 0; k < rq.segs.size(); k++)
        if (!rq.segs[k].empty()) { collapsed.push_back(rq.segs[k]); rawCollapsed.push_back(raw[k]); }
      for (int trailing = 0; trailing < 2; trailing++) {
        std::vector<std::string> alt = collapsed;
        if (trailing) alt.push_back("");
        if (alt == rq.segs) continue;
        if (!findPath(alt).empty()) {
          std::string loc = rebuildPath(rawCollapsed, trailing);
          if (!rq.rawQuery.empty()) loc += "?" + rq.rawQuery;
          writeError(rq, rs, 307, "this resource is served at " + loc, "Redirect", Json());
          rs.headers.push_back({"location", loc});
          throw 0;
        }
      }
      fail(404, "no route for " + rq.rawPath);
    }
    int64_t uid = 0;
    if (!authenticate(rq, rs, uid)) throw 0;
    const Route* r = nullptr;
    for (auto* c : cands) if (c->method == rq.method) r = c;
    if (!r) {
      std::string allow;
      for (auto* c : cands) allow += (allow.empty() ? "" : ", ") + c->method;
      writeError(rq, rs, 405, "method " + rq.method + " is not allowed here; allowed: " + allow, "", Json());
      rs.headers.push_back({"allow", allow});
      throw 0;
    }
    if (rq.badEncoding) fail(400, "invalid encoding");
    Ctx c(rq, rs);
    int sc;
    matchRoute(*r, rq.segs, &c.params, sc);
    c.uid = uid;
    c.isBuild = r->path.compare(0, 6, "/build") == 0;
    if (r->selfLock) r->h(c);
    else {
      std::lock_guard<std::mutex> l(g_mu);
      r->h(c);
    }
  } catch (ApiError& e) {
    rs = Response();
    writeError(rq, rs, e.status, e.msg, e.kind, e.extra);
  } catch (int) {
    // response already written
  } catch (std::exception& e) {
    rs = Response();
    writeError(rq, rs, 400, std::string("the request could not be processed: ") + e.what(), "Unprocessable", Json());
  } catch (...) {
    rs = Response();
    writeError(rq, rs, 400, "the request could not be processed", "Unprocessable", Json());
  }
  fprintf(stderr, "%s %s %s -> %d (%lld ms)\n", rq.remote.c_str(), rq.method.c_str(), rq.target.substr(0, 300).c_str(), rs.status,
          (long long)(nowMs() - t0));
}

// Shared declarations: store model, request context, errors, routing and helpers.
#pragma once
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include "http.hpp"
#include "json.hpp"
#include "util.hpp"

// ---------------------------------------------------------------- roles
enum Role { ROLE_VIEWER = 1, ROLE_AIBI = 2, ROLE_DEV = 3, ROLE_ADMIN = 4 };
std::string roleName(int r);
int roleFromName(const std::string& s);  // -1 when unknown

// access levels on workspace items
enum Level { LV_NONE = 0, LV_READ = 1, LV_EDIT = 2, LV_MANAGE = 3 };

// ---------------------------------------------------------------- model
struct User {
  int64_t id = 0;
  std::string email, firstName, lastName, picture;
  int role = ROLE_VIEWER;
  bool active = true;
  int64_t createdAt = 0, lastLoginAt = 0, updatedAt = 0;
  bool creatorMode = false, sharedWorkspace = false;
  int64_t scopedDeployment = 0;  // 0 = every deployment
  std::string apiKey;            // empty = no key
  std::vector<int64_t> groupIds;
};

struct Group {
  int64_t id = 0;
  std::string name, description;
  std::vector<int64_t> memberIds;
  int64_t createdAt = 0, updatedAt = 0;
};

struct Policy {
  int64_t id = 0;
  std::string name;
  std::string principalType;  // user | group
  int64_t principalId = 0;
  std::string resourceType;   // account | deployment | folder | workbook
  int64_t resourceId = 0;
  std::vector<std::string> actions;
  int64_t createdAt = 0;
};

struct EnvVar {
  std::string name, value;
  int64_t updatedAt = 0;
};

struct Deployment {
  int64_t id = 0;
  std::string name;
  int64_t createdAt = 0, updatedAt = 0, ownerId = 0;
  std::string cloudProvider = "saas", region = "aws-us-east-1", releaseChannel = "latest", version;
  bool hold = false;
  std::string tmpl = "default";
  Json templateVariables = Json::object();
  Json defaultLaunchpadViewGroup;  // null
  Json launchpadTabs = Json::array();
  std::string creationMethod = "github", deployMode = "git";
  int workbookLimit = 0;          // 0 = no limit
  std::vector<int64_t> members;   // empty = all non-scoped users
  int creationStep = 4;           // index into steps; last = ready
  std::vector<std::string> history;  // versions the account has run before
  std::vector<EnvVar> envVars;
  std::string githubRepo, githubBranch;
  std::string dbName;
};

struct Branch {
  int64_t id = 0, dep = 0;
  std::string name, parent, lastHash, kind;  // kind: production | shared | personal
  int64_t ownerId = 0;
  bool staging = false, devMode = false;
  std::map<std::string, std::string> files, committed;
  int64_t createdAt = 0, buildAt = 0;
  std::string buildResult = "deployed";
  std::map<std::string, std::string> envIds;  // environment type -> id
  int64_t envSince = 0;
};

struct Placement {
  std::string placementId, externalWorkbookId, sheetName, anchorCell;
  int64_t createdAt = 0, lastRefreshedAt = 0, createdBy = 0;
  int refreshCount = 0;
};

struct Item {
  int64_t id = 0, dep = 0;
  std::string type;  // FOLDER | WORKBOOK | REPORT
  std::string name;
  Json meta = Json::object(), calc = Json::object();
  int64_t createdAt = 0, updatedAt = 0;
  bool dateOnly = false;  // seeded imports render createdAt/updatedAt as dates until changed
  int64_t ownerId = 0, folderId = 0, updatedBy = 0;
  std::string slug;
  bool hasSlug = false;
  Json draft;             // DashboardConfig or null
  int64_t dashboardId = 0;
  bool restricted = false;
  int position = 0;
  // report fields
  int64_t workbookId = 0;
  std::string publicId, kind, sqlQuery, pythonCode, title, description;
  Json spec;
  int64_t lastViewedAt = 0;
  std::vector<Placement> placements;
  // embed access (workbooks)
  std::string embedAll = "none";
  std::map<int64_t, std::string> embedTenants;
  std::set<int64_t> favoritedBy;
};

struct Dashboard {
  int64_t id = 0, dep = 0, workbookId = 0;
  std::string publicId, status = "published";
  bool allowEmbed = false;
  Json config = Json::object();
  int versionNumber = 1;
  int64_t versionId = 0;
  std::vector<Json> snapshots;
  int64_t createdBy = 0;
  std::string title, description;
  bool fromShared = false, restrictDownload = false, useBoard = false;
  int64_t createdAt = 0;
};

struct AuditEvent {
  int64_t id = 0, at = 0, dep = 0;
  std::string email, event, ip;
  Json attrs = Json::object();
};

struct DbtJob {
  std::string id;
  int64_t dep = 0;
  std::string branchName, ref, trigger = "api";
  int64_t createdMs = 0, cancelledMs = 0, createdBy = 0;
  bool fail = false;
};

struct Upload {
  std::string id;
  int64_t dep = 0, createdAt = 0, createdBy = 0;
  std::string branchName;
  std::map<std::string, std::string> files;
  bool finished = false;
};

// generic JSON-record collection for E14 resources with loose shapes
struct Coll {
  std::map<int64_t, Json> rows;
  std::map<int64_t, std::map<std::string, std::string>> secrets;
};

struct Store {
  std::map<int64_t, User> users;
  std::map<int64_t, Group> groups;
  std::map<int64_t, Policy> policies;
  std::map<int64_t, Deployment> deps;
  std::map<int64_t, Branch> branches;
  std::map<int64_t, Item> items;
  std::map<int64_t, Dashboard> dashboards;
  std::vector<AuditEvent> audit;
  std::map<std::string, DbtJob> dbt;
  std::map<std::string, Upload> uploads;
  Json tenantSettings = Json::object();
  Coll embedTenants, embedUsers, embedGroups, userAttributes, oauthIntegrations, userTokens, oidcConfigs, notifications;
  std::map<int64_t, std::map<int64_t, Json>> attrValues;  // userId -> attributeId -> value
  std::string jwtSecret;
  int64_t nextWs = 4294967401LL;  // workspace ids: one global sequence, step 3
  int64_t nextSmall = 70001;      // users, groups, policies, branches, E14 records
  int64_t nextDep = 48291;
  int64_t nextAudit = 1;
  int64_t wsId() { int64_t v = nextWs; nextWs += 3; return v; }
  int64_t smallId() { return nextSmall++; }
};

extern Store S;
extern std::mutex g_mu;

void seedStore();
void audit(const User* u, int64_t dep, const std::string& event, Json attrs);

// ---------------------------------------------------------------- errors
struct ApiError {
  int status;
  std::string msg, kind;
  Json extra;
  ApiError(int s, std::string m, std::string k = "", Json x = Json()) : status(s), msg(std::move(m)), kind(std::move(k)), extra(std::move(x)) {}
};
[[noreturn]] void fail(int status, const std::string& msg, const std::string& kind = "");
std::string kindFor(int status);

// ---------------------------------------------------------------- context
struct Ctx {
  Request& req;
  Response& res;
  std::map<std::string, std::string> params;
  int64_t uid = 0;
  bool bodyParsed = false;
  Json bodyJson;
  bool isBuild = false;  // /build/api/v1 prefix

  Ctx(Request& r, Response& s) : req(r), res(s) {}
  User& me();
  std::string param(const std::string& k) const;
  // query: identical repeats are fine, conflicting repeats -> 400
  std::optional<std::string> q(const std::string& k) const;
  std::vector<std::string> qAll(const std::string& k) const;
  std::optional<int64_t> qInt(const std::string& k, int64_t min, int64_t max = INT64_MAX) const;
  std::optional<bool> qBool(const std::string& k) const;
  Json& body(bool required);  // object body; {} when empty and not required
  void json(int status, const Json& j);
  void ok(const Json& j) { json(200, j); }
  void created(const Json& j, const std::string& location);
};

// ---------------------------------------------------------------- body field helpers (throw 400/422)
std::optional<std::string> optStr(const Json& b, const std::string& k, size_t maxLen = 1000, bool nonEmpty = false);
std::string reqStr(const Json& b, const std::string& k, size_t maxLen = 1000);
std::optional<int64_t> optInt(const Json& b, const std::string& k, int64_t min = INT64_MIN, int64_t max = INT64_MAX);
std::optional<bool> optBool(const Json& b, const std::string& k);
void needEnum(const std::string& field, const std::string& v, const std::vector<std::string>& allowed);
// field present and null
bool isNullField(const Json& b, const std::string& k);

// ---------------------------------------------------------------- pagination
extern const int kDefaultFirst;  // cursor default page size
extern const int kMaxPage;       // silent clamp of first/limit
struct CursorPage {
  size_t start = 0, end = 0;
  Json pageInfo;
};
CursorPage cursorPage(Ctx& c, size_t total, bool explicitOnly = false);
// {items, pageInfo, data, count} from a full list
Json cursorList(Ctx& c, const std::vector<Json>& all, bool withCount = true);

// ---------------------------------------------------------------- access helpers
bool hasPerm(const User& u, const std::string& action);
void needRole(Ctx& c, int role, const std::string& what);
Deployment& needDep(Ctx& c, int minRole = ROLE_VIEWER);
bool canSeeDep(const User& u, const Deployment& d);
int accessLevel(const User& u, const Item& it);
int rootLevel(const User& u);
int folderLevel(const User& u, int64_t folderId);  // 0 = root
Item* findItem(int64_t dep, int64_t id);
Item& needWsItem(Ctx& c, Deployment& d, const std::string& param, const std::string& type, int minLevel);
int64_t parseIdParam(Ctx& c, const std::string& param);
std::vector<int64_t> folderChain(const Item& it);  // containing folder first, then ancestors
int folderDepth(int64_t folderId);                  // root = 0
Json ownerJson(int64_t uid);
Json workbookJson(const Item& it, const User& viewer);
Json folderJson(const Item& it, const User& viewer);
Json dashboardJson(const Dashboard& d);
Json deploymentListItem(const Deployment& d);
Json deploymentFull(const Deployment& d);
void touch(Item& it, const User& u);
// dashboard config validation; converts TABS_CONTAINER; throws 422
void validateDashboardConfig(Json& cfg, const std::string& where);
bool isSecretName(const std::string& n);
int countWorkbooks(int64_t dep);
void deleteWorkbookCascade(int64_t id);
std::string newPublicId();

// ---------------------------------------------------------------- routing + OpenAPI description
using Handler = std::function<void(Ctx&)>;
struct Param {
  std::string name, in, schema, description;
  bool required = false;
};
struct Route {
  std::string method, path;
  std::vector<std::string> segs;
  Handler h;
  bool selfLock = false;
  // doc
  std::string opId, summary, tag, description;
  std::vector<Param> params;
  std::string reqSchema;
  bool reqRequired = false;
  std::vector<std::pair<int, std::string>> responses;  // status -> schema ("#Name", raw JSON, "", "csv")
  std::vector<int> errors;
  // builder
  Route& op(const std::string& id, const std::string& sum, const std::string& tg) { opId = id; summary = sum; tag = tg; return *this; }
  Route& desc(const std::string& d) { description = d; return *this; }
  Route& qp(const std::string& n, const std::string& schema, const std::string& d = "", bool req = false) {
    params.push_back({n, "query", schema, d, req}); return *this;
  }
  Route& pp(const std::string& n, const std::string& schema) {
    for (auto& p : params) if (p.name == n && p.in == "path") { p.schema = schema; return *this; }
    params.push_back({n, "path", schema, "", true}); return *this;
  }
  Route& body(const std::string& schema, bool required = true) { reqSchema = schema; reqRequired = required; return *this; }
  Route& resp(int st, const std::string& schema) { responses.push_back({st, schema}); return *this; }
  Route& err(std::initializer_list<int> e) { for (int x : e) errors.push_back(x); return *this; }
  Route& locked() { selfLock = true; return *this; }
};
Route& route(const std::string& method, const std::string& path, Handler h);
const std::vector<Route>& allRoutes();
void dispatch(Request& rq, Response& rs);
Json buildOpenApi();

// registration functions, one per endpoint family
void regDeployments();
void regEnvironments();
void regAudit();
void regWorkbooks();
void regWorkspace();
void regBuild();
void regDbt();
void regAdmin();
void regEmbed();
void regIntegrations();
void regNotifications();
void regSpec();

// common schema snippets for parameters
extern const char* SCH_CURSOR;
extern const char* SCH_FIRST;
extern const char* SCH_STR;
extern const char* SCH_ID;
extern const char* SCH_DEPID;

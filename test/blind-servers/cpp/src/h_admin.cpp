// Account administration: app-config, users (+bulk), groups, policies, user attributes and values, tenant settings.
#include <algorithm>
#include "crud.hpp"

namespace {
void needAdmin(Ctx& c) {
  User& u = c.me();
  if (u.role != ROLE_ADMIN || u.scopedDeployment) fail(403, "this operation requires an account admin");
}

Json userJson(const User& u) {
  Json g = Json::array();
  for (auto id : u.groupIds) g.push(id);
  return Json::object()
      .set("id", u.id)
      .set("email", u.email)
      .set("firstName", u.firstName.empty() ? Json() : Json(u.firstName))
      .set("lastName", u.lastName.empty() ? Json() : Json(u.lastName))
      .set("role", roleName(u.role))
      .set("status", u.active ? "active" : "deactivated")
      .set("picture", u.picture.empty() ? Json() : Json(u.picture))
      .set("groupIds", g)
      .set("creatorMode", u.creatorMode)
      .set("deploymentScope", u.scopedDeployment ? Json(std::to_string(u.scopedDeployment)) : Json())
      .set("createdAt", fmtTime(u.createdAt))
      .set("updatedAt", fmtTime(u.updatedAt ? u.updatedAt : u.createdAt))
      .set("lastLoginAt", u.lastLoginAt ? Json(fmtTime(u.lastLoginAt)) : Json());
}

void appConfig(Ctx& c) {
  User& u = c.me();
  const Json* tz = S.tenantSettings.get("timezone");
  Json j = Json::object()
               .set("appTheme", Json::object().set("primaryColor", *S.tenantSettings.get("brandColor")).set("mode", "light").set("font", "Inter"))
               .set("applyThemeGlobally", false)
               .set("creatorMode", u.creatorMode)
               .set("embedding", Json::object().set("enabled", true).set("signedEmbedding", true).set("allowedOrigins", Json::array().push("https://app.acme.example")))
               .set("sheetsUi", Json::object().set("enabled", true).set("provider", "google-sheets"))
               .set("timezoneSettings", Json::object().set("timezone", tz ? *tz : Json("UTC")).set("weekStartsOn", "monday"));
  c.ok(Json::object().set("data", j));
}

User& needUser(Ctx& c, const std::string& param) {
  int64_t id;
  std::string v = c.param(param);
  if (!parseI64(v, id) || !S.users.count(id)) fail(404, "user '" + v + "' not found");
  return S.users[id];
}

void listUsers(Ctx& c) {
  std::string search = c.q("search").value_or("");
  auto role = c.q("role");
  if (role && roleFromName(*role) < 0) fail(400, "query parameter 'role' must be admin, developer, ai-bi-user or viewer");
  auto status = c.q("status");
  if (status && *status != "active" && *status != "deactivated") fail(400, "query parameter 'status' must be active or deactivated");
  std::vector<const User*> v;
  for (auto& kv : S.users) {
    const User& u = kv.second;
    if (!search.empty() && !icontains(u.email, search) && !icontains(u.firstName + " " + u.lastName, search)) continue;
    if (role && u.role != roleFromName(*role)) continue;
    if (status && (u.active ? "active" : "deactivated") != *status) continue;
    v.push_back(&u);
  }
  std::sort(v.begin(), v.end(), [](const User* a, const User* b) {
    if (a->createdAt != b->createdAt) return a->createdAt > b->createdAt;
    return a->id > b->id;
  });
  std::vector<Json> all;
  for (auto* u : v) all.push_back(userJson(*u));
  c.ok(cursorList(c, all));
}

void createUser(Ctx& c) {
  needAdmin(c);
  Json& b = c.body(true);
  std::map<std::string, std::string> sec;
  Json f = validateFields(b, {{"email", "email", true, {}, 254}, {"firstName", "string", false, {}, 100}, {"lastName", "string", false, {}, 100},
                              {"role", "string", false, {"admin", "developer", "ai-bi-user", "viewer"}, 20}},
                          true, sec);
  std::string email = lower(trim(f.get("email")->s));
  for (auto& kv : S.users) if (lower(kv.second.email) == email) fail(409, "a user with email " + email + " already exists");
  User u;
  u.id = S.smallId();
  u.email = email;
  if (auto v = f.get("firstName")) if (v->isStr()) u.firstName = v->s;
  if (auto v = f.get("lastName")) if (v->isStr()) u.lastName = v->s;
  u.role = f.get("role") && f.get("role")->isStr() ? roleFromName(f.get("role")->s) : ROLE_VIEWER;
  u.createdAt = u.updatedAt = nowSec();
  S.users[u.id] = u;
  audit(&c.me(), 0, "User invited", Json::object().set("email", email).set("role", roleName(u.role)));
  c.created(Json::object().set("data", userJson(u)), "/api/v1/users/" + std::to_string(u.id));
}

void getUser(Ctx& c) { c.ok(Json::object().set("data", userJson(needUser(c, "id")))); }

void updateUser(Ctx& c) {
  User& me = c.me();
  User& u = needUser(c, "id");
  Json& b = c.body(true);
  std::map<std::string, std::string> sec;
  Json f = validateFields(b, {{"firstName", "string", false, {}, 100}, {"lastName", "string", false, {}, 100},
                              {"picture", "string", false, {}, 2000}, {"role", "string", false, {"admin", "developer", "ai-bi-user", "viewer"}, 20, false, false},
                              {"status", "string", false, {"active", "deactivated"}, 20, false, false}},
                          false, sec);
  bool admin = me.role == ROLE_ADMIN && !me.scopedDeployment;
  if (!admin && (u.id != me.id || f.has("role") || f.has("status"))) fail(403, "only an account admin can change other users, roles or status");
  if (u.id == me.id && (f.has("role") || f.has("status"))) {
    if ((f.has("role") && roleFromName(f.get("role")->s) != u.role) || (f.has("status") && f.get("status")->s != "active"))
      fail(400, "you cannot change your own role or deactivate yourself");
  }
  if (auto v = f.get("firstName")) u.firstName = v->isStr() ? v->s : "";
  if (auto v = f.get("lastName")) u.lastName = v->isStr() ? v->s : "";
  if (auto v = f.get("picture")) u.picture = v->isStr() ? v->s : "";
  if (auto v = f.get("role")) {
    if (roleFromName(v->s) != u.role) audit(&me, 0, "Role changed", Json::object().set("userId", u.id).set("role", v->s));
    u.role = roleFromName(v->s);
  }
  if (auto v = f.get("status")) u.active = v->s == "active";
  u.updatedAt = nowSec();
  c.ok(Json::object().set("data", userJson(u)));
}

void bulkUsers(Ctx& c) {
  needAdmin(c);
  Json& b = c.body(true);
  std::string action = reqStr(b, "action", 20);
  needEnum("action", action, {"DEACTIVATE", "ACTIVATE", "DELETE"});
  const Json* ids = b.get("userIds");
  if (!ids || !ids->isArr()) fail(400, "field 'userIds' is required and must be an array of integers");
  if (ids->a.empty()) fail(400, "field 'userIds' must not be empty");
  std::vector<int64_t> list;
  for (auto& e : ids->a) {
    if (!e.isInt()) fail(400, "field 'userIds' must be an array of integers");
    if (std::find(list.begin(), list.end(), e.asInt()) == list.end()) list.push_back(e.asInt());
  }
  if (list.size() > 100) fail(400, "at most 100 users per bulk request");
  Json done = Json::array(), failed = Json::array();
  for (int64_t id : list) {
    auto it = S.users.find(id);
    auto bad = [&](int st, const std::string& m) {
      failed.push(Json::object().set("userId", id).set("error", Json::object().set("message", m).set("status", st)));
    };
    if (it == S.users.end()) { bad(404, "user not found"); continue; }
    if (id == c.uid && action != "ACTIVATE") { bad(400, "you cannot " + lower(action) + " yourself"); continue; }
    if (action == "DELETE") {
      for (auto& g : S.groups) g.second.memberIds.erase(std::remove(g.second.memberIds.begin(), g.second.memberIds.end(), id), g.second.memberIds.end());
      S.users.erase(it);
    } else {
      it->second.active = action == "ACTIVATE";
      it->second.updatedAt = nowSec();
      if (action == "DEACTIVATE") audit(&c.me(), 0, "User deactivated", Json::object().set("userId", id));
    }
    done.push(id);
  }
  c.ok(Json::object().set("data", Json::object().set("action", action).set("processed", done).set("failed", failed)));
}

// ---------------- groups
Json groupJson(const Group& g) {
  Json m = Json::array();
  for (auto id : g.memberIds) m.push(id);
  return Json::object()
      .set("id", g.id)
      .set("name", g.name)
      .set("description", g.description.empty() ? Json() : Json(g.description))
      .set("memberIds", m)
      .set("createdAt", fmtTime(g.createdAt))
      .set("updatedAt", fmtTime(g.updatedAt));
}
Group& needGroup(Ctx& c) {
  int64_t id;
  std::string v = c.param("groupId");
  if (!parseI64(v, id) || !S.groups.count(id)) fail(404, "group '" + v + "' not found");
  return S.groups[id];
}
std::vector<int64_t> memberList(const Json& f) {
  std::vector<int64_t> out;
  const Json* m = f.get("memberIds");
  if (!m || m->isNull()) return out;
  for (auto& e : m->a) {
    if (!e.isInt()) fail(400, "field 'memberIds' must be an array of integers");
    if (!S.users.count(e.asInt())) fail(422, "user " + std::to_string(e.asInt()) + " does not exist");
    if (std::find(out.begin(), out.end(), e.asInt()) == out.end()) out.push_back(e.asInt());
  }
  return out;
}
const std::vector<FieldSpec> kGroupFields = {{"name", "string", true, {}, 100}, {"description", "string", false, {}, 1000}, {"memberIds", "array"}};
void setMembers(Group& g, const std::vector<int64_t>& m) {
  for (auto& kv : S.users) {
    auto& gi = kv.second.groupIds;
    gi.erase(std::remove(gi.begin(), gi.end(), g.id), gi.end());
  }
  g.memberIds = m;
  for (auto id : m) S.users[id].groupIds.push_back(g.id);
}
void listGroups(Ctx& c) {
  std::string search = c.q("search").value_or("");
  std::vector<Json> all;
  for (auto& kv : S.groups)
    if (search.empty() || icontains(kv.second.name, search) || icontains(kv.second.description, search)) all.push_back(groupJson(kv.second));
  c.ok(cursorList(c, all));
}
void createGroup(Ctx& c) {
  needAdmin(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kGroupFields, true, sec);
  for (auto& kv : S.groups) if (iequals(kv.second.name, f.get("name")->s)) fail(409, "a group with this name already exists");
  Group g;
  g.id = S.smallId();
  g.name = f.get("name")->s;
  if (auto d = f.get("description")) if (d->isStr()) g.description = d->s;
  g.createdAt = g.updatedAt = nowSec();
  S.groups[g.id] = g;
  setMembers(S.groups[g.id], memberList(f));
  c.created(Json::object().set("data", groupJson(S.groups[g.id])), "/api/v1/groups/" + std::to_string(g.id));
}
void getGroup(Ctx& c) { c.ok(Json::object().set("data", groupJson(needGroup(c)))); }
void updateGroup(Ctx& c) {
  needAdmin(c);
  Group& g = needGroup(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kGroupFields, false, sec);
  if (auto n = f.get("name")) {
    if (!n->isStr()) fail(400, "field 'name' must not be null");
    for (auto& kv : S.groups) if (kv.first != g.id && iequals(kv.second.name, n->s)) fail(409, "a group with this name already exists");
    g.name = n->s;
  }
  if (auto d = f.get("description")) g.description = d->isStr() ? d->s : "";
  if (f.has("memberIds")) setMembers(g, memberList(f));
  g.updatedAt = nowSec();
  c.ok(Json::object().set("data", groupJson(g)));
}
void deleteGroup(Ctx& c) {
  needAdmin(c);
  Group& g = needGroup(c);
  int64_t id = g.id;
  setMembers(g, {});
  for (auto p = S.policies.begin(); p != S.policies.end();)
    p = (p->second.principalType == "group" && p->second.principalId == id) ? S.policies.erase(p) : std::next(p);
  S.groups.erase(id);
  c.ok(Json::object());
}

// ---------------- policies
const std::vector<std::string> kActions = {"Read", "Edit", "Manage", "NoAccess", "AuditLogManage", "SecretsManage", "DownloadData", "DeploymentManage"};
const std::vector<FieldSpec> kPolicyFields = {{"name", "string", false, {}, 200},
                                              {"principalType", "string", true, {"user", "group"}, 10},
                                              {"principalId", "integer", true},
                                              {"resourceType", "string", true, {"account", "deployment", "folder", "workbook"}, 20},
                                              {"resourceId", "integer", false},
                                              {"actions", "strings", true, kActions}};
Json policyJson(const Policy& p) {
  Json a = Json::array();
  for (auto& x : p.actions) a.push(x);
  return Json::object()
      .set("id", p.id)
      .set("name", p.name.empty() ? Json() : Json(p.name))
      .set("principalType", p.principalType)
      .set("principalId", p.principalId)
      .set("resourceType", p.resourceType)
      .set("resourceId", p.resourceType == "account" ? Json() : Json(p.resourceId))
      .set("actions", a)
      .set("createdAt", fmtTime(p.createdAt));
}
Policy& needPolicy(Ctx& c) {
  int64_t id;
  std::string v = c.param("policyId");
  if (!parseI64(v, id) || !S.policies.count(id)) fail(404, "policy '" + v + "' not found");
  return S.policies[id];
}
void checkPolicy(const Policy& p) {
  if (p.principalType == "user" && !S.users.count(p.principalId)) fail(422, "principal user " + std::to_string(p.principalId) + " does not exist");
  if (p.principalType == "group" && !S.groups.count(p.principalId)) fail(422, "principal group " + std::to_string(p.principalId) + " does not exist");
  if (p.resourceType == "deployment" && !S.deps.count(p.resourceId)) fail(422, "deployment " + std::to_string(p.resourceId) + " does not exist");
  if (p.resourceType == "folder" || p.resourceType == "workbook") {
    auto it = S.items.find(p.resourceId);
    if (it == S.items.end() || it->second.type != upper(p.resourceType)) fail(422, p.resourceType + " " + std::to_string(p.resourceId) + " does not exist");
  }
  if (p.actions.empty()) fail(422, "field 'actions' must not be empty");
}
void applyPolicy(Policy& p, const Json& f) {
  if (auto v = f.get("name")) p.name = v->isStr() ? v->s : "";
  if (auto v = f.get("principalType")) p.principalType = v->s;
  if (auto v = f.get("principalId")) p.principalId = v->asInt();
  if (auto v = f.get("resourceType")) p.resourceType = v->s;
  if (auto v = f.get("resourceId")) p.resourceId = v->isNull() ? 0 : v->asInt();
  if (auto v = f.get("actions")) { p.actions.clear(); for (auto& a : v->a) p.actions.push_back(a.s); }
  if (p.resourceType == "account") p.resourceId = 0;
}
void listPolicies(Ctx& c) {
  auto pt = c.q("principalType");
  std::vector<Json> all;
  for (auto& kv : S.policies) if (!pt || kv.second.principalType == *pt) all.push_back(policyJson(kv.second));
  c.ok(cursorList(c, all));
}
void createPolicy(Ctx& c) {
  needAdmin(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kPolicyFields, true, sec);
  Policy p;
  p.id = S.smallId();
  p.createdAt = nowSec();
  applyPolicy(p, f);
  if (p.resourceType != "account" && !f.get("resourceId")) fail(400, "field 'resourceId' is required for this resourceType");
  checkPolicy(p);
  S.policies[p.id] = p;
  c.created(Json::object().set("data", policyJson(p)), "/api/v1/policies/" + std::to_string(p.id));
}
void getPolicy(Ctx& c) { c.ok(Json::object().set("data", policyJson(needPolicy(c)))); }
void updatePolicy(Ctx& c) {
  needAdmin(c);
  Policy& p = needPolicy(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kPolicyFields, false, sec);
  for (const char* k : {"principalType", "principalId", "resourceType", "actions"})
    if (f.get(k) && f.get(k)->isNull()) fail(400, std::string("field '") + k + "' must not be null");
  Policy copy = p;
  applyPolicy(copy, f);
  checkPolicy(copy);
  p = copy;
  c.ok(Json::object().set("data", policyJson(p)));
}
void deletePolicy(Ctx& c) {
  needAdmin(c);
  S.policies.erase(needPolicy(c).id);
  c.ok(Json::object());
}

// ---------------- user attributes
const std::vector<std::string> kAttrTypes = {"string", "number", "boolean", "string_array", "number_array"};
bool valueMatches(const std::string& type, const Json& v) {
  if (v.isNull()) return true;
  if (type == "string") return v.isStr();
  if (type == "number") return v.isNum();
  if (type == "boolean") return v.isBool();
  if (!v.isArr()) return false;
  for (auto& e : v.a) if ((type == "string_array" && !e.isStr()) || (type == "number_array" && !e.isNum())) return false;
  return true;
}
void listAttributes(Ctx& c) {
  std::string search = c.q("search").value_or("");
  c.ok(cursorList(c, searchRows(S.userAttributes, search, {"name", "displayName"})));
}
void createAttribute(Ctx& c) {
  needAdmin(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true),
                          {{"name", "string", true, {}, 64}, {"displayName", "string", false, {}, 200}, {"type", "string", true, kAttrTypes, 20},
                           {"defaultValue", "any"}},
                          true, sec);
  std::string name = f.get("name")->s;
  if (!(islower((unsigned char)name[0]))) fail(422, "attribute names must match ^[a-z][a-z0-9_]*$");
  for (char ch : name) if (!(islower((unsigned char)ch) || isdigit((unsigned char)ch) || ch == '_')) fail(422, "attribute names must match ^[a-z][a-z0-9_]*$");
  for (auto& kv : S.userAttributes.rows) if (kv.second.get("name")->s == name) fail(409, "attribute '" + name + "' already exists");
  Json dv = f.get("defaultValue") ? *f.get("defaultValue") : Json();
  if (!valueMatches(f.get("type")->s, dv)) fail(422, "defaultValue does not match type " + f.get("type")->s);
  int64_t id = S.smallId();
  Json row = Json::object()
                 .set("id", id)
                 .set("name", name)
                 .set("displayName", f.get("displayName") ? *f.get("displayName") : Json(name))
                 .set("type", f.get("type")->s)
                 .set("defaultValue", dv)
                 .set("createdAt", fmtTime(nowSec()))
                 .set("updatedAt", fmtTime(nowSec()));
  S.userAttributes.rows[id] = row;
  c.created(Json::object().set("data", row), "/api/v1/user-attributes/" + std::to_string(id));
}
void getAttribute(Ctx& c) { c.ok(Json::object().set("data", S.userAttributes.rows[rowId(c, S.userAttributes, "attributeId", "user attribute")])); }
void updateAttribute(Ctx& c) {
  needAdmin(c);
  int64_t id = rowId(c, S.userAttributes, "attributeId", "user attribute");
  Json& row = S.userAttributes.rows[id];
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), {{"displayName", "string", false, {}, 200}, {"type", "string", false, kAttrTypes, 20, false, false}, {"defaultValue", "any"}},
                          false, sec);
  if (f.get("type") && f.get("type")->s != row.get("type")->s) fail(422, "the type of an attribute cannot be changed");
  if (auto v = f.get("defaultValue")) {
    if (!valueMatches(row.get("type")->s, *v)) fail(422, "defaultValue does not match type " + row.get("type")->s);
    row.set("defaultValue", *v);
  }
  if (auto v = f.get("displayName")) row.set("displayName", *v);
  row.set("updatedAt", fmtTime(nowSec()));
  c.ok(Json::object().set("data", row));
}
Json valuesJson(int64_t uid) {
  Json arr = Json::array();
  auto& vals = S.attrValues[uid];
  for (auto& kv : S.userAttributes.rows) {
    auto v = vals.find(kv.first);
    arr.push(Json::object()
                 .set("attributeId", kv.first)
                 .set("name", *kv.second.get("name"))
                 .set("type", *kv.second.get("type"))
                 .set("value", v == vals.end() ? *kv.second.get("defaultValue") : v->second)
                 .set("isDefault", v == vals.end()));
  }
  return Json::object().set("userId", uid).set("values", arr);
}
void getValues(Ctx& c) {
  User& u = needUser(c, "userId");
  c.ok(Json::object().set("data", valuesJson(u.id)));
}
void putValues(Ctx& c) {
  needAdmin(c);
  User& u = needUser(c, "userId");
  Json& b = c.body(true);
  const Json* vals = b.get("values");
  if (!vals || !vals->isArr()) fail(400, "field 'values' is required and must be an array of {attributeId or name, value}");
  std::vector<std::pair<int64_t, Json>> sets;
  for (size_t k = 0; k < vals->a.size(); k++) {
    const Json& e = vals->a[k];
    std::string p = "values[" + std::to_string(k) + "]";
    if (!e.isObj()) fail(400, p + " must be an object");
    int64_t aid = 0;
    if (const Json* id = e.get("attributeId")) {
      if (!id->isInt()) fail(400, p + ".attributeId must be an integer");
      aid = id->asInt();
    } else if (const Json* n = e.get("name")) {
      if (!n->isStr()) fail(400, p + ".name must be a string");
      for (auto& kv : S.userAttributes.rows) if (kv.second.get("name")->s == n->s) aid = kv.first;
    } else fail(400, p + " needs attributeId or name");
    auto row = S.userAttributes.rows.find(aid);
    if (row == S.userAttributes.rows.end()) fail(422, p + " names an attribute that does not exist");
    if (!e.has("value")) fail(400, p + ".value is required");
    if (!valueMatches(row->second.get("type")->s, *e.get("value"))) fail(422, p + ".value does not match type " + row->second.get("type")->s);
    sets.push_back({aid, *e.get("value")});
  }
  for (auto& s : sets) {
    if (s.second.isNull()) S.attrValues[u.id].erase(s.first);
    else S.attrValues[u.id][s.first] = s.second;
  }
  c.ok(Json::object().set("data", valuesJson(u.id)));
}

// ---------------- tenant settings
void getTenant(Ctx& c) { c.ok(Json::object().set("data", S.tenantSettings)); }
void putTenant(Ctx& c) {
  needAdmin(c);
  Json& b = c.body(true);
  if (b.has("planTier")) fail(403, "the plan tier cannot be changed through the API");
  std::map<std::string, std::string> sec;
  Json f = validateFields(b, {{"auditLogEnabled", "boolean", false, {}, 0, false, false},
                              {"defaultRole", "string", false, {"admin", "developer", "ai-bi-user", "viewer"}, 20, false, false},
                              {"sessionTimeoutMinutes", "integer", false, {}, 0, false, false},
                              {"allowedEmailDomains", "strings", false, {}, 0, false, false},
                              {"creatorModeEnabled", "boolean", false, {}, 0, false, false},
                              {"timezone", "string", false, {}, 64, false, false},
                              {"ssoEnforced", "boolean", false, {}, 0, false, false},
                              {"brandColor", "string", false, {}, 7, false, false}},
                          false, sec);
  if (auto v = f.get("sessionTimeoutMinutes"))
    if (v->asInt() < 5 || v->asInt() > 10080) fail(422, "field 'sessionTimeoutMinutes' must be between 5 and 10080");
  if (auto v = f.get("brandColor")) {
    bool ok = v->s.size() == 7 && v->s[0] == '#';
    for (size_t k = 1; ok && k < 7; k++) ok = isxdigit((unsigned char)v->s[k]);
    if (!ok) fail(422, "field 'brandColor' must look like #RRGGBB");
  }
  for (auto& kv : f.o) S.tenantSettings.set(kv.first, kv.second);
  c.ok(Json::object().set("data", S.tenantSettings));
}
}  // namespace

void regAdmin() {
  route("GET", "/api/v1/app-config", appConfig).op("getAppConfig", "App configuration", "Account").resp(200, "data:AppConfig");
  route("GET", "/api/v1/users", listUsers)
      .op("listUsers", "List users", "Users")
      .qp("search", SCH_STR, "substring of email or name")
      .qp("role", R"J({"type":"string","enum":["admin","developer","ai-bi-user","viewer"]})J")
      .qp("status", R"J({"type":"string","enum":["active","deactivated"]})J")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:User");
  route("POST", "/api/v1/users", createUser).op("createUser", "Invite a user", "Users").body("#CreateUserRequest").resp(201, "data:User").err({409});
  route("GET", "/api/v1/users/{id}", getUser).op("getUser", "Get a user", "Users").pp("id", SCH_ID).resp(200, "data:User");
  route("PUT", "/api/v1/users/{id}", updateUser).op("updateUser", "Update a user (partial)", "Users").pp("id", SCH_ID).body("#UpdateUserRequest").resp(200, "data:User");
  route("POST", "/api/v1/users/bulk", bulkUsers).op("bulkUserAction", "Deactivate, activate or delete users in bulk", "Users").body("#BulkUsersRequest").resp(200, "#BulkUsersResponse");
  route("GET", "/api/v1/groups", listGroups)
      .op("listGroups", "List groups", "Users")
      .qp("search", SCH_STR)
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:Group");
  route("POST", "/api/v1/groups", createGroup).op("createGroup", "Create a group", "Users").body(fieldSchema(kGroupFields, true)).resp(201, "data:Group").err({409});
  route("GET", "/api/v1/groups/{groupId}", getGroup).op("getGroup", "Get a group", "Users").pp("groupId", SCH_ID).resp(200, "data:Group");
  route("PUT", "/api/v1/groups/{groupId}", updateGroup).op("updateGroup", "Update a group (partial)", "Users").pp("groupId", SCH_ID).body(fieldSchema(kGroupFields, false)).resp(200, "data:Group").err({409});
  route("DELETE", "/api/v1/groups/{groupId}", deleteGroup).op("deleteGroup", "Delete a group", "Users").pp("groupId", SCH_ID).resp(200, "#Empty");
  route("GET", "/api/v1/policies", listPolicies)
      .op("listPolicies", "List access policies", "Users")
      .qp("principalType", R"J({"type":"string","enum":["user","group"]})J")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:Policy");
  route("POST", "/api/v1/policies", createPolicy).op("createPolicy", "Create a policy", "Users").body(fieldSchema(kPolicyFields, true)).resp(201, "data:Policy");
  route("GET", "/api/v1/policies/{policyId}", getPolicy).op("getPolicy", "Get a policy", "Users").pp("policyId", SCH_ID).resp(200, "data:Policy");
  route("PUT", "/api/v1/policies/{policyId}", updatePolicy).op("updatePolicy", "Update a policy (partial)", "Users").pp("policyId", SCH_ID).body(fieldSchema(kPolicyFields, false)).resp(200, "data:Policy");
  route("DELETE", "/api/v1/policies/{policyId}", deletePolicy).op("deletePolicy", "Delete a policy", "Users").pp("policyId", SCH_ID).resp(200, "#Empty");
  route("GET", "/api/v1/user-attributes/", listAttributes)
      .op("listUserAttributes", "List user attributes", "Users")
      .qp("search", SCH_STR)
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:UserAttribute");
  route("POST", "/api/v1/user-attributes/", createAttribute).op("createUserAttribute", "Create a user attribute", "Users").body("#CreateUserAttributeRequest").resp(201, "data:UserAttribute").err({409});
  route("GET", "/api/v1/user-attributes/{attributeId}", getAttribute).op("getUserAttribute", "Get a user attribute", "Users").pp("attributeId", SCH_ID).resp(200, "data:UserAttribute");
  route("PUT", "/api/v1/user-attributes/{attributeId}", updateAttribute).op("updateUserAttribute", "Update a user attribute", "Users").pp("attributeId", SCH_ID).body("#UpdateUserAttributeRequest").resp(200, "data:UserAttribute");
  route("GET", "/api/v1/user-attribute-values/{userId}", getValues).op("getUserAttributeValues", "Attribute values of a user", "Users").pp("userId", SCH_ID).resp(200, "data:UserAttributeValues");
  route("PUT", "/api/v1/user-attribute-values/{userId}", putValues).op("setUserAttributeValues", "Set attribute values of a user (null clears)", "Users").pp("userId", SCH_ID).body("#SetAttributeValuesRequest").resp(200, "data:UserAttributeValues");
  route("GET", "/api/v1/tenant/settings", getTenant).op("getTenantSettings", "Tenant settings", "Account").resp(200, "data:TenantSettings");
  route("PUT", "/api/v1/tenant/settings", putTenant).op("updateTenantSettings", "Update tenant settings (partial)", "Account").body("#TenantSettings").resp(200, "data:TenantSettings");
}

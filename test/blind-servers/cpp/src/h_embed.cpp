// Embed tenants, their users, groups and group members.
#include <algorithm>
#include "crud.hpp"

namespace {
void needAdmin(Ctx& c) {
  User& u = c.me();
  if (u.role != ROLE_ADMIN || u.scopedDeployment) fail(403, "managing embed tenants requires an account admin");
}
void needReader(Ctx& c) { needRole(c, ROLE_DEV, "reading embed tenants"); }

const std::vector<FieldSpec> kTenant = {{"name", "string", true, {}, 200}, {"externalId", "string", true, {}, 200}, {"description", "string", false, {}, 2000}};
const std::vector<FieldSpec> kEUser = {{"externalId", "string", true, {}, 200}, {"email", "email", false, {}, 254}, {"name", "string", false, {}, 200},
                                       {"attributes", "object"}};
const std::vector<FieldSpec> kEGroup = {{"name", "string", true, {}, 200}, {"description", "string", false, {}, 2000}};

int64_t tenantId(Ctx& c) { return rowId(c, S.embedTenants, "tenantId", "embed tenant"); }
int64_t childId(Ctx& c, Coll& coll, const std::string& param, const std::string& what, int64_t tenant) {
  int64_t id = rowId(c, coll, param, what);
  if (coll.rows[id].get("tenantId")->asInt() != tenant) fail(404, what + " '" + c.param(param) + "' not found in this tenant");
  return id;
}
Json tenantJson(int64_t id) {
  Json r = S.embedTenants.rows[id];
  int64_t n = 0;
  for (auto& kv : S.embedUsers.rows) if (kv.second.get("tenantId")->asInt() == id) n++;
  r.set("userCount", n);
  return r;
}
Json dataOf(const Json& j) { return Json::object().set("data", j); }

void listTenants(Ctx& c) {
  needReader(c);
  std::vector<Json> all;
  for (auto& j : searchRows(S.embedTenants, c.q("search").value_or(""), {"name", "externalId"})) all.push_back(tenantJson(j.get("id")->asInt()));
  c.ok(cursorList(c, all));
}
void createTenant(Ctx& c) {
  needAdmin(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kTenant, true, sec);
  for (auto& kv : S.embedTenants.rows) if (kv.second.get("externalId")->s == f.get("externalId")->s) fail(409, "an embed tenant with this externalId exists");
  int64_t id = S.smallId();
  Json row = Json::object().set("id", id);
  for (auto& kv : f.o) row.set(kv.first, kv.second);
  if (!row.has("description")) row.set("description", Json());
  row.set("createdAt", fmtTime(nowSec())).set("updatedAt", fmtTime(nowSec()));
  S.embedTenants.rows[id] = row;
  c.created(dataOf(tenantJson(id)), "/api/v1/embed-tenants/" + std::to_string(id));
}
void getTenant(Ctx& c) { needReader(c); c.ok(dataOf(tenantJson(tenantId(c)))); }
void patchTenant(Ctx& c) {
  needAdmin(c);
  int64_t id = tenantId(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kTenant, false, sec);
  for (const char* k : {"name", "externalId"}) if (f.get(k) && f.get(k)->isNull()) fail(400, std::string("field '") + k + "' must not be null");
  if (auto e = f.get("externalId"))
    for (auto& kv : S.embedTenants.rows) if (kv.first != id && kv.second.get("externalId")->s == e->s) fail(409, "an embed tenant with this externalId exists");
  for (auto& kv : f.o) S.embedTenants.rows[id].set(kv.first, kv.second);
  S.embedTenants.rows[id].set("updatedAt", fmtTime(nowSec()));
  c.ok(dataOf(tenantJson(id)));
}
void deleteTenant(Ctx& c) {
  needAdmin(c);
  int64_t id = tenantId(c);
  for (auto it = S.embedUsers.rows.begin(); it != S.embedUsers.rows.end();) it = it->second.get("tenantId")->asInt() == id ? S.embedUsers.rows.erase(it) : std::next(it);
  for (auto it = S.embedGroups.rows.begin(); it != S.embedGroups.rows.end();) it = it->second.get("tenantId")->asInt() == id ? S.embedGroups.rows.erase(it) : std::next(it);
  for (auto& kv : S.items) kv.second.embedTenants.erase(id);
  S.embedTenants.rows.erase(id);
  c.ok(Json::object());
}

void listEUsers(Ctx& c) {
  needReader(c);
  int64_t t = tenantId(c);
  c.ok(cursorList(c, searchRows(S.embedUsers, c.q("search").value_or(""), {"externalId", "email", "name"},
                                [&](const Json& r) { return r.get("tenantId")->asInt() == t; })));
}
void createEUser(Ctx& c) {
  needAdmin(c);
  int64_t t = tenantId(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kEUser, true, sec);
  for (auto& kv : S.embedUsers.rows)
    if (kv.second.get("tenantId")->asInt() == t && kv.second.get("externalId")->s == f.get("externalId")->s)
      fail(409, "an embed user with this externalId exists in the tenant");
  int64_t id = S.smallId();
  Json row = Json::object().set("id", id).set("tenantId", t).set("externalId", *f.get("externalId"));
  row.set("email", f.get("email") ? *f.get("email") : Json());
  row.set("name", f.get("name") ? *f.get("name") : Json());
  row.set("attributes", f.get("attributes") && f.get("attributes")->isObj() ? *f.get("attributes") : Json::object());
  row.set("createdAt", fmtTime(nowSec()));
  S.embedUsers.rows[id] = row;
  c.created(dataOf(row), "/api/v1/embed-tenants/" + std::to_string(t) + "/users/" + std::to_string(id));
}
void getEUser(Ctx& c) {
  needReader(c);
  int64_t t = tenantId(c);
  c.ok(dataOf(S.embedUsers.rows[childId(c, S.embedUsers, "userId", "embed user", t)]));
}
void patchEUser(Ctx& c) {
  needAdmin(c);
  int64_t t = tenantId(c);
  int64_t id = childId(c, S.embedUsers, "userId", "embed user", t);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kEUser, false, sec);
  if (f.get("externalId") && f.get("externalId")->isNull()) fail(400, "field 'externalId' must not be null");
  for (auto& kv : f.o) S.embedUsers.rows[id].set(kv.first, kv.second.isNull() && kv.first == "attributes" ? Json::object() : kv.second);
  c.ok(dataOf(S.embedUsers.rows[id]));
}
void deleteEUser(Ctx& c) {
  needAdmin(c);
  int64_t t = tenantId(c);
  int64_t id = childId(c, S.embedUsers, "userId", "embed user", t);
  for (auto& kv : S.embedGroups.rows) {
    Json m = Json::array();
    for (auto& e : kv.second.get("memberIds")->a) if (e.asInt() != id) m.push(e);
    kv.second.set("memberIds", m);
  }
  S.embedUsers.rows.erase(id);
  c.ok(Json::object());
}

void listEGroups(Ctx& c) {
  needReader(c);
  int64_t t = tenantId(c);
  c.ok(cursorList(c, searchRows(S.embedGroups, c.q("search").value_or(""), {"name"}, [&](const Json& r) { return r.get("tenantId")->asInt() == t; })));
}
void createEGroup(Ctx& c) {
  needAdmin(c);
  int64_t t = tenantId(c);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kEGroup, true, sec);
  int64_t id = S.smallId();
  Json row = Json::object().set("id", id).set("tenantId", t).set("name", *f.get("name"));
  row.set("description", f.get("description") ? *f.get("description") : Json());
  row.set("memberIds", Json::array()).set("createdAt", fmtTime(nowSec()));
  S.embedGroups.rows[id] = row;
  c.created(dataOf(row), "/api/v1/embed-tenants/" + std::to_string(t) + "/groups/" + std::to_string(id));
}
void getEGroup(Ctx& c) {
  needReader(c);
  int64_t t = tenantId(c);
  c.ok(dataOf(S.embedGroups.rows[childId(c, S.embedGroups, "groupId", "embed group", t)]));
}
void patchEGroup(Ctx& c) {
  needAdmin(c);
  int64_t t = tenantId(c);
  int64_t id = childId(c, S.embedGroups, "groupId", "embed group", t);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kEGroup, false, sec);
  if (f.get("name") && f.get("name")->isNull()) fail(400, "field 'name' must not be null");
  for (auto& kv : f.o) S.embedGroups.rows[id].set(kv.first, kv.second);
  c.ok(dataOf(S.embedGroups.rows[id]));
}
void deleteEGroup(Ctx& c) {
  needAdmin(c);
  int64_t t = tenantId(c);
  S.embedGroups.rows.erase(childId(c, S.embedGroups, "groupId", "embed group", t));
  c.ok(Json::object());
}
void listMembers(Ctx& c) {
  needReader(c);
  int64_t t = tenantId(c);
  int64_t g = childId(c, S.embedGroups, "groupId", "embed group", t);
  std::vector<Json> all;
  for (auto& e : S.embedGroups.rows[g].get("memberIds")->a) {
    auto u = S.embedUsers.rows.find(e.asInt());
    if (u != S.embedUsers.rows.end()) all.push_back(u->second);
  }
  c.ok(cursorList(c, all));
}
void addMembers(Ctx& c) {
  needAdmin(c);
  int64_t t = tenantId(c);
  int64_t g = childId(c, S.embedGroups, "groupId", "embed group", t);
  Json& b = c.body(true);
  std::vector<int64_t> ids;
  if (auto one = optInt(b, "userId")) ids.push_back(*one);
  if (const Json* many = b.get("userIds")) {
    if (!many->isArr()) fail(400, "field 'userIds' must be an array of integers");
    for (auto& e : many->a) {
      if (!e.isInt()) fail(400, "field 'userIds' must be an array of integers");
      ids.push_back(e.asInt());
    }
  }
  if (ids.empty()) fail(400, "send userId or userIds");
  for (auto id : ids) {
    auto u = S.embedUsers.rows.find(id);
    if (u == S.embedUsers.rows.end() || u->second.get("tenantId")->asInt() != t) fail(422, "embed user " + std::to_string(id) + " does not belong to this tenant");
  }
  Json& m = *S.embedGroups.rows[g].get("memberIds");
  for (auto id : ids) {
    bool has = false;
    for (auto& e : m.a) if (e.asInt() == id) has = true;
    if (!has) m.push(id);
  }
  c.created(dataOf(S.embedGroups.rows[g]), "");
}
void removeMember(Ctx& c) {
  needAdmin(c);
  int64_t t = tenantId(c);
  int64_t g = childId(c, S.embedGroups, "groupId", "embed group", t);
  int64_t uid;
  if (!parseI64(c.param("userId"), uid)) fail(404, "member not found");
  Json& m = *S.embedGroups.rows[g].get("memberIds");
  Json n = Json::array();
  bool found = false;
  for (auto& e : m.a) { if (e.asInt() == uid) found = true; else n.push(e); }
  if (!found) fail(404, "embed user " + std::to_string(uid) + " is not a member of this group");
  m = n;
  c.ok(Json::object());
}
}  // namespace

void regEmbed() {
  const std::string b = "/api/v1/embed-tenants";
  auto list = [](const char* s) { return std::string("list:") + s; };
  route("GET", b, listTenants).op("listEmbedTenants", "List embed tenants", "Embedding").qp("search", SCH_STR).qp("first", SCH_FIRST).qp("after", SCH_CURSOR).resp(200, list("EmbedTenant"));
  route("POST", b, createTenant).op("createEmbedTenant", "Create an embed tenant", "Embedding").body(fieldSchema(kTenant, true)).resp(201, "data:EmbedTenant").err({409});
  route("GET", b + "/{tenantId}", getTenant).op("getEmbedTenant", "Get an embed tenant", "Embedding").pp("tenantId", SCH_ID).resp(200, "data:EmbedTenant");
  route("PATCH", b + "/{tenantId}", patchTenant).op("updateEmbedTenant", "Update an embed tenant", "Embedding").pp("tenantId", SCH_ID).body(fieldSchema(kTenant, false)).resp(200, "data:EmbedTenant").err({409});
  route("DELETE", b + "/{tenantId}", deleteTenant).op("deleteEmbedTenant", "Delete an embed tenant with its users and groups", "Embedding").pp("tenantId", SCH_ID).resp(200, "#Empty");
  route("GET", b + "/{tenantId}/users", listEUsers).op("listEmbedUsers", "List embed users of a tenant", "Embedding").pp("tenantId", SCH_ID).qp("search", SCH_STR).qp("first", SCH_FIRST).qp("after", SCH_CURSOR).resp(200, list("EmbedUser"));
  route("POST", b + "/{tenantId}/users", createEUser).op("createEmbedUser", "Create an embed user", "Embedding").pp("tenantId", SCH_ID).body(fieldSchema(kEUser, true)).resp(201, "data:EmbedUser").err({409});
  route("GET", b + "/{tenantId}/users/{userId}", getEUser).op("getEmbedUser", "Get an embed user", "Embedding").pp("tenantId", SCH_ID).pp("userId", SCH_ID).resp(200, "data:EmbedUser");
  route("PATCH", b + "/{tenantId}/users/{userId}", patchEUser).op("updateEmbedUser", "Update an embed user", "Embedding").pp("tenantId", SCH_ID).pp("userId", SCH_ID).body(fieldSchema(kEUser, false)).resp(200, "data:EmbedUser");
  route("DELETE", b + "/{tenantId}/users/{userId}", deleteEUser).op("deleteEmbedUser", "Delete an embed user", "Embedding").pp("tenantId", SCH_ID).pp("userId", SCH_ID).resp(200, "#Empty");
  route("GET", b + "/{tenantId}/groups", listEGroups).op("listEmbedGroups", "List embed groups of a tenant", "Embedding").pp("tenantId", SCH_ID).qp("search", SCH_STR).qp("first", SCH_FIRST).qp("after", SCH_CURSOR).resp(200, list("EmbedGroup"));
  route("POST", b + "/{tenantId}/groups", createEGroup).op("createEmbedGroup", "Create an embed group", "Embedding").pp("tenantId", SCH_ID).body(fieldSchema(kEGroup, true)).resp(201, "data:EmbedGroup");
  route("GET", b + "/{tenantId}/groups/{groupId}", getEGroup).op("getEmbedGroup", "Get an embed group", "Embedding").pp("tenantId", SCH_ID).pp("groupId", SCH_ID).resp(200, "data:EmbedGroup");
  route("PATCH", b + "/{tenantId}/groups/{groupId}", patchEGroup).op("updateEmbedGroup", "Update an embed group", "Embedding").pp("tenantId", SCH_ID).pp("groupId", SCH_ID).body(fieldSchema(kEGroup, false)).resp(200, "data:EmbedGroup");
  route("DELETE", b + "/{tenantId}/groups/{groupId}", deleteEGroup).op("deleteEmbedGroup", "Delete an embed group", "Embedding").pp("tenantId", SCH_ID).pp("groupId", SCH_ID).resp(200, "#Empty");
  route("GET", b + "/{tenantId}/groups/{groupId}/members", listMembers).op("listEmbedGroupMembers", "List members of an embed group", "Embedding").pp("tenantId", SCH_ID).pp("groupId", SCH_ID).qp("first", SCH_FIRST).qp("after", SCH_CURSOR).resp(200, list("EmbedUser"));
  route("POST", b + "/{tenantId}/groups/{groupId}/members", addMembers).op("addEmbedGroupMembers", "Add members to an embed group", "Embedding").pp("tenantId", SCH_ID).pp("groupId", SCH_ID).body("#AddMembersRequest").resp(201, "data:EmbedGroup");
  route("DELETE", b + "/{tenantId}/groups/{groupId}/members/{userId}", removeMember).op("removeEmbedGroupMember", "Remove a member from an embed group", "Embedding").pp("tenantId", SCH_ID).pp("groupId", SCH_ID).pp("userId", SCH_ID).resp(200, "#Empty");
}

// Scheduled notifications under a deployment (dashboard filters and time grains).
#include <algorithm>
#include "crud.hpp"

namespace {
const std::vector<std::string> kOps = {"equals", "notEquals", "contains", "notContains", "gt", "gte", "lt", "lte",
                                       "inDateRange", "notInDateRange", "beforeDate", "afterDate", "is_empty", "is_not_empty"};
const std::vector<FieldSpec> kNote = {{"name", "string", true, {}, 200},
                                      {"workbookId", "integer", true},
                                      {"schedule", "string", true, {}, 100},
                                      {"timezone", "string", false, {}, 64},
                                      {"timeGrain", "string", false, {"hour", "day", "week", "month", "quarter", "year"}, 20},
                                      {"recipients", "strings"},
                                      {"filters", "array"},
                                      {"enabled", "boolean", false, {}, 0, false, false}};

void checkNote(const Json& f, int64_t dep) {
  if (auto w = f.get("workbookId")) {
    if (w->isInt()) {
      Item* it = findItem(dep, w->asInt());
      if (!it || it->type != "WORKBOOK") fail(422, "workbookId " + std::to_string(w->asInt()) + " is not a workbook of this deployment");
    }
  }
  if (auto s = f.get("schedule")) {
    if (s->isStr()) {
      std::vector<std::string> parts;
      for (auto& p : split(trim(s->s), ' ')) if (!p.empty()) parts.push_back(p);
      if (parts.size() != 5) fail(422, "field 'schedule' must be a 5-field cron expression");
      for (auto& p : parts)
        for (char ch : p) if (!(isdigit((unsigned char)ch) || ch == '*' || ch == '/' || ch == ',' || ch == '-')) fail(422, "field 'schedule' must be a 5-field cron expression");
    }
  }
  if (auto r = f.get("recipients")) {
    if (r->isArr())
      for (auto& e : r->a) if (e.s.find('@') == std::string::npos) fail(422, "recipients must be email addresses");
  }
  if (auto fl = f.get("filters")) {
    if (fl->isArr()) {
      for (size_t k = 0; k < fl->a.size(); k++) {
        const Json& e = fl->a[k];
        std::string p = "filters[" + std::to_string(k) + "]";
        if (!e.isObj()) fail(400, p + " must be an object");
        const Json* m = e.get("member");
        const Json* op = e.get("operator");
        if (!m || !m->isStr() || m->s.empty()) fail(400, p + ".member is required");
        if (!op || !op->isStr()) fail(400, p + ".operator is required");
        needEnum(p + ".operator", op->s, kOps);
        const Json* v = e.get("values");
        bool empty = !v || v->isNull() || (v->isArr() && v->a.empty());
        if (v && !v->isNull() && !v->isArr()) fail(400, p + ".values must be an array or null");
        if (op->s == "is_empty" || op->s == "is_not_empty") {
          if (!empty) fail(422, p + ": operator " + op->s + " takes no values");
        } else if (empty) fail(422, p + ": operator " + op->s + " needs at least one value");
      }
    }
  }
}

int64_t noteId(Ctx& c, int64_t dep) {
  int64_t id = rowId(c, S.notifications, "notificationId", "notification");
  if (S.notifications.rows[id].get("deploymentId")->asInt() != dep) fail(404, "notification '" + c.param("notificationId") + "' not found");
  return id;
}
Json dataOf(const Json& j) { return Json::object().set("data", j); }

void listNotes(Ctx& c) {
  Deployment& d = needDep(c);
  auto wb = c.q("workbookId");
  c.ok(cursorList(c, searchRows(S.notifications, c.q("search").value_or(""), {"name"}, [&](const Json& r) {
    if (r.get("deploymentId")->asInt() != d.id) return false;
    return !wb || std::to_string(r.get("workbookId")->asInt()) == *wb;
  })));
}
void createNote(Ctx& c) {
  Deployment& d = needDep(c, ROLE_AIBI);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kNote, true, sec);
  checkNote(f, d.id);
  int64_t id = S.smallId();
  Json row = Json::object().set("id", id).set("deploymentId", d.id);
  for (auto& fs : kNote) row.set(fs.name, f.get(fs.name) ? *f.get(fs.name) : Json());
  if (row.get("enabled")->isNull()) row.set("enabled", true);
  if (row.get("timezone")->isNull()) row.set("timezone", "UTC");
  if (row.get("recipients")->isNull()) row.set("recipients", Json::array());
  if (row.get("filters")->isNull()) row.set("filters", Json::array());
  row.set("createdBy", c.uid).set("createdAt", fmtTime(nowSec())).set("updatedAt", fmtTime(nowSec()));
  S.notifications.rows[id] = row;
  c.created(dataOf(row), "/api/v1/deployments/" + std::to_string(d.id) + "/notifications/" + std::to_string(id));
}
void getNote(Ctx& c) {
  Deployment& d = needDep(c);
  c.ok(dataOf(S.notifications.rows[noteId(c, d.id)]));
}
void patchNote(Ctx& c) {
  Deployment& d = needDep(c, ROLE_AIBI);
  int64_t id = noteId(c, d.id);
  std::map<std::string, std::string> sec;
  Json f = validateFields(c.body(true), kNote, false, sec);
  for (const char* k : {"name", "workbookId", "schedule"}) if (f.get(k) && f.get(k)->isNull()) fail(400, std::string("field '") + k + "' must not be null");
  checkNote(f, d.id);
  for (auto& kv : f.o) S.notifications.rows[id].set(kv.first, kv.second);
  S.notifications.rows[id].set("updatedAt", fmtTime(nowSec()));
  c.ok(dataOf(S.notifications.rows[id]));
}
void deleteNote(Ctx& c) {
  Deployment& d = needDep(c, ROLE_AIBI);
  S.notifications.rows.erase(noteId(c, d.id));
  c.ok(Json::object());
}
}  // namespace

void regNotifications() {
  const std::string b = "/api/v1/deployments/{deploymentId}/notifications";
  route("GET", b, listNotes)
      .op("listNotifications", "List scheduled notifications", "Notifications")
      .pp("deploymentId", SCH_DEPID)
      .qp("workbookId", SCH_ID)
      .qp("search", SCH_STR)
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:Notification");
  route("POST", b, createNote).op("createNotification", "Create a scheduled notification", "Notifications").pp("deploymentId", SCH_DEPID).body(fieldSchema(kNote, true)).resp(201, "data:Notification");
  route("GET", b + "/{notificationId}", getNote).op("getNotification", "Get a notification", "Notifications").pp("deploymentId", SCH_DEPID).pp("notificationId", SCH_ID).resp(200, "data:Notification");
  route("PATCH", b + "/{notificationId}", patchNote).op("updateNotification", "Update a notification (partial)", "Notifications").pp("deploymentId", SCH_DEPID).pp("notificationId", SCH_ID).body(fieldSchema(kNote, false)).resp(200, "data:Notification");
  route("DELETE", b + "/{notificationId}", deleteNote).op("deleteNotification", "Delete a notification", "Notifications").pp("deploymentId", SCH_DEPID).pp("notificationId", SCH_ID).resp(200, "#Empty");
}

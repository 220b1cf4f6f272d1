// Folders, reports, bulk delete, report placements, embed access, embed dashboards.
#include <algorithm>
#include "app.hpp"

namespace {
Json reportJson(const Item& it, const User& u) {
  Json j = workbookJson(it, u);
  j.set("title", it.title.empty() ? Json() : Json(it.title));
  j.set("description", it.description.empty() ? Json() : Json(it.description));
  j.set("sqlQuery", it.sqlQuery.empty() ? Json() : Json(it.sqlQuery));
  j.set("pythonCode", it.pythonCode.empty() ? Json() : Json(it.pythonCode));
  j.set("spec", it.spec);
  j.set("lastViewedAt", it.lastViewedAt ? Json(fmtTime(it.lastViewedAt)) : Json());
  Json pl = Json::array();
  for (auto& p : it.placements) {
    pl.push(Json::object()
                .set("placementId", p.placementId)
                .set("externalWorkbookId", p.externalWorkbookId)
                .set("sheetName", p.sheetName)
                .set("anchorCell", p.anchorCell)
                .set("createdAt", fmtTime(p.createdAt))
                .set("lastRefreshedAt", p.lastRefreshedAt ? Json(fmtTime(p.lastRefreshedAt)) : Json()));
  }
  j.set("placements", pl);
  return j;
}
Json placementJson(const Placement& p) {
  return Json::object()
      .set("placementId", p.placementId)
      .set("externalWorkbookId", p.externalWorkbookId)
      .set("sheetName", p.sheetName)
      .set("anchorCell", p.anchorCell)
      .set("createdAt", fmtTime(p.createdAt))
      .set("lastRefreshedAt", p.lastRefreshedAt ? Json(fmtTime(p.lastRefreshedAt)) : Json())
      .set("refreshCount", p.refreshCount);
}

int64_t parentParam(Ctx& c, Deployment& d, const std::string& name) {
  auto f = c.q(name);
  if (!f || f->empty() || *f == "null") return 0;
  int64_t id;
  if (!parseI64(*f, id)) fail(400, "query parameter '" + name + "' must be an integer or null");
  if (id < 0) fail(400, "query parameter '" + name + "' must be at least 0");
  if (!id) return 0;
  Item* it = findItem(d.id, id);
  if (!it || it->type != "FOLDER") fail(404, "folder " + std::to_string(id) + " not found in deployment " + std::to_string(d.id));
  if (accessLevel(c.me(), *it) < LV_READ) fail(403, "no read access to folder " + std::to_string(id));
  return id;
}

void listFolders(Ctx& c) {
  Deployment& d = needDep(c);
  User& u = c.me();
  int64_t parent = parentParam(c, d, "parentId");
  std::vector<const Item*> v;
  for (auto& kv : S.items)
    if (kv.second.dep == d.id && kv.second.type == "FOLDER" && kv.second.folderId == parent && accessLevel(u, kv.second) >= LV_READ)
      v.push_back(&kv.second);
  std::sort(v.begin(), v.end(), [](const Item* a, const Item* b) {
    if (a->createdAt != b->createdAt) return a->createdAt > b->createdAt;
    return a->id > b->id;
  });
  std::vector<Json> all;
  for (auto* it : v) all.push_back(folderJson(*it, u));
  c.ok(cursorList(c, all));
}

void createFolder(Ctx& c) {
  Deployment& d = needDep(c);
  User& u = c.me();
  if (u.role < ROLE_AIBI) fail(403, "creating a folder requires the ai-bi-user role or higher");
  Json& b = c.body(true);
  std::string name = reqStr(b, "name", 255);
  int64_t parent = optInt(b, "parentId", 0).value_or(0);
  auto pos = optInt(b, "position", 0, 1000000);
  if (parent) {
    Item* p = findItem(d.id, parent);
    if (!p || p->type != "FOLDER") fail(422, "parentId " + std::to_string(parent) + " is not a folder of this deployment");
  }
  if (folderLevel(u, parent) < LV_EDIT) fail(403, "creating a folder here requires edit access to the parent");
  if (folderDepth(parent) + 1 > 5) fail(400, "folders can be nested at most 5 levels deep");
  Item f;
  f.id = S.wsId();
  f.dep = d.id;
  f.type = "FOLDER";
  f.name = name;
  f.folderId = parent;
  f.ownerId = u.id;
  f.updatedBy = u.id;
  f.createdAt = f.updatedAt = nowSec();
  int n = 0;
  for (auto& kv : S.items) if (kv.second.dep == d.id && kv.second.type == "FOLDER" && kv.second.folderId == parent) n++;
  f.position = pos ? (int)*pos : n * 10 + 10;
  S.items[f.id] = f;
  c.created(Json::object().set("data", folderJson(f, u)),
            "/api/v1/deployments/" + std::to_string(d.id) + "/folders/" + std::to_string(f.id));
}

void getFolder(Ctx& c) {
  Deployment& d = needDep(c);
  Item& f = needWsItem(c, d, "folderId", "FOLDER", LV_READ);
  c.ok(Json::object().set("data", folderJson(f, c.me())));
}

// returns 0 when deleted, else failure status with message
int deleteOne(Deployment& d, User& u, const std::string& type, int64_t id, std::string& msg) {
  Item* it = findItem(d.id, id);
  if (!it || it->type != type) { msg = lower(type) + " " + std::to_string(id) + " not found in this deployment"; return 404; }
  int l = accessLevel(u, *it);
  int need = type == "REPORT" ? LV_EDIT : LV_MANAGE;
  if (l < need) { msg = std::string("deleting this item requires ") + (need == LV_MANAGE ? "manage" : "edit") + " access"; return 403; }
  if (type == "FOLDER") {
    for (auto& kv : S.items)
      if (kv.second.type == "FOLDER" && kv.second.folderId == id) { msg = "the folder still has sub-folders"; return 400; }
    for (auto& kv : S.items) if (kv.second.folderId == id) kv.second.folderId = 0;
    for (auto p = S.policies.begin(); p != S.policies.end();)
      p = (p->second.resourceType == "folder" && p->second.resourceId == id) ? S.policies.erase(p) : std::next(p);
    S.items.erase(id);
  } else if (type == "WORKBOOK") {
    deleteWorkbookCascade(id);
  } else {
    S.items.erase(id);
  }
  audit(&u, d.id, type == "WORKBOOK" ? "Workbook deleted" : type == "FOLDER" ? "Folder deleted" : "Report deleted",
        Json::object().set("id", id));
  return 0;
}

void deleteFolder(Ctx& c) {
  Deployment& d = needDep(c);
  int64_t id = parseIdParam(c, "folderId");
  std::string msg;
  int st = deleteOne(d, c.me(), "FOLDER", id, msg);
  if (st) fail(st, msg);
  c.ok(Json::object());
}

void bulkDelete(Ctx& c) {
  Deployment& d = needDep(c);
  User& u = c.me();
  Json& b = c.body(true);
  const Json* items = b.get("items");
  if (!items || items->isNull()) fail(400, "field 'items' is required");
  if (!items->isArr()) fail(400, "field 'items' must be an array");
  if (items->a.empty()) fail(400, "field 'items' must contain at least one item");
  std::vector<std::pair<std::string, int64_t>> list;
  for (size_t k = 0; k < items->a.size(); k++) {
    const Json& e = items->a[k];
    std::string p = "items[" + std::to_string(k) + "]";
    if (!e.isObj()) fail(400, p + " must be an object with type and id");
    const Json* t = e.get("type");
    const Json* id = e.get("id");
    if (!t || !t->isStr()) fail(400, p + ".type is required");
    if (t->s != "WORKBOOK" && t->s != "REPORT" && t->s != "FOLDER") fail(422, p + ".type must be WORKBOOK, REPORT or FOLDER");
    if (!id || !id->isInt()) fail(400, p + ".id is required and must be an integer");
    std::pair<std::string, int64_t> key{t->s, id->asInt()};
    if (std::find(list.begin(), list.end(), key) == list.end()) list.push_back(key);
  }
  if (list.size() > 100) fail(400, "at most 100 distinct items can be deleted at once");
  Json deleted = Json::array(), failed = Json::array();
  for (auto& k : list) {
    std::string msg;
    int st = deleteOne(d, u, k.first, k.second, msg);
    if (!st) deleted.push(Json::object().set("type", k.first).set("id", k.second));
    else
      failed.push(Json::object().set("type", k.first).set("id", k.second).set("error", Json::object().set("status", st).set("message", msg)));
  }
  c.ok(Json::object().set("deleted", deleted).set("failed", failed));
}

void listReports(Ctx& c) {
  Deployment& d = needDep(c);
  User& u = c.me();
  bool filter = c.q("folderId").has_value();
  int64_t folder = parentParam(c, d, "folderId");
  auto ext = c.q("externalWorkbookId");
  std::string search = c.q("search").value_or("");
  std::string sortBy = c.q("sortBy").value_or("name");
  if (sortBy != "createdAt" && sortBy != "updatedAt" && sortBy != "lastViewedAt" && sortBy != "name")
    fail(400, "query parameter 'sortBy' must be createdAt, updatedAt, lastViewedAt or name");
  std::vector<const Item*> v;
  for (auto& kv : S.items) {
    const Item& it = kv.second;
    if (it.dep != d.id || it.type != "REPORT") continue;
    if (filter && it.folderId != folder) continue;
    if (ext) {
      bool hit = false;
      for (auto& p : it.placements) if (p.externalWorkbookId == *ext) hit = true;
      if (!hit) continue;
    }
    if (!search.empty() && !icontains(it.name, search) && !icontains(it.title, search)) continue;
    if (accessLevel(u, it) < LV_READ) continue;
    v.push_back(&it);
  }
  std::sort(v.begin(), v.end(), [&](const Item* a, const Item* b) {
    if (sortBy == "createdAt" && a->createdAt != b->createdAt) return a->createdAt < b->createdAt;
    if (sortBy == "updatedAt" && a->updatedAt != b->updatedAt) return a->updatedAt > b->updatedAt;
    if (sortBy == "lastViewedAt" && a->lastViewedAt != b->lastViewedAt) {
      if (!a->lastViewedAt || !b->lastViewedAt) return a->lastViewedAt != 0;
      return a->lastViewedAt > b->lastViewedAt;
    }
    if (sortBy == "name") {
      std::string x = lower(a->name), y = lower(b->name);
      if (x != y) return x < y;
    }
    return a->id < b->id;
  });
  std::vector<Json> all;
  for (auto* it : v) all.push_back(reportJson(*it, u));
  if (sortBy == "lastViewedAt") {
    if (c.q("after")) fail(400, "cursor pagination is not available when sorting by lastViewedAt; omit 'after'");
    size_t n = std::min<size_t>(all.size(), (size_t)std::min<int64_t>(c.qInt("first", 1).value_or(INT32_MAX), INT32_MAX));
    Json items = Json::array();
    for (size_t k = 0; k < n; k++) items.push(all[k]);
    Json pi = Json::object().set("hasNextPage", false).set("hasPreviousPage", false).set("startCursor", Json()).set("endCursor", Json());
    c.ok(Json::object().set("items", items).set("pageInfo", pi).set("data", items).set("count", (int64_t)all.size()));
    return;
  }
  c.ok(cursorList(c, all));
}

void getReport(Ctx& c) {
  Deployment& d = needDep(c);
  Item& r = needWsItem(c, d, "reportId", "REPORT", LV_READ);
  r.lastViewedAt = nowSec();
  c.ok(Json::object().set("data", reportJson(r, c.me())));
}

void applyReportFields(Item& r, const Json& b) {
  if (auto v = optStr(b, "name", 255, true)) r.name = *v;
  if (auto v = optStr(b, "kind", 20)) {
    needEnum("kind", *v, {"vega", "table", "kpi", "html", "map"});
    r.kind = *v;
  } else if (isNullField(b, "kind")) r.kind.clear();
  if (b.has("sqlQuery")) r.sqlQuery = optStr(b, "sqlQuery", 200000).value_or("");
  if (b.has("pythonCode")) r.pythonCode = optStr(b, "pythonCode", 200000).value_or("");
  if (b.has("title")) r.title = optStr(b, "title", 500).value_or("");
  if (b.has("description")) r.description = optStr(b, "description", 5000).value_or("");
  if (const Json* s = b.get("spec")) {
    if (!s->isNull() && !s->isStr() && !s->isObj()) fail(400, "field 'spec' must be a string, an object or null");
    r.spec = *s;
  }
  if (const Json* m = b.get("meta")) {
    if (!m->isNull() && !m->isObj()) fail(400, "field 'meta' must be an object");
    r.meta = m->isNull() ? Json::object() : *m;
  }
}

void upsertReportByPublicId(Ctx& c) {
  Deployment& d = needDep(c);
  User& u = c.me();
  std::string pid = c.param("publicId");
  if (pid.empty() || pid.size() > 64) fail(400, "publicId must be 1 to 64 characters");
  for (char ch : pid) if (!(isalnum((unsigned char)ch) || ch == '-' || ch == '_')) fail(400, "publicId may contain only letters, digits, '-' and '_'");
  Json& b = c.body(true);
  Item* ex = nullptr;
  for (auto& kv : S.items) if (kv.second.dep == d.id && kv.second.type == "REPORT" && kv.second.publicId == pid) ex = &kv.second;
  if (ex) {
    if (accessLevel(u, *ex) < LV_EDIT) fail(403, "updating this report requires edit access");
    Item copy = *ex;
    applyReportFields(copy, b);
    if (auto wb = optInt(b, "workbookId", 0)) if (*wb != copy.workbookId) fail(422, "a report cannot be moved to another workbook");
    bool changed = copy.name != ex->name || copy.kind != ex->kind || copy.sqlQuery != ex->sqlQuery || copy.pythonCode != ex->pythonCode ||
                   copy.title != ex->title || copy.description != ex->description || copy.spec != ex->spec || copy.meta != ex->meta;
    *ex = copy;
    if (changed) touch(*ex, u);
    c.ok(Json::object().set("data", reportJson(*ex, u)));
    return;
  }
  auto wb = optInt(b, "workbookId", 1);
  if (!wb) fail(400, "field 'workbookId' is required to create a report");
  Item* w = findItem(d.id, *wb);
  if (!w || w->type != "WORKBOOK") fail(404, "workbook " + std::to_string(*wb) + " not found in deployment " + std::to_string(d.id));
  if (accessLevel(u, *w) < LV_EDIT) fail(403, "adding a report requires edit access to the workbook");
  reqStr(b, "name", 255);
  Item r;
  r.id = S.wsId();
  r.dep = d.id;
  r.type = "REPORT";
  r.publicId = pid;
  r.workbookId = w->id;
  r.folderId = w->folderId;
  r.ownerId = u.id;
  r.updatedBy = u.id;
  r.createdAt = r.updatedAt = nowSec();
  applyReportFields(r, b);
  S.items[r.id] = r;
  c.created(Json::object().set("data", reportJson(r, u)),
            "/api/v1/deployments/" + std::to_string(d.id) + "/reports/" + std::to_string(r.id));
}

struct Address {
  std::string placementId, ext, sheet, anchor;
};
Address readAddress(Ctx& c, bool allowQuery) {
  Json& b = c.body(false);
  Address a;
  a.placementId = optStr(b, "placementId", 100).value_or("");
  a.ext = optStr(b, "externalWorkbookId", 300).value_or("");
  a.sheet = optStr(b, "sheetName", 300).value_or("");
  a.anchor = optStr(b, "anchorCell", 20).value_or("");
  if (allowQuery) {
    if (a.placementId.empty()) a.placementId = c.q("placementId").value_or("");
    if (a.ext.empty()) a.ext = c.q("externalWorkbookId").value_or("");
    if (a.sheet.empty()) a.sheet = c.q("sheetName").value_or("");
    if (a.anchor.empty()) a.anchor = c.q("anchorCell").value_or("");
  }
  a.anchor = upper(a.anchor);
  return a;
}
bool validAnchor(const std::string& s) {
  size_t k = 0;
  while (k < s.size() && isupper((unsigned char)s[k])) k++;
  if (k == 0 || k > 3 || k >= s.size() || s[k] == '0') return false;
  size_t digits = s.size() - k;
  if (digits > 7) return false;
  for (; k < s.size(); k++) if (!isdigit((unsigned char)s[k])) return false;
  return true;
}
Placement* findPlacement(Item& r, const Address& a) {
  for (auto& p : r.placements) {
    if (!a.placementId.empty()) { if (p.placementId == a.placementId) return &p; continue; }
    if (p.externalWorkbookId == a.ext && p.sheetName == a.sheet && p.anchorCell == a.anchor) return &p;
  }
  return nullptr;
}
void needAddress(const Address& a) {
  if (!a.placementId.empty()) return;
  if (a.ext.empty() || a.sheet.empty() || a.anchor.empty())
    fail(400, "address the placement by placementId, or by externalWorkbookId + sheetName + anchorCell");
  if (!validAnchor(a.anchor)) fail(422, "anchorCell must be an A1-style cell reference");
}

void connectWorkbook(Ctx& c) {
  Deployment& d = needDep(c);
  Item& r = needWsItem(c, d, "reportId", "REPORT", LV_READ);
  Address a = readAddress(c, false);
  needAddress(a);
  if (!a.placementId.empty()) {
    Placement* p = findPlacement(r, a);
    if (!p) fail(404, "placement '" + a.placementId + "' not found on report " + std::to_string(r.id));
    if (!a.sheet.empty()) p->sheetName = a.sheet;
    if (!a.anchor.empty()) {
      if (!validAnchor(a.anchor)) fail(422, "anchorCell must be an A1-style cell reference");
      p->anchorCell = a.anchor;
    }
    c.ok(Json::object().set("data", Json::object().set("reportId", r.id).set("placement", placementJson(*p)).set("created", false)));
    return;
  }
  if (Placement* p = findPlacement(r, a)) {
    c.ok(Json::object().set("data", Json::object().set("reportId", r.id).set("placement", placementJson(*p)).set("created", false)));
    return;
  }
  Placement p;
  p.placementId = "plc_" + randBase62(12);
  p.externalWorkbookId = a.ext;
  p.sheetName = a.sheet;
  p.anchorCell = a.anchor;
  p.createdAt = nowSec();
  p.createdBy = c.uid;
  r.placements.push_back(p);
  c.created(Json::object().set("data", Json::object().set("reportId", r.id).set("placement", placementJson(p)).set("created", true)), "");
}

void disconnectWorkbook(Ctx& c) {
  Deployment& d = needDep(c);
  Item& r = needWsItem(c, d, "reportId", "REPORT", LV_READ);
  Address a = readAddress(c, true);
  needAddress(a);
  Placement* p = findPlacement(r, a);
  if (!p) fail(404, "no such placement on report " + std::to_string(r.id));
  std::string id = p->placementId;
  r.placements.erase(std::remove_if(r.placements.begin(), r.placements.end(), [&](const Placement& x) { return x.placementId == id; }),
                     r.placements.end());
  c.ok(Json::object());
}

void refreshPlacement(Ctx& c) {
  Deployment& d = needDep(c);
  Item& r = needWsItem(c, d, "reportId", "REPORT", LV_READ);
  Address a = readAddress(c, false);
  needAddress(a);
  Placement* p = findPlacement(r, a);
  if (!p) fail(404, "no such placement on report " + std::to_string(r.id));
  p->lastRefreshedAt = nowSec();
  p->refreshCount++;
  c.ok(Json::object().set("data", Json::object()
                                      .set("reportId", r.id)
                                      .set("placement", placementJson(*p))
                                      .set("rowCount", 12 + (int64_t)(r.id % 40))
                                      .set("refreshedAt", fmtTime(p->lastRefreshedAt))));
}

Json embedAccessJson(const Item& w) {
  Json t = Json::array();
  for (auto& kv : w.embedTenants) {
    auto row = S.embedTenants.rows.find(kv.first);
    t.push(Json::object()
               .set("tenantId", kv.first)
               .set("tenantName", row == S.embedTenants.rows.end() ? Json() : *row->second.get("name"))
               .set("action", kv.second));
  }
  return Json::object().set("workbookId", w.id).set("allEmbedUsers", w.embedAll).set("tenants", t);
}

void getEmbedAccess(Ctx& c) {
  Deployment& d = needDep(c);
  Item& w = needWsItem(c, d, "workbookId", "WORKBOOK", LV_READ);
  c.ok(Json::object().set("data", embedAccessJson(w)));
}

void putEmbedAccess(Ctx& c) {
  Deployment& d = needDep(c);
  Item& w = needWsItem(c, d, "workbookId", "WORKBOOK", LV_MANAGE);
  Json& b = c.body(true);
  std::string action = reqStr(b, "action", 10);
  needEnum("action", action, {"read", "none"});
  auto all = optBool(b, "allEmbedUsers");
  auto tenant = optInt(b, "tenantId", 1);
  if (!tenant && !(all && *all)) fail(400, "send tenantId, or allEmbedUsers: true");
  if (tenant && all && *all) fail(400, "send either tenantId or allEmbedUsers, not both");
  if (tenant) {
    if (!S.embedTenants.rows.count(*tenant)) fail(404, "embed tenant " + std::to_string(*tenant) + " not found");
    if (action == "none") w.embedTenants.erase(*tenant);
    else w.embedTenants[*tenant] = action;
  } else {
    w.embedAll = action;
  }
  c.ok(Json::object().set("data", embedAccessJson(w)));
}

Dashboard& dashByPublicId(Ctx& c, int minLevel) {
  std::string pid = c.param("publicId");
  User& u = c.me();
  for (auto& kv : S.dashboards) {
    if (kv.second.publicId != pid) continue;
    auto dep = S.deps.find(kv.second.dep);
    if (dep == S.deps.end()) break;
    if (!canSeeDep(u, dep->second)) fail(403, "this API key has no access to the dashboard's deployment");
    auto w = S.items.find(kv.second.workbookId);
    if (w == S.items.end()) break;
    int l = accessLevel(u, w->second);
    if (l < LV_READ) fail(403, "no read access to this dashboard");
    if (l < minLevel) fail(403, "changing embedding requires manage access to the workbook");
    return kv.second;
  }
  fail(404, "dashboard '" + pid + "' not found");
}

void patchEmbedDashboard(Ctx& c) {
  Dashboard& d = dashByPublicId(c, LV_MANAGE);
  Json& b = c.body(true);
  auto v = optBool(b, "allowEmbed");
  if (!v) v = optBool(b, "enabled");
  if (!v) fail(400, "field 'allowEmbed' (boolean) is required");
  d.allowEmbed = *v;
  c.ok(Json::object().set("data", dashboardJson(d)));
}

void pythonRun(Ctx& c) {
  Dashboard& d = dashByPublicId(c, LV_READ);
  Json& b = c.body(true);
  auto rid = optInt(b, "reportId", 1);
  if (!rid) fail(400, "field 'reportId' is required");
  const Json* snap = nullptr;
  for (auto& s : d.snapshots) if (s.get("reportId") && s.get("reportId")->asInt() == *rid) snap = &s;
  if (!snap) fail(404, "report " + std::to_string(*rid) + " is not part of this dashboard");
  const Json* code = snap->get("pythonCode");
  if (!code || !code->isStr() || code->s.empty()) fail(422, "report " + std::to_string(*rid) + " is not a Python report");
  int nf = 0;
  if (const Json* f = b.get("filters")) {
    if (!f->isNull() && !f->isArr()) fail(400, "field 'filters' must be an array");
    if (f->isArr()) {
      for (size_t k = 0; k < f->a.size(); k++) {
        const Json& e = f->a[k];
        if (!e.isObj() || !e.get("member") || !e.get("member")->isStr() || !e.get("operator") || !e.get("operator")->isStr())
          fail(400, "filters[" + std::to_string(k) + "] needs member and operator strings");
      }
      nf = (int)f->a.size();
    }
  }
  Json rows = Json::array();
  const char* st[] = {"completed", "processing", "shipped", "cancelled"};
  for (int k = 0; k < 4; k++) rows.push(Json::array().push(st[k]).push((int64_t)(100 / (k + 1 + nf))));
  c.ok(Json::object().set("data", Json::object()
                                      .set("reportId", *rid)
                                      .set("columns", Json::array().push("status").push("n"))
                                      .set("rows", rows)
                                      .set("stdout", "executed with " + std::to_string(nf) + " filter(s)\n")
                                      .set("durationMs", 42)));
}
}  // namespace

void regWorkspace() {
  route("POST", "/api/v1/deployments/{deploymentId}/workspace/bulk-delete", bulkDelete)
      .op("bulkDeleteWorkspaceItems", "Delete workspace items in bulk", "Workspace")
      .pp("deploymentId", SCH_DEPID)
      .body("#BulkDeleteRequest")
      .resp(200, "#BulkDeleteResponse");
  route("GET", "/api/v1/deployments/{deploymentId}/folders", listFolders)
      .op("listFolders", "List one level of folders", "Workspace")
      .pp("deploymentId", SCH_DEPID)
      .qp("parentId", R"J({"type":["integer","null"],"minimum":0})J")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:Folder");
  route("POST", "/api/v1/deployments/{deploymentId}/folders", createFolder)
      .op("createFolder", "Create a folder", "Workspace")
      .pp("deploymentId", SCH_DEPID)
      .body("#CreateFolderRequest")
      .resp(201, "data:Folder");
  route("GET", "/api/v1/deployments/{deploymentId}/folders/{folderId}", getFolder)
      .op("getFolder", "Get a folder", "Workspace")
      .pp("deploymentId", SCH_DEPID)
      .pp("folderId", SCH_ID)
      .resp(200, "data:Folder");
  route("DELETE", "/api/v1/deployments/{deploymentId}/folders/{folderId}", deleteFolder)
      .op("deleteFolder", "Delete a folder (its direct contents move to the root)", "Workspace")
      .pp("deploymentId", SCH_DEPID)
      .pp("folderId", SCH_ID)
      .resp(200, "#Empty");
  route("GET", "/api/v1/deployments/{deploymentId}/reports", listReports)
      .op("listReports", "List reports", "Reports")
      .pp("deploymentId", SCH_DEPID)
      .qp("folderId", R"J({"type":["integer","null"],"minimum":0})J")
      .qp("externalWorkbookId", SCH_STR)
      .qp("search", SCH_STR)
      .qp("sortBy", R"J({"type":"string","enum":["createdAt","updatedAt","lastViewedAt","name"],"default":"name"})J")
      .qp("first", SCH_FIRST)
      .qp("after", R"J({"type":"string","description":"opaque cursor; not available with sortBy=lastViewedAt"})J")
      .resp(200, "list:Report");
  route("GET", "/api/v1/deployments/{deploymentId}/reports/{reportId}", getReport)
      .op("getReport", "Get a report (records a view)", "Reports")
      .pp("deploymentId", SCH_DEPID)
      .pp("reportId", SCH_ID)
      .resp(200, "data:Report");
  route("PUT", "/api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}", upsertReportByPublicId)
      .op("upsertReportByPublicId", "Create or update a report by public id", "Reports")
      .pp("deploymentId", SCH_DEPID)
      .body("#UpsertReportRequest")
      .resp(200, "data:Report")
      .resp(201, "data:Report");
  route("PUT", "/api/v1/deployments/{deploymentId}/reports/{reportId}/connect-workbook", connectWorkbook)
      .op("connectReportToSpreadsheet", "Place a report in a spreadsheet", "Reports")
      .pp("deploymentId", SCH_DEPID)
      .pp("reportId", SCH_ID)
      .body("#PlacementAddress")
      .resp(200, "#PlacementResponse")
      .resp(201, "#PlacementResponse");
  route("DELETE", "/api/v1/deployments/{deploymentId}/reports/{reportId}/connect-workbook", disconnectWorkbook)
      .op("disconnectReportFromSpreadsheet", "Remove a placement", "Reports")
      .desc("The placement is addressed in a JSON body or in query parameters.")
      .pp("deploymentId", SCH_DEPID)
      .pp("reportId", SCH_ID)
      .qp("placementId", SCH_STR)
      .qp("externalWorkbookId", SCH_STR)
      .qp("sheetName", SCH_STR)
      .qp("anchorCell", SCH_STR)
      .body("#PlacementAddress", false)
      .resp(200, "#Empty");
  route("PUT", "/api/v1/deployments/{deploymentId}/reports/{reportId}/refresh", refreshPlacement)
      .op("refreshPlacement", "Refresh a placement", "Reports")
      .pp("deploymentId", SCH_DEPID)
      .pp("reportId", SCH_ID)
      .body("#PlacementAddress")
      .resp(200, "#RefreshResponse");
  route("GET", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access", getEmbedAccess)
      .op("getEmbedAccess", "Dashboard access per embed tenant", "Embedding")
      .pp("deploymentId", SCH_DEPID)
      .pp("workbookId", SCH_ID)
      .resp(200, "data:EmbedAccess");
  route("PUT", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access", putEmbedAccess)
      .op("setEmbedAccess", "Change dashboard access for a tenant or all embed users", "Embedding")
      .pp("deploymentId", SCH_DEPID)
      .pp("workbookId", SCH_ID)
      .body("#EmbedAccessRequest")
      .resp(200, "data:EmbedAccess");
  route("PATCH", "/api/v1/embed/dashboard/{publicId}", patchEmbedDashboard)
      .op("setDashboardEmbedding", "Enable or disable signed embedding", "Embedding")
      .body("#EmbedDashboardRequest")
      .resp(200, "data:Dashboard");
  route("POST", "/api/v1/embed/dashboard/{publicId}/python-run", pythonRun)
      .op("runDashboardPython", "Run a Python report with dashboard filters", "Embedding")
      .body("#PythonRunRequest")
      .resp(200, "#PythonRunResponse");
}

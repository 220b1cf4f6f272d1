// E8 list, E9 get, E10 clone, E11 upsert by slug, E12 bulk move, workbook create.
#include <algorithm>
#include <chrono>
#include <thread>
#include "app.hpp"

namespace {
void remapIds(Json& j, const std::map<int64_t, int64_t>& m) {
  if (j.isObj()) {
    for (auto& kv : j.o) {
      if ((kv.first == "reportId") && kv.second.isInt()) {
        auto f = m.find(kv.second.asInt());
        if (f != m.end()) kv.second = Json(f->second);
      } else if (kv.first == "reportIds" && kv.second.isArr()) {
        for (auto& e : kv.second.a)
          if (e.isInt()) { auto f = m.find(e.asInt()); if (f != m.end()) e = Json(f->second); }
      } else remapIds(kv.second, m);
    }
  } else if (j.isArr()) {
    for (auto& e : j.a) remapIds(e, m);
  }
}

void deepMerge(Json& dst, const Json& patch) {
  for (auto& kv : patch.o) {
    if (kv.second.isNull()) { dst.erase(kv.first); continue; }
    Json* cur = dst.get(kv.first);
    if (cur && cur->isObj() && kv.second.isObj() && kv.first != "dashboardDraft") deepMerge(*cur, kv.second);
    else dst.set(kv.first, kv.second);
  }
}

void listWorkbooks(Ctx& c) {
  Deployment& d = needDep(c);
  User& u = c.me();
  bool filter = false;
  int64_t folder = 0;
  if (auto f = c.q("folderId")) {
    filter = true;
    if (*f == "null" || f->empty()) folder = 0;
    else {
      if (!parseI64(*f, folder)) fail(400, "query parameter 'folderId' must be an integer or null");
      if (folder < 0) fail(400, "query parameter 'folderId' must be at least 0");
      if (folder) {
        Item* it = findItem(d.id, folder);
        if (!it || it->type != "FOLDER") fail(404, "folder " + std::to_string(folder) + " not found in deployment " + std::to_string(d.id));
        if (accessLevel(u, *it) < LV_READ) fail(403, "no read access to folder " + std::to_string(folder));
      }
    }
  }
  std::vector<const Item*> v;
  for (auto& kv : S.items) {
    const Item& it = kv.second;
    if (it.dep != d.id || it.type != "WORKBOOK") continue;
    if (filter && it.folderId != folder) continue;
    if (accessLevel(u, it) < LV_READ) continue;
    v.push_back(&it);
  }
  std::sort(v.begin(), v.end(), [](const Item* a, const Item* b) {
    if (a->updatedAt != b->updatedAt) return a->updatedAt > b->updatedAt;
    return a->id < b->id;
  });
  std::vector<Json> all;
  for (auto* it : v) all.push_back(workbookJson(*it, u));
  c.ok(cursorList(c, all));
}

void getWorkbook(Ctx& c) {
  Deployment& d = needDep(c);
  Item& it = needWsItem(c, d, "workbookId", "", LV_READ);
  c.ok(workbookJson(it, c.me()));
}

int64_t copyReport(const Item& src, int64_t newWb, int64_t folder, const User& u) {
  Item r = src;
  r.id = S.wsId();
  r.workbookId = newWb;
  r.folderId = folder;
  r.ownerId = u.id;
  r.publicId = newPublicId();
  r.createdAt = r.updatedAt = nowSec();
  r.dateOnly = false;
  r.updatedBy = u.id;
  r.placements.clear();
  r.lastViewedAt = 0;
  r.favoritedBy.clear();
  S.items[r.id] = r;
  return r.id;
}

void checkLimit(const Deployment& d) {
  if (d.workbookLimit && countWorkbooks(d.id) >= d.workbookLimit)
    fail(400, "the workbook limit of the plan (" + std::to_string(d.workbookLimit) + ") has been reached", "WorkbookLimitReached");
}

Item newWorkbookShell(const Deployment& d, const std::string& name, int64_t folder, const User& u) {
  Item w;
  w.id = S.wsId();
  w.dep = d.id;
  w.type = "WORKBOOK";
  w.name = name;
  w.folderId = folder;
  w.ownerId = u.id;
  w.createdAt = w.updatedAt = nowSec();
  w.updatedBy = u.id;
  return w;
}

void duplicate(Ctx& c) {
  Deployment& d = needDep(c);
  User& u = c.me();
  Json& b = c.body(false);
  bool shared = optBool(b, "shared").value_or(false);
  int64_t id = parseIdParam(c, "workbookId");
  if (shared && !u.creatorMode) fail(403, "cloning from the shared workspace is only available to creator-mode embed sessions");
  Item* src = findItem(d.id, id);
  if (!src || src->type != "WORKBOOK") fail(404, "workbook " + std::to_string(id) + " not found in deployment " + std::to_string(d.id));
  if (!shared && accessLevel(u, *src) < LV_READ) fail(403, "no read access to workbook " + std::to_string(id));
  if (u.role < ROLE_AIBI) fail(403, "cloning a workbook requires the ai-bi-user role or higher");
  const Dashboard* dash = nullptr;
  if (src->dashboardId) {
    auto p = S.dashboards.find(src->dashboardId);
    if (p != S.dashboards.end() && p->second.status == "published") dash = &p->second;
  }
  if (shared && !dash) fail(400, "the shared workbook has no published dashboard to clone from");
  checkLimit(d);
  int64_t folder = 0;
  if (!shared && src->folderId && folderLevel(u, src->folderId) >= LV_EDIT) folder = src->folderId;
  Item w = newWorkbookShell(d, "Copy of " + src->name, folder, u);
  w.meta = src->meta;
  w.calc = src->calc;
  int64_t wid = w.id;
  int64_t srcId = src->id;
  S.items[wid] = w;
  src = &S.items[srcId];
  std::map<int64_t, int64_t> map;
  if (!shared) {
    std::vector<int64_t> reps;
    for (auto& kv : S.items) if (kv.second.type == "REPORT" && kv.second.workbookId == srcId) reps.push_back(kv.first);
    for (auto r : reps) map[r] = copyReport(S.items[r], wid, folder, u);
    Json draft = S.items[srcId].draft;
    remapIds(draft, map);
    S.items[wid].draft = draft;
  } else {
    for (auto& snap : dash->snapshots) {
      Item r;
      r.id = S.wsId();
      r.dep = d.id;
      r.type = "REPORT";
      auto str = [&](const char* k) { const Json* v = snap.get(k); return v && v->isStr() ? v->s : std::string(); };
      r.name = str("name").empty() ? (str("title").empty() ? "Report" : str("title")) : str("name");
      r.title = str("title");
      r.description = str("description");
      r.kind = str("kind");
      r.sqlQuery = str("sqlQuery");
      r.pythonCode = str("pythonCode");
      if (const Json* s = snap.get("spec")) r.spec = *s;
      if (const Json* m = snap.get("meta")) if (m->isObj()) r.meta = *m;
      r.workbookId = wid;
      r.folderId = 0;
      r.ownerId = u.id;
      r.publicId = newPublicId();
      r.createdAt = r.updatedAt = nowSec();
      S.items[r.id] = r;
      if (const Json* rid = snap.get("reportId")) map[rid->asInt()] = r.id;
    }
  }
  if (dash) {
    Dashboard nd = *dash;
    nd.id = S.wsId();
    nd.workbookId = wid;
    nd.publicId = newPublicId();
    nd.versionId = S.wsId();
    nd.versionNumber = 1;
    nd.status = "published";
    nd.allowEmbed = false;
    nd.createdBy = u.id;
    nd.createdAt = nowSec();
    nd.fromShared = shared;
    remapIds(nd.config, map);
    for (auto& s : nd.snapshots) {
      s.set("id", S.wsId());
      s.set("versionNumber", 1);
      remapIds(s, map);
    }
    if (shared) {
      Json draft = nd.config;
      S.items[wid].draft = draft;
    }
    S.dashboards[nd.id] = nd;
    S.items[wid].dashboardId = nd.id;
  }
  audit(&u, d.id, "Workbook created", Json::object().set("workbookId", wid).set("clonedFrom", srcId).set("shared", shared));
  c.ok(workbookJson(S.items[wid], u));
}

Item* bySlug(int64_t dep, const std::string& slug) {
  for (auto& kv : S.items)
    if (kv.second.dep == dep && kv.second.type == "WORKBOOK" && kv.second.hasSlug && kv.second.slug == slug) return &kv.second;
  return nullptr;
}

void upsertBySlug(Ctx& c) {
  std::unique_lock<std::mutex> lk(g_mu);
  Deployment& d0 = needDep(c);
  int64_t depId = d0.id;
  std::string slug = lower(trim(c.param("slug")));
  if (slug.empty() || slug.size() > 100) fail(400, "the slug must be 1 to 100 characters after trimming");
  for (unsigned char ch : slug) if (ch < 0x20 || ch == 0x7f || ch == '/') fail(400, "the slug must not contain control characters or '/'");
  Json& b = c.body(false);
  auto name = optStr(b, "name", 255, true);
  bool hasFolder = b.has("folderId");
  auto folder = optInt(b, "folderId", 0);
  int64_t dest = folder.value_or(0);
  const Json* metaP = b.get("meta");
  Json meta;
  bool hasMeta = metaP && !metaP->isNull();
  if (hasMeta) {
    if (!metaP->isObj()) fail(400, "field 'meta' must be an object");
    meta = *metaP;
    if (Json* dd = meta.get("dashboardDraft")) validateDashboardConfig(*dd, "meta.dashboardDraft");
  }
  if (dest) {
    Item* f = findItem(depId, dest);
    if (!f || f->type != "FOLDER") fail(422, "folderId " + std::to_string(dest) + " is not a folder of deployment " + std::to_string(depId));
  }
  User& u = c.me();
  Item* ex = bySlug(depId, slug);
  int64_t decided = ex ? ex->id : 0;
  if (ex) {
    int l = accessLevel(u, *ex);
    if (l < LV_EDIT) fail(403, "updating this workbook requires edit access");
    if (hasFolder && (l < LV_MANAGE || folderLevel(u, dest) < LV_EDIT))
      fail(403, "moving a workbook requires manage access to it and edit access to the destination folder");
  } else {
    if (u.role < ROLE_AIBI) fail(403, "creating a workbook requires the ai-bi-user role or higher");
    if (folderLevel(u, dest) < LV_EDIT) fail(403, "creating a workbook here requires edit access to the destination folder");
    checkLimit(d0);
  }
  // the decision is taken; apply it in a separate step
  lk.unlock();
  std::this_thread::sleep_for(std::chrono::milliseconds(25));
  lk.lock();
  auto dp = S.deps.find(depId);
  if (dp == S.deps.end()) fail(404, "deployment " + std::to_string(depId) + " not found");
  Item* now = bySlug(depId, slug);
  if ((now ? now->id : 0) != decided)
    throw ApiError(409, "the workbook holding slug '" + slug + "' was created or deleted concurrently; retry the request", "Conflict",
                   Json::object().set("code", "upsert_branch_changed"));
  if (dest && !findItem(depId, dest))
    throw ApiError(409, "the destination folder was deleted concurrently; retry the request", "Conflict",
                   Json::object().set("code", "upsert_branch_changed"));
  User& me = c.me();
  if (!now) {
    Item w = newWorkbookShell(dp->second, name ? *name : "Workbook " + slug, dest, me);
    w.slug = slug;
    w.hasSlug = true;
    if (hasMeta) {
      Json m = Json::object();
      deepMerge(m, meta);
      w.meta = m;
      if (const Json* dd = m.get("dashboardDraft")) w.draft = *dd;
    }
    int64_t id = w.id;
    S.items[id] = w;
    audit(&me, depId, "Workbook created", Json::object().set("workbookId", id).set("slug", slug));
    c.ok(workbookJson(S.items[id], me));
    return;
  }
  bool changed = false;
  if (name && *name != now->name) { now->name = *name; changed = true; }
  if (hasFolder && dest != now->folderId) {
    int64_t old = now->folderId;
    now->folderId = dest;
    for (auto& kv : S.items)
      if (kv.second.type == "REPORT" && kv.second.workbookId == now->id && kv.second.folderId == old) kv.second.folderId = dest;
    changed = true;
  }
  if (hasMeta) {
    Json m = now->meta;
    deepMerge(m, meta);
    if (m != now->meta) { now->meta = m; changed = true; }
    if (meta.has("dashboardDraft")) {
      Json dd = m.has("dashboardDraft") ? *m.get("dashboardDraft") : Json();
      if (dd != now->draft) { now->draft = dd; changed = true; }
    }
  }
  if (changed) touch(*now, me);
  c.ok(workbookJson(*now, me));
}

int heightBelow(int64_t folderId, int guard = 0) {
  int h = 0;
  if (guard > 64) return 0;
  for (auto& kv : S.items)
    if (kv.second.type == "FOLDER" && kv.second.folderId == folderId) h = std::max(h, 1 + heightBelow(kv.first, guard + 1));
  return h;
}

void bulkMove(Ctx& c) {
  Deployment& d = needDep(c);
  User& u = c.me();
  Json& b = c.body(true);
  const Json* items = b.get("items");
  if (!items || items->isNull()) fail(400, "field 'items' is required");
  if (!items->isArr()) fail(400, "field 'items' must be an array");
  if (items->a.empty()) fail(400, "field 'items' must contain at least one item");
  auto dest = optInt(b, "folderId", 0);
  int64_t to = dest.value_or(0);
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
  if (list.size() > 100) fail(400, "at most 100 distinct items can be moved at once");
  Json moved = Json::array(), failed = Json::array();
  auto fl = [&](const std::pair<std::string, int64_t>& k, int st, const std::string& m) {
    failed.push(Json::object().set("type", k.first).set("id", k.second).set("error", Json::object().set("message", m).set("status", st)));
  };
  for (auto& k : list) {
    Item* it = findItem(d.id, k.second);
    if (!it || it->type != k.first) { fl(k, 404, lower(k.first) + " " + std::to_string(k.second) + " not found in this deployment"); continue; }
    int l = accessLevel(u, *it);
    if (l < LV_MANAGE) { fl(k, 403, "moving this item requires manage access"); continue; }
    if (to) {
      Item* f = findItem(d.id, to);
      if (!f || f->type != "FOLDER") { fl(k, 400, "destination folder " + std::to_string(to) + " does not exist"); continue; }
      if (k.first == "FOLDER") {
        bool cyc = to == it->id;
        for (int64_t a : folderChain(*f)) if (a == it->id) cyc = true;
        if (cyc) { fl(k, 400, "a folder cannot be moved into itself or one of its descendants"); continue; }
        if (folderDepth(to) + 1 + heightBelow(it->id) > 5) { fl(k, 400, "the move would nest folders deeper than 5 levels"); continue; }
      }
    }
    if (folderLevel(u, to) < LV_EDIT) { fl(k, 403, "no edit access to the destination"); continue; }
    int64_t old = it->folderId;
    it->folderId = to;
    touch(*it, u);
    if (it->type == "WORKBOOK")
      for (auto& kv : S.items)
        if (kv.second.type == "REPORT" && kv.second.workbookId == it->id && kv.second.folderId == old) kv.second.folderId = to;
    moved.push(workbookJson(*it, u));
  }
  c.ok(Json::object().set("moved", moved).set("failed", failed));
}

void createWorkbook(Ctx& c) {
  Deployment& d = needDep(c);
  User& u = c.me();
  if (u.role < ROLE_AIBI) fail(403, "creating a workbook requires the ai-bi-user role or higher");
  Json& b = c.body(true);
  std::string name = reqStr(b, "name", 255);
  int64_t folder = optInt(b, "folderId", 0).value_or(0);
  if (folder) {
    Item* f = findItem(d.id, folder);
    if (!f || f->type != "FOLDER") fail(422, "folderId " + std::to_string(folder) + " is not a folder of this deployment");
  }
  if (folderLevel(u, folder) < LV_EDIT) fail(403, "creating a workbook here requires edit access to the destination folder");
  Json meta = Json::object();
  if (const Json* m = b.get("meta")) {
    if (!m->isNull() && !m->isObj()) fail(400, "field 'meta' must be an object");
    if (m->isObj()) meta = *m;
    if (Json* dd = meta.get("dashboardDraft")) validateDashboardConfig(*dd, "meta.dashboardDraft");
  }
  auto slug = optStr(b, "slug", 100, true);
  if (slug) {
    std::string s = lower(trim(*slug));
    if (bySlug(d.id, s)) fail(409, "slug '" + s + "' is already used in this deployment");
  }
  checkLimit(d);
  Item w = newWorkbookShell(d, name, folder, u);
  w.meta = meta;
  if (const Json* dd = meta.get("dashboardDraft")) w.draft = *dd;
  if (slug) { w.slug = lower(trim(*slug)); w.hasSlug = true; }
  int64_t id = w.id;
  S.items[id] = w;
  audit(&u, d.id, "Workbook created", Json::object().set("workbookId", id));
  c.created(workbookJson(S.items[id], u), "/api/v1/deployments/" + std::to_string(d.id) + "/workbooks/" + std::to_string(id));
}
}  // namespace

void regWorkbooks() {
  route("GET", "/api/v1/deployments/{deploymentId}/workbooks", listWorkbooks)
      .op("listWorkbooks", "List workbooks", "Workbooks")
      .desc("Without folderId every readable workbook of every folder is listed; folderId=0 or null lists the root. "
            "Ordered by updatedAt descending, then id.")
      .pp("deploymentId", SCH_DEPID)
      .qp("folderId", R"J({"type":["integer","null"],"minimum":0})J")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "#WorkbooksListResponse");
  route("POST", "/api/v1/deployments/{deploymentId}/workbooks", createWorkbook)
      .op("createWorkbook", "Create a workbook", "Workbooks")
      .pp("deploymentId", SCH_DEPID)
      .body("#CreateWorkbookRequest")
      .resp(201, "#Workbook")
      .err({409});
  route("GET", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", getWorkbook)
      .op("getWorkbook", "Get a workbook (or a folder/report record in workbook shape)", "Workbooks")
      .pp("deploymentId", SCH_DEPID)
      .pp("workbookId", SCH_ID)
      .resp(200, "#Workbook");
  route("POST", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate", duplicate)
      .op("duplicateWorkbook", "Clone a workbook", "Workbooks")
      .pp("deploymentId", SCH_DEPID)
      .pp("workbookId", SCH_ID)
      .body("#DuplicateWorkbookRequest", false)
      .resp(200, "#Workbook");
  route("PUT", "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}", upsertBySlug)
      .op("upsertWorkbookBySlug", "Create or update a workbook by slug", "Workbooks")
      .pp("deploymentId", SCH_DEPID)
      .body("#UpsertWorkbookRequest", false)
      .resp(200, "#Workbook")
      .err({409})
      .locked();
  route("POST", "/api/v1/deployments/{deploymentId}/workspace/bulk-move", bulkMove)
      .op("bulkMoveWorkspaceItems", "Move workspace items in bulk", "Workspace")
      .pp("deploymentId", SCH_DEPID)
      .body("#BulkMoveRequest")
      .resp(200, "#BulkMoveResponse");
}

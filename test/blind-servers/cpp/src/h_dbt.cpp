// dbt sync jobs: start, history, poll, cancel, result, logs. State advances by wall-clock time.
#include <algorithm>
#include "app.hpp"

Branch* findBranchByName(int64_t dep, const std::string& n);

namespace {
std::string stateOf(const DbtJob& j, int64_t& startedMs, int64_t& finishedMs) {
  int64_t now = nowMs();
  int64_t age = now - j.createdMs;
  startedMs = j.createdMs + 200;
  finishedMs = j.createdMs + 900;
  if (j.cancelledMs && j.cancelledMs < finishedMs) {
    finishedMs = j.cancelledMs;
    if (j.cancelledMs < startedMs) startedMs = 0;
    return "cancelled";
  }
  if (age < 200) { startedMs = 0; finishedMs = 0; return "pending"; }
  if (age < 900) { finishedMs = 0; return "running"; }
  return j.fail ? "error" : "success";
}
bool finished(const std::string& s) { return s == "success" || s == "error" || s == "cancelled"; }

Json jobJson(const DbtJob& j) {
  int64_t st, fin;
  std::string s = stateOf(j, st, fin);
  return Json::object()
      .set("id", j.id)
      .set("deploymentId", std::to_string(j.dep))
      .set("branchName", j.branchName)
      .set("ref", j.ref.empty() ? Json() : Json(j.ref))
      .set("trigger", j.trigger)
      .set("status", s)
      .set("createdAt", fmtTime(j.createdMs / 1000))
      .set("startedAt", st ? Json(fmtTime(st / 1000)) : Json())
      .set("finishedAt", fin ? Json(fmtTime(fin / 1000)) : Json())
      .set("createdBy", j.createdBy ? Json(j.createdBy) : Json());
}

DbtJob& needJob(Ctx& c, Deployment& d) {
  std::string id = c.param("syncJobId");
  auto it = S.dbt.find(id);
  if (it == S.dbt.end() || it->second.dep != d.id) fail(404, "dbt sync job '" + id + "' not found");
  return it->second;
}

void startSync(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(false);
  std::string bn = optStr(b, "branchName", 200).value_or("main");
  if (bn.empty()) bn = "main";
  if (!findBranchByName(d.id, bn)) fail(404, "branch '" + bn + "' not found");
  auto ref = optStr(b, "ref", 200);
  DbtJob j;
  j.id = "dbt_" + toBase36(rnd64() % 2176782336ULL) + toBase36((uint64_t)nowMs() % 46656);
  j.dep = d.id;
  j.branchName = bn;
  j.ref = ref.value_or("");
  j.trigger = "api";
  j.createdMs = nowMs();
  j.createdBy = c.uid;
  j.fail = bn.find("fail") != std::string::npos;
  S.dbt[j.id] = j;
  c.json(202, Json::object().set("data", jobJson(j)));
  c.res.headers.push_back({"content-Location", "/api/v1/deployments/" + std::to_string(d.id) + "/dbt-sync/" + j.id});
}

void listSyncs(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  auto status = c.q("status");
  auto trigger = c.q("trigger");
  static const std::vector<std::string> sts = {"pending", "running", "success", "error", "cancelled"};
  static const std::vector<std::string> trs = {"api", "schedule", "webhook", "manual"};
  if (status && std::find(sts.begin(), sts.end(), *status) == sts.end())
    fail(400, "query parameter 'status' must be one of pending, running, success, error, cancelled");
  if (trigger && std::find(trs.begin(), trs.end(), *trigger) == trs.end())
    fail(400, "query parameter 'trigger' must be one of api, schedule, webhook, manual");
  std::vector<const DbtJob*> v;
  for (auto& kv : S.dbt) {
    if (kv.second.dep != d.id) continue;
    int64_t a, b;
    if (status && stateOf(kv.second, a, b) != *status) continue;
    if (trigger && kv.second.trigger != *trigger) continue;
    v.push_back(&kv.second);
  }
  std::sort(v.begin(), v.end(), [](const DbtJob* a, const DbtJob* b) {
    if (a->createdMs != b->createdMs) return a->createdMs > b->createdMs;
    return a->id < b->id;
  });
  std::vector<Json> all;
  for (auto* j : v) all.push_back(jobJson(*j));
  c.ok(cursorList(c, all));
}

void getSync(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  c.ok(Json::object().set("data", jobJson(needJob(c, d))));
}

void cancelSync(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  DbtJob& j = needJob(c, d);
  int64_t a, b;
  if (finished(stateOf(j, a, b))) fail(409, "the job has already finished", "JobFinished");
  j.cancelledMs = nowMs();
  c.ok(Json::object().set("data", jobJson(j)));
}

void syncResult(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  DbtJob& j = needJob(c, d);
  int64_t a, b;
  std::string s = stateOf(j, a, b);
  if (!finished(s)) {
    c.res.status = 204;
    c.res.noBody = true;
    c.res.headers.push_back({"retry-After", "1"});
    return;
  }
  Json models = Json::array();
  if (s != "cancelled") {
    for (const char* m : {"stg_orders", "stg_customers", "fct_revenue", "dim_customers"})
      models.push(Json::object().set("name", m).set("status", j.fail && std::string(m) == "fct_revenue" ? "error" : "synced"));
  }
  c.ok(Json::object().set("data", Json::object()
                                      .set("jobId", j.id)
                                      .set("status", s)
                                      .set("models", models)
                                      .set("cubesGenerated", s == "success" ? 4 : s == "error" ? 3 : 0)
                                      .set("errors", j.fail ? Json::array().push("fct_revenue: relation \"raw.payments\" does not exist")
                                                            : Json::array())));
}

void syncLogs(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  DbtJob& j = needJob(c, d);
  int64_t st, fin;
  std::string s = stateOf(j, st, fin);
  std::vector<Json> all;
  auto add = [&](int64_t ms, const std::string& lvl, const std::string& m) {
    all.push_back(Json::object().set("timestamp", fmtTime(ms / 1000)).set("level", lvl).set("message", m));
  };
  add(j.createdMs, "info", "sync queued for branch " + j.branchName);
  if (st) {
    add(st, "info", "fetching dbt manifest");
    add(st + 100, "info", "parsing 4 models");
    add(st + 200, "info", "generating cubes");
  }
  if (fin) {
    if (s == "cancelled") add(fin, "warn", "sync cancelled");
    else if (s == "error") add(fin, "error", "fct_revenue: relation \"raw.payments\" does not exist");
    else add(fin, "info", "sync finished: 4 cubes generated");
  }
  c.ok(cursorList(c, all));
}
}  // namespace

void regDbt() {
  const std::string base = "/api/v1/deployments/{deploymentId}/dbt-sync";
  route("POST", base, startSync)
      .op("startDbtSync", "Start a dbt sync", "dbt")
      .pp("deploymentId", SCH_DEPID)
      .body("#DbtSyncRequest", false)
      .resp(202, "data:DbtJob");
  route("GET", base, listSyncs)
      .op("listDbtSyncs", "dbt sync run history", "dbt")
      .pp("deploymentId", SCH_DEPID)
      .qp("status", R"J({"type":"string","enum":["pending","running","success","error","cancelled"]})J")
      .qp("trigger", R"J({"type":"string","enum":["api","schedule","webhook","manual"]})J")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:DbtJob");
  route("GET", base + "/{syncJobId}", getSync)
      .op("getDbtSync", "Poll a dbt sync", "dbt")
      .pp("deploymentId", SCH_DEPID)
      .resp(200, "data:DbtJob");
  route("DELETE", base + "/{syncJobId}", cancelSync)
      .op("cancelDbtSync", "Cancel a dbt sync (409 once finished)", "dbt")
      .pp("deploymentId", SCH_DEPID)
      .resp(200, "data:DbtJob")
      .err({409});
  route("GET", base + "/{syncJobId}/result", syncResult)
      .op("getDbtSyncResult", "Result of a finished sync (204 while it runs)", "dbt")
      .pp("deploymentId", SCH_DEPID)
      .resp(200, "#DbtResultResponse")
      .resp(204, "");
  route("GET", base + "/{syncJobId}/logs", syncLogs)
      .op("getDbtSyncLogs", "Log entries of a sync", "dbt")
      .pp("deploymentId", SCH_DEPID)
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:LogEntry");
}

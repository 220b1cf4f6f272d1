// E1, E5, E6 and the deployment-level E14 operations (settings, delete, build status, logs, pods,
// creation steps, regions, deployment creation).
#include <algorithm>
#include <cstring>
#include "app.hpp"

namespace {
struct Ver { const char* v; const char* ch; };
const Ver kVersions[] = {{"1.7.23", "latest"}, {"1.7.20", "latest"}, {"1.7.8", "latest"},
                         {"1.6.19", "release"}, {"1.6.12", "release"}, {"1.5.25", "release"}};
const char* kSteps[] = {"repository", "database", "schema", "build", "ready"};
struct Region { const char* id; const char* name; const char* provider; const char* location; bool available; };
const Region kRegions[] = {
    {"aws-us-east-1", "US East (N. Virginia)", "aws", "us-east-1", true},
    {"aws-us-west-2", "US West (Oregon)", "aws", "us-west-2", true},
    {"aws-eu-central-1", "EU (Frankfurt)", "aws", "eu-central-1", true},
    {"aws-ap-south-1", "Asia Pacific (Mumbai)", "aws", "ap-south-1", true},
    {"aws-ap-southeast-2", "Asia Pacific (Sydney)", "aws", "ap-southeast-2", false},
    {"gcp-us-central1", "Iowa", "gcp", "us-central1", true},
    {"gcp-europe-west3", "Frankfurt", "gcp", "europe-west3", true},
    {"gcp-asia-northeast1", "Tokyo", "gcp", "asia-northeast1", true},
    {"saas-global", "Managed (global)", "saas", "global", true},
    {"saas-eu", "Managed (EU)", "saas", "eu", true},
    {"saas-in", "Managed (India)", "saas", "in", true},
};

std::string channelOf(const std::string& v) {
  for (auto& x : kVersions) if (v == x.v) return x.ch;
  return "";
}
std::string headOf(const std::string& ch) {
  for (auto& x : kVersions) if (ch == x.ch) return x.v;  // first entry per channel is its head
  return "";
}
bool verLess(const std::string& a, const std::string& b) {
  auto pa = split(a, '.'), pb = split(b, '.');
  for (size_t k = 0; k < std::max(pa.size(), pb.size()); k++) {
    long x = k < pa.size() ? atol(pa[k].c_str()) : 0, y = k < pb.size() ? atol(pb[k].c_str()) : 0;
    if (x != y) return x < y;
  }
  return false;
}
std::vector<std::string> versionsFor(const Deployment& d) {
  std::vector<std::string> v = {headOf("latest"), headOf("release")};
  for (auto& h : d.history) if (std::find(v.begin(), v.end(), h) == v.end()) v.push_back(h);
  if (std::find(v.begin(), v.end(), d.version) == v.end()) v.push_back(d.version);
  std::sort(v.begin(), v.end(), [&](const std::string& a, const std::string& b) {
    if ((a == d.version) != (b == d.version)) return a == d.version;
    return verLess(b, a);
  });
  return v;
}
std::string resolveVersion(const std::string& in) {
  std::string s = trim(in);
  for (const char* p : {"docker.io/cubejs/cube:", "cubejs/cube:"})
    if (s.compare(0, strlen(p), p) == 0) { s = s.substr(strlen(p)); if (s.empty() || s[0] != 'v') return ""; break; }
  if (!s.empty() && s[0] == 'v') s = s.substr(1);
  return channelOf(s).empty() ? "" : s;
}
std::string normProvider(const std::string& v) {
  std::string l = lower(v);
  if (l == "saas" || l == "hosted" || l == "<hosted>" || l == "managed" || l == "cube" || l == "cloud" || l == "platform") return "saas";
  if (l == "aws" || l == "gcp") return l;
  return "";
}
std::string normCreation(const std::string& v) {
  std::string l = lower(v);
  if (l == "saas" || l == "hosted" || l == "<hosted>" || l == "managed" || l == "cube" || l == "platform") return "saas";
  if (l == "upload" || l == "github" || l == "ssh") return l;
  return "";
}
bool regionOk(const std::string& id, const std::string& provider) {
  for (auto& r : kRegions) if (id == r.id) return provider.empty() || provider == r.provider;
  return false;
}

void listDeployments(Ctx& c) {
  User& u = c.me();
  int64_t offset = c.qInt("offset", 0, 1000000000).value_or(0);
  int64_t limit = std::min<int64_t>(c.qInt("limit", 1).value_or(20), kMaxPage);
  std::vector<const Deployment*> v;
  for (auto& kv : S.deps) if (canSeeDep(u, kv.second)) v.push_back(&kv.second);
  std::sort(v.begin(), v.end(), [](const Deployment* a, const Deployment* b) {
    if (a->updatedAt != b->updatedAt) return a->updatedAt > b->updatedAt;
    return a->id < b->id;
  });
  Json arr = Json::array();
  for (int64_t k = offset; k < (int64_t)v.size() && k < offset + limit; k++) arr.push(deploymentListItem(*v[(size_t)k]));
  Json r = Json::object();
  r.set("data", Json::object().set("deployments", arr));
  r.set("pagination", Json::object().set("offset", offset).set("limit", limit).set("total", (int64_t)v.size()));
  c.ok(r);
}

void listVersions(Ctx& c) {
  Deployment& d = needDep(c);
  Json arr = Json::array();
  for (auto& v : versionsFor(d)) {
    std::string ch = channelOf(v);
    arr.push(Json::object()
                 .set("releaseChannelVersion", "docker.io/cubejs/cube:v" + v)
                 .set("version", v)
                 .set("releaseChannel", ch)
                 .set("isLatestInChannel", headOf(ch) == v)
                 .set("isCurrent", d.version == v));
  }
  c.ok(Json::object().set("data", arr));
}

void updateDeployment(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  if (b.has("image")) fail(403, "the container image is resolved from the release channel version and cannot be set directly", "ImageReadOnly");
  Json updated = Json::array();
  auto mark = [&](const std::string& f) { updated.push(f); };
  // ---- validate everything first
  std::optional<std::string> provider, region, channel, version, tmpl, creation, deploy, name;
  if (auto v = optStr(b, "cloudProvider", 40)) {
    provider = normProvider(*v);
    if (provider->empty()) fail(422, "field 'cloudProvider' must be one of: saas (hosted), aws, gcp");
  }
  if (auto v = optStr(b, "region", 60, true)) {
    if (!regionOk(*v, provider ? *provider : d.cloudProvider)) fail(422, "region '" + *v + "' is not available for this cloud provider");
    region = *v;
  }
  if (auto v = optStr(b, "releaseChannel", 40)) {
    if (headOf(*v).empty()) fail(422, "field 'releaseChannel' must be one of: latest, release");
    channel = *v;
  }
  if (auto v = optStr(b, "releaseChannelVersion", 200)) {
    std::string r = resolveVersion(*v);
    auto list = versionsFor(d);
    if (r.empty() || std::find(list.begin(), list.end(), r) == list.end())
      fail(400, "releaseChannelVersion '" + *v + "' is not one of the versions listed for this deployment");
    version = r;
    if (channel && *channel != channelOf(r))
      fail(409, "version " + r + " belongs to channel '" + channelOf(r) + "', not '" + *channel + "'");
  }
  auto hold = optBool(b, "releaseChannelVersionHold");
  if (auto v = optStr(b, "template", 100, true)) tmpl = v;
  if (auto v = optStr(b, "name", 100, true)) name = v;
  const Json* tv = b.get("templateVariables");
  if (tv && !tv->isNull()) {
    if (!tv->isObj()) fail(400, "field 'templateVariables' must be an object");
    for (auto& kv : tv->o)
      if (kv.second.isArr() || kv.second.isObj()) fail(422, "templateVariables." + kv.first + " must be a string, number, boolean or null");
  }
  const Json* lg = b.get("defaultLaunchpadViewGroup");
  if (lg && !lg->isNull() && !lg->isStr()) fail(400, "field 'defaultLaunchpadViewGroup' must be a string or null");
  const Json* tabs = b.get("launchpadTabs");
  if (tabs && !tabs->isNull() && !tabs->isArr()) fail(400, "field 'launchpadTabs' must be an array");
  for (const char* k : {"creationMethod", "creation_method"})
    if (auto v = optStr(b, k, 40)) {
      creation = normCreation(*v);
      if (creation->empty()) fail(422, std::string("field '") + k + "' must be one of: upload, saas (hosted), github, ssh");
    }
  for (const char* k : {"deployMode", "deploy_mode"})
    if (auto v = optStr(b, k, 40)) {
      if (*v != "git" && *v != "cli") fail(422, std::string("field '") + k + "' must be git or cli");
      deploy = v;
    }
  // ---- apply
  std::string before = d.version;
  if (version) {
    d.version = *version;
    d.releaseChannel = channelOf(*version);
    if (*version != headOf(d.releaseChannel)) d.hold = true;
    else if (hold) d.hold = *hold;
    mark("releaseChannelVersion");
    if (channel) mark("releaseChannel");
    if (hold) mark("releaseChannelVersionHold");
  } else if (channel) {
    d.releaseChannel = *channel;
    d.version = headOf(*channel);
    d.hold = hold ? *hold : false;
    mark("releaseChannel");
    if (hold) mark("releaseChannelVersionHold");
  } else if (hold) {
    d.hold = *hold;
    mark("releaseChannelVersionHold");
  }
  if (d.version != before && std::find(d.history.begin(), d.history.end(), before) == d.history.end()) d.history.push_back(before);
  if (provider) { d.cloudProvider = *provider; mark("cloudProvider"); }
  if (region) { d.region = *region; mark("region"); }
  if (tmpl) { d.tmpl = *tmpl; mark("template"); }
  if (name) { d.name = *name; mark("name"); }
  if (tv && !tv->isNull()) {
    for (auto& kv : tv->o) {
      if (kv.second.isNull()) d.templateVariables.erase(kv.first);
      else d.templateVariables.set(kv.first, kv.second);
    }
    mark("templateVariables");
  }
  if (lg) { d.defaultLaunchpadViewGroup = *lg; mark("defaultLaunchpadViewGroup"); }
  if (tabs) { d.launchpadTabs = tabs->isNull() ? Json::array() : *tabs; mark("launchpadTabs"); }
  if (creation) { d.creationMethod = *creation; mark("creationMethod"); }
  if (deploy) { d.deployMode = *deploy; mark("deployMode"); }
  d.updatedAt = nowSec();
  audit(&c.me(), d.id, "Deployment updated", Json::object().set("fields", updated));
  c.ok(Json::object().set("data", deploymentFull(d)).set("meta", Json::object().set("updatedFields", updated)));
}

void getSettings(Ctx& c) {
  Deployment& d = needDep(c);
  Json j = deploymentFull(d);
  j.set("restApiEnabled", true);
  j.set("sqlApiEnabled", d.id % 2 == 1);
  j.set("graphqlApiEnabled", false);
  j.set("githubRepository", d.githubRepo.empty() ? Json() : Json(d.githubRepo));
  j.set("envVarCount", (int64_t)d.envVars.size());
  c.ok(Json::object().set("data", j));
}

void deleteDeployment(Ctx& c) {
  Deployment& d = needDep(c, ROLE_ADMIN);
  int64_t id = d.id;
  for (auto it = S.items.begin(); it != S.items.end();) it = it->second.dep == id ? S.items.erase(it) : std::next(it);
  for (auto it = S.dashboards.begin(); it != S.dashboards.end();) it = it->second.dep == id ? S.dashboards.erase(it) : std::next(it);
  for (auto it = S.branches.begin(); it != S.branches.end();) it = it->second.dep == id ? S.branches.erase(it) : std::next(it);
  for (auto it = S.dbt.begin(); it != S.dbt.end();) it = it->second.dep == id ? S.dbt.erase(it) : std::next(it);
  for (auto it = S.notifications.rows.begin(); it != S.notifications.rows.end();)
    it = it->second.get("deploymentId")->asInt() == id ? S.notifications.rows.erase(it) : std::next(it);
  audit(&c.me(), 0, "Deployment deleted", Json::object().set("deploymentId", std::to_string(id)).set("name", d.name));
  S.deps.erase(id);
  c.json(202, Json::object().set("data", Json::object().set("id", std::to_string(id)).set("status", "deleting")));
}

Branch* branchByName(int64_t dep, const std::string& n) {
  for (auto& kv : S.branches) if (kv.second.dep == dep && kv.second.name == n) return &kv.second;
  return nullptr;
}

void buildStatus(Ctx& c) {
  Deployment& d = needDep(c);
  std::string bn = c.q("branchName").value_or("main");
  Branch* b = branchByName(d.id, bn);
  if (!b) fail(404, "branch '" + bn + "' not found");
  std::string st;
  int64_t now = nowMs();
  if (d.creationStep < 4 && b->kind == "production") st = "pending";
  else if (b->buildAt && now - b->buildAt < 2000) st = "building";
  else st = b->buildResult;
  Json j = Json::object()
               .set("deploymentId", std::to_string(d.id))
               .set("branchName", b->name)
               .set("status", st)
               .set("lastHash", b->lastHash)
               .set("startedAt", b->buildAt ? Json(fmtTime(b->buildAt / 1000)) : Json())
               .set("finishedAt", b->buildAt && st != "building" ? Json(fmtTime(b->buildAt / 1000 + 2)) : Json());
  c.ok(Json::object().set("data", j));
}

void getLogs(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  auto source = c.q("source");
  if (source && *source != "production" && *source != "dev") fail(400, "query parameter 'source' must be production or dev");
  auto container = c.q("container");
  static const std::vector<std::string> cont = {"INIT", "MAIN", "vector", "api-proxy", "cube"};
  if (container && std::find(cont.begin(), cont.end(), *container) == cont.end())
    fail(400, "query parameter 'container' must be one of INIT, MAIN, vector, api-proxy, cube");
  std::vector<Json> all;
  int64_t base = d.updatedAt;
  const char* msgs[] = {"Starting container", "Loading data model", "Compiling 11 files", "Listening on :4000",
                        "Refresh scheduler tick", "Query completed in 184ms", "Pre-aggregation build finished", "Health check ok"};
  for (int k = 0; k < 40; k++) {
    std::string src = k % 3 == 0 ? "dev" : "production";
    std::string ct = cont[(size_t)k % cont.size()];
    if (source && *source != src) continue;
    if (container && *container != ct) continue;
    all.push_back(Json::object()
                      .set("timestamp", fmtTime(base + k * 17))
                      .set("source", src)
                      .set("container", ct)
                      .set("level", k % 11 == 5 ? "warn" : "info")
                      .set("message", msgs[k % 8]));
  }
  c.ok(cursorList(c, all));
}

void getPods(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  std::vector<Json> all;
  const char* kinds[] = {"api", "api", "refresh-worker", "cubestore-router", "cubestore-worker", "cubestore-worker"};
  for (int k = 0; k < 6; k++) {
    all.push_back(Json::object()
                      .set("name", std::string(kinds[k]) + "-" + toBase36((uint64_t)d.id * 31 + (uint64_t)k * 977))
                      .set("role", kinds[k])
                      .set("phase", "Running")
                      .set("ready", true)
                      .set("restarts", k == 2 ? 1 : 0)
                      .set("startedAt", fmtTime(d.updatedAt + k * 60))
                      .set("containers", Json::array().push("MAIN").push("vector")));
  }
  c.ok(cursorList(c, all));
}

Json stepJson(const Deployment& d) {
  Json steps = Json::array();
  for (auto s : kSteps) steps.push(s);
  return Json::object()
      .set("deploymentId", std::to_string(d.id))
      .set("step", kSteps[d.creationStep])
      .set("stepIndex", d.creationStep)
      .set("steps", steps)
      .set("completed", d.creationStep == 4);
}
void advanceStep(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  if (d.creationStep >= 4) fail(400, "the setup wizard is already complete", "SetupComplete");
  d.creationStep++;
  d.updatedAt = nowSec();
  c.ok(Json::object().set("data", stepJson(d)));
}
void resetStep(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  d.creationStep = 0;
  d.updatedAt = nowSec();
  c.ok(Json::object().set("data", stepJson(d)));
}

void listRegions(Ctx& c) {
  auto provider = c.q("cloudProvider");
  std::vector<Json> all;
  for (auto& r : kRegions) {
    if (provider && normProvider(*provider) != r.provider) continue;
    all.push_back(Json::object()
                      .set("id", r.id)
                      .set("name", r.name)
                      .set("cloudProvider", r.provider)
                      .set("location", r.location)
                      .set("available", r.available));
  }
  c.ok(cursorList(c, all));
}

void createDeployment(Ctx& c) {
  User& u = c.me();
  if (u.scopedDeployment) fail(403, "a deployment-scoped key cannot create deployments");
  needRole(c, ROLE_DEV, "creating a deployment");
  Json& b = c.body(true);
  std::string name = reqStr(b, "name", 100);
  Deployment d;
  d.id = S.nextDep;
  S.nextDep += 14;
  d.name = name;
  d.createdAt = d.updatedAt = nowSec();
  d.ownerId = u.id;
  d.version = headOf("latest");
  d.creationStep = 0;
  d.dbName = "db_" + std::to_string(d.id);
  if (auto v = optStr(b, "cloudProvider", 40)) {
    d.cloudProvider = normProvider(*v);
    if (d.cloudProvider.empty()) fail(422, "field 'cloudProvider' must be one of: saas (hosted), aws, gcp");
  }
  d.region = d.cloudProvider == "aws" ? "aws-us-east-1" : d.cloudProvider == "gcp" ? "gcp-us-central1" : "saas-global";
  if (auto v = optStr(b, "region", 60, true)) {
    if (!regionOk(*v, d.cloudProvider)) fail(422, "region '" + *v + "' is not available for this cloud provider");
    d.region = *v;
  }
  d.creationMethod = "saas";
  for (const char* k : {"creationMethod", "creation_method"})
    if (auto v = optStr(b, k, 40)) {
      d.creationMethod = normCreation(*v);
      if (d.creationMethod.empty()) fail(422, std::string("field '") + k + "' must be one of: upload, saas (hosted), github, ssh");
    }
  for (const char* k : {"deployMode", "deploy_mode"})
    if (auto v = optStr(b, k, 40)) {
      if (*v != "git" && *v != "cli") fail(422, std::string("field '") + k + "' must be git or cli");
      d.deployMode = *v;
    }
  int64_t id = d.id;
  S.deps[id] = d;
  Branch br;
  br.id = S.smallId();
  br.dep = id;
  br.name = "main";
  br.kind = "production";
  br.ownerId = u.id;
  br.createdAt = nowSec();
  br.files = {{"cube.js", "module.exports = {};\n"}, {"model/cubes/example.yml", "cubes:\n  - name: example\n    sql_table: public.example\n"}};
  br.committed = br.files;
  br.lastHash = sha256Hex("main" + std::to_string(id));
  S.branches[br.id] = br;
  audit(&u, id, "Deployment created", Json::object().set("name", name));
  c.created(deploymentFull(S.deps[id]), "/api/v1/deployments/" + std::to_string(id) + "/settings");
}
}  // namespace

Branch* findBranchByName(int64_t dep, const std::string& n) { return branchByName(dep, n); }

void regDeployments() {
  route("GET", "/api/v1/deployments", listDeployments)
      .op("listDeployments", "List deployments accessible to the caller", "Deployments")
      .desc("Offset pagination. Ordered by last update, most recent first.")
      .qp("offset", R"J({"type":"integer","minimum":0,"default":0})J")
      .qp("limit", R"J({"type":"integer","minimum":1,"default":20,"description":"values above 75 are clamped to 75"})J")
      .resp(200, "#DeploymentListResponse");
  route("GET", "/api/v1/deployments/{deploymentId}/versions", listVersions)
      .op("listDeploymentVersions", "List versions the deployment can switch to", "Deployments")
      .pp("deploymentId", SCH_DEPID)
      .resp(200, "#VersionListResponse");
  route("PUT", "/api/v1/deployments/{deploymentId}", updateDeployment)
      .op("updateDeployment", "Update deployment settings (partial merge)", "Deployments")
      .pp("deploymentId", SCH_DEPID)
      .body("#UpdateDeploymentRequest")
      .resp(200, "#DeploymentUpdateResponse")
      .err({409});
  route("DELETE", "/api/v1/deployments/{deploymentId}", deleteDeployment)
      .op("deleteDeployment", "Delete a deployment", "Deployments")
      .pp("deploymentId", SCH_DEPID)
      .resp(202, "#DeploymentDeleteResponse");
  route("GET", "/api/v1/deployments/{deploymentId}/settings", getSettings)
      .op("getDeploymentSettings", "All deployment settings, secrets excluded", "Deployments")
      .pp("deploymentId", SCH_DEPID)
      .resp(200, "#DeploymentSettingsResponse");
  route("GET", "/api/v1/deployments/{deploymentId}/build-status", buildStatus)
      .op("getBuildStatus", "Build/deploy state of a branch", "Deployments")
      .pp("deploymentId", SCH_DEPID)
      .qp("branchName", R"J({"type":"string","default":"main"})J")
      .resp(200, "#BuildStatusResponse");
  route("GET", "/api/v1/deployments/{deploymentId}/logs", getLogs)
      .op("getDeploymentLogs", "Container logs", "Deployments")
      .pp("deploymentId", SCH_DEPID)
      .qp("source", R"J({"type":"string","enum":["production","dev"]})J")
      .qp("container", R"J({"type":"string","enum":["INIT","MAIN","vector","api-proxy","cube"]})J")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:LogEntry");
  route("GET", "/api/v1/deployments/{deploymentId}/pods", getPods)
      .op("listPods", "Pods of the deployment", "Deployments")
      .pp("deploymentId", SCH_DEPID)
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:Pod");
  route("POST", "/api/v1/deployments/{deploymentId}/creation-step/advance", advanceStep)
      .op("advanceCreationStep", "Advance the setup wizard one step", "Deployments")
      .pp("deploymentId", SCH_DEPID)
      .resp(200, "#CreationStepResponse");
  route("POST", "/api/v1/deployments/{deploymentId}/creation-step/reset", resetStep)
      .op("resetCreationStep", "Reset the setup wizard to its first step", "Deployments")
      .pp("deploymentId", SCH_DEPID)
      .resp(200, "#CreationStepResponse");
  route("GET", "/api/v1/regions/", listRegions)
      .op("listRegions", "Regions available to the tenant", "Deployments")
      .qp("cloudProvider", R"J({"type":"string"})J")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:Region");
  route("POST", "/build/api/v1/deployments/", createDeployment)
      .op("createDeployment", "Create a deployment", "Build")
      .body("#CreateDeploymentRequest")
      .resp(201, "#DeploymentDetail");
}

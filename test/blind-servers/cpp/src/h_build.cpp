// /build/api/v1: E4 staging toggle, branches, dev mode, data-model files, uploads, git operations.
#include <algorithm>
#include "app.hpp"

Branch* findBranchByName(int64_t dep, const std::string& n);

namespace {
Json branchJson(const Branch& b) {
  auto o = S.users.find(b.ownerId);
  return Json::object()
      .set("id", b.id)
      .set("name", b.name)
      .set("parentBranch", b.parent)
      .set("lastHash", b.lastHash)
      .set("isStagingEnvironmentEnabled", b.staging)
      .set("scope", b.kind)
      .set("owner", b.kind == "personal" && o != S.users.end() ? Json(o->second.email) : Json())
      .set("devMode", b.devMode)
      .set("hasUncommittedChanges", b.files != b.committed)
      .set("createdAt", fmtTime(b.createdAt));
}

Branch& needBranch(Deployment& d, const std::string& name) {
  if (name.empty()) fail(400, "field 'branchName' is required");
  Branch* b = findBranchByName(d.id, name);
  if (!b) fail(404, "branch '" + name + "' not found in deployment " + std::to_string(d.id));
  return *b;
}
std::string branchArg(Ctx& c, bool fromBody, const std::string& def) {
  std::string v;
  if (fromBody) v = optStr(c.body(false), "branchName", 200).value_or("");
  if (v.empty()) v = c.q("branchName").value_or("");
  return v.empty() ? def : v;
}
void needDevMode(const Branch& b) {
  if (!b.devMode) fail(423, "branch '" + b.name + "' is not in dev mode; start dev mode before changing data-model files");
}
void validPath(const std::string& p, const std::string& field) {
  if (p.empty() || p.size() > 300 || p[0] == '/' || p.find("..") != std::string::npos || p.find('\\') != std::string::npos ||
      p.back() == '/')
    fail(422, field + " '" + p + "' is not a valid relative file path");
  for (unsigned char ch : p) if (ch < 0x20) fail(422, field + " contains control characters");
}
void startBuild(Branch& b) {
  b.buildAt = nowMs();
  b.buildResult = "deployed";
}

void stagingToggle(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  const Json* en = b.get("enabled");
  if (!en || en->isNull()) fail(400, "field 'enabled' is required");
  if (!en->isBool()) fail(400, "field 'enabled' must be a boolean");
  auto name = optStr(b, "branchName", 200);
  auto id = optInt(b, "branchId");
  if (!name && !id) fail(400, "send branchName or branchId");
  Branch* br = nullptr;
  for (auto& kv : S.branches) {
    Branch& x = kv.second;
    if (x.dep != d.id) continue;
    if (name && x.name != *name) continue;
    if (id && x.id != *id) continue;
    br = &x;
  }
  if (!br) fail(404, "no branch in deployment " + std::to_string(d.id) + " matches " + (name ? "name '" + *name + "'" : std::string()) +
                         (name && id ? " and " : "") + (id ? "id " + std::to_string(*id) : std::string()));
  if (en->b && br->kind != "shared")
    fail(400, "only shared branches can have an always-on staging environment; '" + br->name + "' is " +
                  (br->kind == "production" ? "the production branch" : "a personal development branch"),
         "BranchNotShared");
  if (br->staging != en->b) {
    br->staging = en->b;
    br->envSince = nowSec();
  }
  Json data = Json::object()
                  .set("id", br->id)
                  .set("name", br->name)
                  .set("parentBranch", br->parent)
                  .set("lastHash", br->lastHash)
                  .set("isStagingEnvironmentEnabled", br->staging);
  c.ok(Json::object().set("data", data));
}

void listBranches(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  std::vector<const Branch*> v;
  for (auto& kv : S.branches) if (kv.second.dep == d.id) v.push_back(&kv.second);
  std::sort(v.begin(), v.end(), [](const Branch* a, const Branch* b) { return a->name < b->name; });
  std::vector<Json> all;
  for (auto* b : v) all.push_back(branchJson(*b));
  c.ok(cursorList(c, all));
}

bool validBranchName(const std::string& n) {
  if (n.empty() || n.size() > 100 || !isalnum((unsigned char)n[0])) return false;
  for (char ch : n) if (!(isalnum((unsigned char)ch) || ch == '.' || ch == '_' || ch == '/' || ch == '-')) return false;
  return n.find("..") == std::string::npos && n.back() != '/' && n.back() != '.';
}

void createBranch(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  std::string name = reqStr(b, "name", 100);
  if (!validBranchName(name)) fail(422, "branch name must match ^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$");
  if (findBranchByName(d.id, name)) fail(409, "branch '" + name + "' already exists");
  std::string from = optStr(b, "from", 200).value_or("main");
  Branch& src = needBranch(d, from);
  bool activate = optBool(b, "activate").value_or(false);
  bool personal = optBool(b, "personal").value_or(false);
  Branch nb;
  nb.id = S.smallId();
  nb.dep = d.id;
  nb.name = name;
  nb.parent = src.name;
  nb.kind = personal ? "personal" : "shared";
  nb.ownerId = c.uid;
  nb.files = src.committed;
  nb.committed = src.committed;
  nb.lastHash = src.lastHash;
  nb.createdAt = nowSec();
  nb.devMode = activate;
  S.branches[nb.id] = nb;
  audit(&c.me(), d.id, "Branch created", Json::object().set("branch", name));
  c.created(branchJson(nb), "/build/api/v1/deployments/" + std::to_string(d.id) + "/branches");
}

void deleteBranch(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  auto name = c.q("branchName");
  if (!name || name->empty()) fail(400, "query parameter 'branchName' is required");
  c.qBool("removeOnUpstream");
  Branch& b = needBranch(d, *name);
  if (b.kind == "production") fail(403, "the production branch cannot be deleted", "ProtectedBranch");
  if (b.kind == "personal" && b.ownerId != c.uid && c.me().role < ROLE_ADMIN) fail(403, "only its owner or an admin can delete a personal branch");
  std::string parent = b.parent, bn = b.name;
  for (auto& kv : S.branches) if (kv.second.dep == d.id && kv.second.parent == bn) kv.second.parent = parent;
  S.branches.erase(b.id);
  c.ok(Json::object());
}

std::string personalName(const User& u) {
  std::string n = "dev-" + lower(u.lastName.empty() ? u.firstName : u.lastName);
  for (auto& ch : n) if (!isalnum((unsigned char)ch) && ch != '-') ch = '-';
  return n;
}

void startDevMode(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  User& u = c.me();
  std::string name = optStr(c.body(false), "branchName", 200).value_or("");
  Branch* b;
  if (name.empty()) {
    name = personalName(u);
    b = findBranchByName(d.id, name);
    if (!b) {
      Branch* main = findBranchByName(d.id, "main");
      Branch nb;
      nb.id = S.smallId();
      nb.dep = d.id;
      nb.name = name;
      nb.parent = "main";
      nb.kind = "personal";
      nb.ownerId = u.id;
      if (main) { nb.files = main->committed; nb.committed = main->committed; nb.lastHash = main->lastHash; }
      nb.createdAt = nowSec();
      S.branches[nb.id] = nb;
      b = &S.branches[nb.id];
    }
  } else {
    b = &needBranch(d, name);
  }
  if (b->kind == "production") fail(400, "dev mode cannot be started on the production branch");
  if (b->kind == "personal" && b->ownerId != u.id && u.role < ROLE_ADMIN) fail(403, "this personal branch belongs to another user");
  b->devMode = true;
  std::string& env = b->envIds["development"];
  if (env.empty() && b->kind == "personal") env = ulid();
  c.ok(Json::object()
           .set("branchName", b->name)
           .set("devMode", true)
           .set("environmentId", b->kind == "personal" ? Json(env) : Json())
           .set("branch", branchJson(*b)));
}

void stopDevMode(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  std::string name = c.q("branchName").value_or("");
  if (name.empty()) name = optStr(c.body(false), "branchName", 200).value_or(personalName(c.me()));
  Branch& b = needBranch(d, name);
  b.devMode = false;
  c.ok(Json::object().set("branchName", b.name).set("devMode", false).set("branch", branchJson(b)));
}

void listFiles(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Branch& b = needBranch(d, branchArg(c, false, "main"));
  std::string prefix = c.q("prefix").value_or("");
  std::vector<Json> all;
  for (auto& kv : b.files) {
    if (kv.first.compare(0, prefix.size(), prefix) != 0) continue;
    all.push_back(Json::object()
                      .set("path", kv.first)
                      .set("size", (int64_t)kv.second.size())
                      .set("sha256", sha256Hex(kv.second))
                      .set("modified", !b.committed.count(kv.first) || b.committed.at(kv.first) != kv.second)
                      .set("content", kv.second));
  }
  Json r = cursorList(c, all);
  r.set("branchName", b.name);
  c.ok(r);
}

void writeFiles(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& body = c.body(true);
  Branch& b = needBranch(d, optStr(body, "branchName", 200).value_or(c.q("branchName").value_or("")));
  const Json* files = body.get("files");
  if (!files || !files->isArr()) fail(400, "field 'files' is required and must be an array of {path, content}");
  std::vector<std::pair<std::string, std::string>> w;
  for (size_t k = 0; k < files->a.size(); k++) {
    const Json& f = files->a[k];
    std::string p = "files[" + std::to_string(k) + "]";
    if (!f.isObj() || !f.get("path") || !f.get("path")->isStr()) fail(400, p + ".path is required and must be a string");
    if (!f.get("content") || !f.get("content")->isStr()) fail(400, p + ".content is required and must be a string");
    validPath(f.get("path")->s, p + ".path");
    w.push_back({f.get("path")->s, f.get("content")->s});
  }
  needDevMode(b);
  Json written = Json::array();
  for (auto& x : w) { b.files[x.first] = x.second; written.push(x.first); }
  c.ok(Json::object().set("branchName", b.name).set("written", written).set("fileCount", (int64_t)b.files.size()));
}

void deleteFiles(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& body = c.body(false);
  std::string bn = optStr(body, "branchName", 200).value_or(c.q("branchName").value_or(""));
  Branch& b = needBranch(d, bn);
  std::vector<std::string> paths = c.qAll("path");
  if (const Json* p = body.get("paths")) {
    if (!p->isArr()) fail(400, "field 'paths' must be an array of strings");
    for (auto& e : p->a) {
      if (!e.isStr()) fail(400, "field 'paths' must be an array of strings");
      paths.push_back(e.s);
    }
  }
  if (paths.empty()) fail(400, "name the files to delete with 'path' query parameters or a 'paths' array");
  needDevMode(b);
  for (auto& p : paths) if (!b.files.count(p)) fail(404, "file '" + p + "' not found on branch '" + b.name + "'");
  for (auto& p : paths) b.files.erase(p);
  c.ok(Json::object());
}

void renameFiles(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& body = c.body(true);
  Branch& b = needBranch(d, optStr(body, "branchName", 200).value_or(""));
  const Json* list = body.get("renames");
  if (!list) list = body.get("files");
  if (!list) list = body.get("moves");
  if (!list || !list->isArr() || list->a.empty()) fail(400, "field 'renames' is required: an array of {oldPath, newPath}");
  std::vector<std::pair<std::string, std::string>> rn;
  for (size_t k = 0; k < list->a.size(); k++) {
    const Json& e = list->a[k];
    std::string p = "renames[" + std::to_string(k) + "]";
    if (!e.isObj()) fail(400, p + " must be an object");
    std::string from, to;
    for (const char* key : {"oldPath", "path", "from", "source"}) if (const Json* v = e.get(key)) if (v->isStr()) { from = v->s; break; }
    for (const char* key : {"newPath", "to", "target"}) if (const Json* v = e.get(key)) if (v->isStr()) { to = v->s; break; }
    if (from.empty() || to.empty()) fail(400, p + " needs oldPath and newPath strings");
    validPath(to, p + ".newPath");
    rn.push_back({from, to});
  }
  needDevMode(b);
  std::map<std::string, std::string> files = b.files;
  Json done = Json::array();
  for (auto& r : rn) {
    if (!files.count(r.first)) fail(404, "file '" + r.first + "' not found on branch '" + b.name + "'");
    if (files.count(r.second) && r.second != r.first) fail(409, "file '" + r.second + "' already exists");
    std::string content = files[r.first];
    files.erase(r.first);
    files[r.second] = content;
    done.push(Json::object().set("oldPath", r.first).set("newPath", r.second));
  }
  b.files = files;
  c.ok(Json::object().set("branchName", b.name).set("renamed", done));
}

void validateModel(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Branch& b = needBranch(d, branchArg(c, false, "main"));
  Json errors = Json::array();
  int cubes = 0, views = 0;
  for (auto& kv : b.files) {
    const std::string& p = kv.first;
    const std::string& s = kv.second;
    bool yml = p.size() > 4 && (p.substr(p.size() - 4) == ".yml" || (p.size() > 5 && p.substr(p.size() - 5) == ".yaml"));
    bool js = p.size() > 3 && p.substr(p.size() - 3) == ".js";
    if (p.compare(0, 6, "model/") != 0) continue;
    if (yml) {
      size_t tab = s.find('\t');
      if (tab != std::string::npos) {
        errors.push(Json::object().set("path", p).set("line", (int64_t)std::count(s.begin(), s.begin() + (long)tab, '\n') + 1).set("message", "tabs are not allowed in YAML"));
        continue;
      }
      std::string t = trim(s);
      if (t.compare(0, 6, "cubes:") == 0) cubes++;
      else if (t.compare(0, 6, "views:") == 0) views++;
      else errors.push(Json::object().set("path", p).set("line", 1).set("message", "a model file must start with 'cubes:' or 'views:'"));
    } else if (js) {
      int depth = 0;
      int64_t line = 1, bad = 0;
      for (char ch : s) {
        if (ch == '\n') line++;
        if (ch == '{' || ch == '(' || ch == '[') depth++;
        if (ch == '}' || ch == ')' || ch == ']') { depth--; if (depth < 0 && !bad) bad = line; }
      }
      if (depth != 0 || bad) errors.push(Json::object().set("path", p).set("line", bad ? bad : line).set("message", "unbalanced brackets"));
      else if (s.find("cube(") != std::string::npos) cubes++;
      else if (s.find("view(") != std::string::npos) views++;
    }
  }
  c.ok(Json::object()
           .set("branchName", b.name)
           .set("valid", errors.size() == 0)
           .set("errors", errors)
           .set("cubeCount", cubes)
           .set("viewCount", views));
}

void fileHashes(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Branch& b = needBranch(d, branchArg(c, false, "main"));
  std::vector<Json> all;
  for (auto& kv : b.files) all.push_back(Json::object().set("path", kv.first).set("hash", sha256Hex(kv.second)));
  Json r = cursorList(c, all);
  r.set("branchName", b.name);
  c.ok(r);
}

void uploadStart(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Branch& b = needBranch(d, optStr(c.body(false), "branchName", 200).value_or("main"));
  Upload u;
  u.id = "upl_" + randBase62(16);
  u.dep = d.id;
  u.createdAt = nowSec();
  u.createdBy = c.uid;
  u.branchName = b.name;
  S.uploads[u.id] = u;
  c.created(Json::object().set("uploadId", u.id).set("branchName", b.name).set("expiresAt", fmtTime(u.createdAt + 3600)), "");
}
Upload& needUpload(Ctx& c, Deployment& d, const Json& b) {
  std::string id = reqStr(b, "uploadId", 100);
  auto it = S.uploads.find(id);
  if (it == S.uploads.end() || it->second.dep != d.id) fail(404, "upload '" + id + "' not found");
  if (it->second.finished) fail(409, "upload '" + id + "' is already finished");
  (void)c;
  return it->second;
}
void uploadFile(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  Upload& u = needUpload(c, d, b);
  std::string path = reqStr(b, "path", 300);
  validPath(path, "path");
  const Json* content = b.get("content");
  if (!content || !content->isStr()) fail(400, "field 'content' is required and must be a string");
  std::string enc = optStr(b, "encoding", 10).value_or("utf8");
  std::string data = content->s;
  if (enc == "base64") {
    if (!b64stdDecode(content->s, data)) fail(422, "content is not valid base64");
  } else if (enc != "utf8") fail(422, "field 'encoding' must be utf8 or base64");
  bool append = optBool(b, "append").value_or(false);
  if (append) u.files[path] += data;
  else u.files[path] = data;
  if (u.files.size() > 2000) fail(422, "an upload can contain at most 2000 files");
  c.ok(Json::object().set("uploadId", u.id).set("path", path).set("size", (int64_t)u.files[path].size()).set("fileCount", (int64_t)u.files.size()));
}
void uploadFinish(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  Upload& u = needUpload(c, d, b);
  if (u.files.empty()) fail(422, "the upload contains no files");
  Branch& br = needBranch(d, u.branchName);
  br.files = u.files;
  br.committed = u.files;
  br.lastHash = sha256Hex(u.id + std::to_string(nowMs()));
  startBuild(br);
  u.finished = true;
  c.ok(Json::object()
           .set("uploadId", u.id)
           .set("branchName", br.name)
           .set("fileCount", (int64_t)br.files.size())
           .set("lastHash", br.lastHash)
           .set("buildStatus", "building"));
}

void commit(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  Branch& br = needBranch(d, optStr(b, "branchName", 200).value_or(""));
  std::string msg = optStr(b, "message", 2000).value_or("Update data model");
  if (br.files == br.committed) {
    c.ok(Json::object().set("branchName", br.name).set("committed", false).set("hash", br.lastHash).set("message", Json()));
    return;
  }
  br.committed = br.files;
  br.lastHash = sha256Hex(br.name + msg + std::to_string(nowMs()));
  startBuild(br);
  c.ok(Json::object()
           .set("branchName", br.name)
           .set("committed", true)
           .set("hash", br.lastHash)
           .set("message", msg)
           .set("committedAt", fmtTime(nowSec())));
}

void pull(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  Branch& br = needBranch(d, optStr(b, "branchName", 200).value_or(""));
  int n = 0;
  Branch* parent = br.parent.empty() ? nullptr : findBranchByName(d.id, br.parent);
  if (parent) {
    for (auto& kv : parent->committed) {
      bool localEdit = br.files.count(kv.first) && br.committed.count(kv.first) && br.files[kv.first] != br.committed[kv.first];
      if (localEdit) continue;
      if (!br.committed.count(kv.first) || br.committed[kv.first] != kv.second) {
        br.committed[kv.first] = kv.second;
        br.files[kv.first] = kv.second;
        n++;
      }
    }
  }
  if (n) br.lastHash = sha256Hex(br.name + "pull" + std::to_string(nowMs()));
  c.ok(Json::object().set("branchName", br.name).set("from", br.parent.empty() ? Json() : Json(br.parent)).set("updatedFiles", n).set("lastHash", br.lastHash));
}

void doMerge(Ctx& c, Deployment& d, Branch& src, Branch& dst) {
  if (src.id == dst.id) fail(400, "a branch cannot be merged into itself");
  if (src.files != src.committed) fail(409, "branch '" + src.name + "' has uncommitted changes; commit them first");
  int n = 0;
  for (auto& kv : src.committed)
    if (!dst.committed.count(kv.first) || dst.committed[kv.first] != kv.second) {
      dst.committed[kv.first] = kv.second;
      dst.files[kv.first] = kv.second;
      n++;
    }
  dst.lastHash = sha256Hex(src.lastHash + dst.name + std::to_string(nowMs()));
  startBuild(dst);
  audit(&c.me(), d.id, "Branch merged", Json::object().set("source", src.name).set("target", dst.name));
  c.ok(Json::object().set("source", src.name).set("target", dst.name).set("hash", dst.lastHash).set("mergedFiles", n));
}

std::string firstStr(const Json& b, std::initializer_list<const char*> keys) {
  for (auto k : keys) if (auto v = optStr(b, k, 200)) if (!v->empty()) return *v;
  return "";
}

void merge(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  Branch& src = needBranch(d, firstStr(b, {"branchName", "sourceBranch", "source"}));
  std::string target = firstStr(b, {"targetBranch", "targetBranchName", "intoBranch", "into"});
  if (target.empty()) target = src.parent;
  if (target.empty()) fail(400, "branch '" + src.name + "' has no parent; name a targetBranch");
  doMerge(c, d, src, needBranch(d, target));
}

void mergeToDefault(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  Branch& src = needBranch(d, firstStr(b, {"branchName", "sourceBranch", "source"}));
  Branch* main = nullptr;
  for (auto& kv : S.branches) if (kv.second.dep == d.id && kv.second.kind == "production") main = &kv.second;
  if (!main) fail(404, "the deployment has no production branch");
  doMerge(c, d, src, *main);
}

void githubConnect(Ctx& c) {
  Deployment& d = needDep(c, ROLE_DEV);
  Json& b = c.body(true);
  std::string repo = reqStr(b, "repository", 200);
  auto parts = split(repo, '/');
  if (parts.size() != 2 || parts[0].empty() || parts[1].empty()) fail(422, "field 'repository' must look like owner/name");
  std::string branch = optStr(b, "branch", 200).value_or("main");
  optInt(b, "installationId", 1);
  d.githubRepo = repo;
  d.githubBranch = branch;
  d.creationMethod = "github";
  c.ok(Json::object().set("deploymentId", std::to_string(d.id)).set("connected", true).set("repository", repo).set("branch", branch));
}
}  // namespace

void regBuild() {
  const std::string base = "/build/api/v1/deployments/{deploymentId}";
  route("PUT", base + "/branches/staging-environment", stagingToggle)
      .op("setBranchStagingEnvironment", "Enable or disable a branch's always-on staging environment", "Build")
      .desc("Only shared branches can be enabled (400 otherwise). When both branchName and branchId are sent, a branch must match "
            "both (404 otherwise).")
      .pp("deploymentId", SCH_DEPID)
      .body("#StagingToggleRequest")
      .resp(200, "#BranchToggleResponse");
  route("GET", base + "/branches", listBranches)
      .op("listBranches", "List branches", "Build")
      .pp("deploymentId", SCH_DEPID)
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:Branch");
  route("POST", base + "/branches", createBranch)
      .op("createBranch", "Create a branch", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#CreateBranchRequest")
      .resp(201, "#Branch")
      .err({409});
  route("DELETE", base + "/branches", deleteBranch)
      .op("deleteBranch", "Delete a branch (children are re-parented)", "Build")
      .pp("deploymentId", SCH_DEPID)
      .qp("branchName", SCH_STR, "", true)
      .qp("removeOnUpstream", R"J({"type":"boolean"})J")
      .resp(200, "#Empty");
  route("POST", base + "/dev-mode", startDevMode)
      .op("startDevMode", "Start dev mode", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#BranchNameRequest", false)
      .resp(200, "#DevModeResponse");
  route("DELETE", base + "/dev-mode", stopDevMode)
      .op("stopDevMode", "Stop dev mode", "Build")
      .pp("deploymentId", SCH_DEPID)
      .qp("branchName", SCH_STR)
      .resp(200, "#DevModeResponse");
  route("GET", base + "/data-model/files", listFiles)
      .op("listDataModelFiles", "List data-model files", "Build")
      .pp("deploymentId", SCH_DEPID)
      .qp("branchName", R"J({"type":"string","default":"main"})J")
      .qp("prefix", SCH_STR)
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:DataModelFile");
  route("PUT", base + "/data-model/files", writeFiles)
      .op("writeDataModelFiles", "Write data-model files (dev-mode branches only; 423 otherwise)", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#WriteFilesRequest")
      .resp(200, "#WriteFilesResponse")
      .err({423});
  route("DELETE", base + "/data-model/files", deleteFiles)
      .op("deleteDataModelFiles", "Remove data-model files (all or nothing)", "Build")
      .pp("deploymentId", SCH_DEPID)
      .qp("branchName", SCH_STR)
      .qp("path", R"J({"type":"array","items":{"type":"string"}})J", "repeatable")
      .body("#DeleteFilesRequest", false)
      .resp(200, "#Empty")
      .err({423});
  route("POST", base + "/data-model/files/rename", renameFiles)
      .op("renameDataModelFiles", "Rename data-model files (all or nothing)", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#RenameFilesRequest")
      .resp(200, "#RenameFilesResponse")
      .err({409, 423});
  route("GET", base + "/data-model/validate", validateModel)
      .op("validateDataModel", "Compile a branch; errors come back with 200 and valid=false", "Build")
      .pp("deploymentId", SCH_DEPID)
      .qp("branchName", R"J({"type":"string","default":"main"})J")
      .resp(200, "#ValidationResult");
  route("GET", base + "/data-model/file-hashes", fileHashes)
      .op("listDataModelFileHashes", "File hashes (sha256)", "Build")
      .pp("deploymentId", SCH_DEPID)
      .qp("branchName", R"J({"type":"string","default":"main"})J")
      .qp("first", SCH_FIRST)
      .qp("after", SCH_CURSOR)
      .resp(200, "list:FileHash");
  route("POST", base + "/data-model/upload/start", uploadStart)
      .op("startUpload", "Start a chunked upload", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#BranchNameRequest", false)
      .resp(201, "#UploadStartResponse");
  route("POST", base + "/data-model/upload/file", uploadFile)
      .op("uploadFile", "Upload one file (or a chunk with append=true)", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#UploadFileRequest")
      .resp(200, "#UploadFileResponse")
      .err({409});
  route("POST", base + "/data-model/upload/finish", uploadFinish)
      .op("finishUpload", "Finish an upload and deploy it", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#UploadFinishRequest")
      .resp(200, "#UploadFinishResponse")
      .err({409});
  route("POST", base + "/commit", commit)
      .op("commitBranch", "Commit a branch's changes", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#CommitRequest")
      .resp(200, "#CommitResponse");
  route("POST", base + "/pull", pull)
      .op("pullBranch", "Pull the parent branch into a branch", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#BranchNameRequest")
      .resp(200, "#PullResponse");
  route("POST", base + "/merge", merge)
      .op("mergeBranch", "Merge a branch (default target: its parent)", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#MergeRequest")
      .resp(200, "#MergeResponse")
      .err({409});
  route("POST", base + "/merge-to-default", mergeToDefault)
      .op("mergeBranchToDefault", "Merge a branch into the production branch", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#BranchNameRequest")
      .resp(200, "#MergeResponse")
      .err({409});
  route("POST", base + "/github/connect", githubConnect)
      .op("connectGithub", "Connect the deployment to a repository", "Build")
      .pp("deploymentId", SCH_DEPID)
      .body("#GithubConnectRequest")
      .resp(200, "#GithubConnectResponse");
}

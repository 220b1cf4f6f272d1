// Seed data: users and keys, deployments, branches, workspace content, audit events, E14 records.
#include <algorithm>
#include "app.hpp"

static int64_t T(int y, int mo, int d, int h = 9, int mi = 0) { return mkTime(y, mo, d, h, mi, 0) - 19800; }

void audit(const User* u, int64_t dep, const std::string& event, Json attrs) {
  AuditEvent e;
  e.id = S.nextAudit++;
  e.at = nowSec();
  e.dep = dep;
  e.email = u ? u->email : "system";
  e.event = event;
  e.ip = "127.0.0.1";
  e.attrs = std::move(attrs);
  S.audit.push_back(std::move(e));
}

static int64_t addUser(const std::string& first, const std::string& last, const std::string& email, int role, const std::string& keyTag,
                       int64_t created) {
  User u;
  u.id = S.smallId();
  u.firstName = first;
  u.lastName = last;
  u.email = email;
  u.role = role;
  u.createdAt = created;
  u.updatedAt = created;
  u.lastLoginAt = created + 86400 * 3;
  if (u.id % 2 == 0) u.picture = "https://avatars.acme.example/" + std::to_string(u.id) + ".png";
  if (!keyTag.empty()) u.apiKey = "plat_" + keyTag + "_" + randHex(32);
  S.users[u.id] = u;
  return u.id;
}

static int64_t addPolicy(const std::string& name, const std::string& ptype, int64_t pid, const std::string& rtype, int64_t rid,
                         std::vector<std::string> actions) {
  Policy p;
  p.id = S.smallId();
  p.name = name;
  p.principalType = ptype;
  p.principalId = pid;
  p.resourceType = rtype;
  p.resourceId = rid;
  p.actions = std::move(actions);
  p.createdAt = T(2025, 1, 10);
  S.policies[p.id] = p;
  return p.id;
}

static int64_t addFolder(int64_t dep, const std::string& name, int64_t parent, int64_t owner, int64_t created, bool restricted = false) {
  Item f;
  f.id = S.wsId();
  f.dep = dep;
  f.type = "FOLDER";
  f.name = name;
  f.folderId = parent;
  f.ownerId = owner;
  f.createdAt = created;
  f.updatedAt = created + 3600;
  f.restricted = restricted;
  int pos = 0;
  for (auto& kv : S.items) if (kv.second.dep == dep && kv.second.type == "FOLDER" && kv.second.folderId == parent) pos++;
  f.position = pos * 10 + 10;
  S.items[f.id] = f;
  return f.id;
}

struct RepSpec {
  std::string name, kind;
  bool python = false;
};

static int64_t addReport(int64_t dep, int64_t wb, const RepSpec& r, int64_t owner, int64_t created) {
  Item it;
  it.id = S.wsId();
  it.dep = dep;
  it.type = "REPORT";
  it.name = r.name;
  it.kind = r.kind;
  it.workbookId = wb;
  it.folderId = S.items[wb].folderId;
  it.ownerId = owner;
  it.createdAt = created;
  it.updatedAt = created + 7200;
  it.publicId = newPublicId();
  it.title = r.name;
  if (r.python) {
    it.pythonCode = "import pandas as pd\ndf = query('SELECT status, count(*) AS n FROM orders GROUP BY 1')\nresult = df";
  } else {
    it.sqlQuery = "SELECT date_trunc('month', created_at) AS month, sum(amount) AS revenue FROM orders GROUP BY 1 ORDER BY 1";
  }
  it.meta = Json::object().set("kind", r.kind);
  if (r.kind == "vega") it.spec = Json::object().set("mark", "line").set("encoding", Json::object().set("x", Json::object().set("field", "month")));
  if (created % 3 == 0) it.lastViewedAt = created + 86400 * 5;
  S.items[it.id] = it;
  return it.id;
}

static Json snapshotFor(const Item& r) {
  Json s = Json::object();
  s.set("id", S.wsId());
  s.set("reportId", r.id);
  s.set("versionNumber", 1);
  s.set("kind", r.kind.empty() ? Json() : Json(r.kind));
  s.set("name", r.name);
  s.set("title", r.title.empty() ? Json() : Json(r.title));
  s.set("description", Json());
  s.set("sqlQuery", r.sqlQuery.empty() ? Json() : Json(r.sqlQuery));
  s.set("pythonCode", r.pythonCode.empty() ? Json() : Json(r.pythonCode));
  s.set("spec", r.spec);
  s.set("meta", r.meta);
  s.set("isSourceReport", true);
  s.set("fillMissingRows", r.kind == "vega" ? Json::object().set("member", "orders.created_at").set("excludedDimensions", Json()) : Json());
  Json pc = Json::array();
  if (r.kind == "kpi")
    pc.push(Json::object()
                .set("measure", "orders.revenue")
                .set("timeDimension", "orders.created_at")
                .set("offset", Json::object().set("amount", 1).set("unit", "year"))
                .set("outputs", Json::array().push("delta").push("percentChange")));
  s.set("periodComparisons", r.kind == "kpi" ? pc : Json());
  s.set("preferences", Json::object().set("columnFormats",
                                          Json::object().set("revenue", Json::object().set("type", "currency").set("decimalPlaces", 2))));
  return s;
}

static Json configFor(const std::string& title, const std::vector<int64_t>& reps, bool tabs) {
  Json c = Json::object();
  c.set("kind", "CLASSIC");
  c.set("title", title);
  c.set("description", "Dashboard for " + title);
  Json w = Json::array();
  w.push(Json::object()
             .set("id", "w-title")
             .set("type", "TEXT")
             .set("position", Json::object().set("x", 0).set("y", 0).set("w", 12).set("h", 1))
             .set("config", Json::object().set("text", "# " + title)));
  int y = 1;
  for (size_t k = 0; k < reps.size(); k++) {
    w.push(Json::object()
               .set("id", "w-chart-" + std::to_string(k + 1))
               .set("type", "CHART")
               .set("position", Json::object().set("x", (int)(k % 2) * 6).set("y", y).set("w", 6).set("h", 4))
               .set("responsiveLayouts",
                    Json::object().set("sm", Json::object().set("x", 0).set("y", y + (int)k * 4).set("w", 12).set("h", 4)).set("xs", Json()))
               .set("config", Json::object().set("reportId", reps[k]))
               .set("style", Json()));
    if (k % 2) y += 4;
  }
  if (tabs)
    w.push(Json::object()
               .set("id", "w-tabs")
               .set("type", "CONTAINER")
               .set("position", Json::object().set("x", 0).set("y", 20).set("w", 12).set("h", 6))
               .set("config", Json::object().set("layout", "tabs").set("tabs", Json::array().push("Summary").push("Detail"))));
  c.set("widgets", w);
  c.set("layout", Json::object()
                      .set("breakpoints", Json::object().set("lg", 1200).set("md", 996).set("sm", 768).set("xs", 480).set("xxs", 0))
                      .set("cols", Json::object().set("lg", 12).set("md", 10).set("sm", 6).set("xs", 4).set("xxs", 2))
                      .set("containerPadding", Json::array().push(16).push(16))
                      .set("margin", Json::array().push(8).push(8))
                      .set("rowHeight", 48));
  c.set("settings", Json::object().set("refreshIntervalSeconds", 900));
  c.set("theme", Json::object().set("palette", "ocean"));
  c.set("app", Json());
  return c;
}

// dash: 0 none, 1 draft only, 2 published (+draft)
static int64_t addWorkbook(int64_t dep, const std::string& name, int64_t folder, int64_t owner, int64_t created, std::vector<RepSpec> reps,
                           int dash, const std::string& slug = "", bool allowEmbed = false, bool dateOnly = false) {
  Item w;
  w.id = S.wsId();
  w.dep = dep;
  w.type = "WORKBOOK";
  w.name = name;
  w.folderId = folder;
  w.ownerId = owner;
  w.createdAt = created;
  w.updatedAt = created + 86400 * 2 + (int64_t)name.size() * 61;
  w.dateOnly = dateOnly;
  if (!slug.empty()) { w.slug = slug; w.hasSlug = true; }
  w.meta = Json::object().set("description", name + " workbook").set("tags", Json::array().push("seed"));
  w.calc = Json::object().set("margin", Json::object().set("sql", "(revenue - cost) / revenue").set("type", "number"));
  S.items[w.id] = w;
  std::vector<int64_t> rids;
  for (auto& r : reps) rids.push_back(addReport(dep, w.id, r, owner, created + 600));
  Item& wb = S.items[w.id];
  if (dash >= 1) wb.draft = configFor(name, rids, dash == 2);
  if (dash == 2) {
    Dashboard d;
    d.id = S.wsId();
    d.dep = dep;
    d.workbookId = w.id;
    d.publicId = newPublicId();
    d.status = "published";
    d.allowEmbed = allowEmbed;
    d.config = configFor(name, rids, true);
    d.versionNumber = 3;
    d.versionId = S.wsId();
    for (auto r : rids) d.snapshots.push_back(snapshotFor(S.items[r]));
    d.createdBy = owner;
    d.title = name;
    d.description = "Published view of " + name;
    d.createdAt = created + 86400;
    S.dashboards[d.id] = d;
    S.items[w.id].dashboardId = d.id;
  }
  return w.id;
}

static int64_t addBranch(int64_t dep, const std::string& name, const std::string& parent, const std::string& kind, int64_t owner, bool staging,
                         bool devMode) {
  Branch b;
  b.id = S.smallId();
  b.dep = dep;
  b.name = name;
  b.parent = parent;
  b.kind = kind;
  b.ownerId = owner;
  b.staging = staging;
  b.devMode = devMode;
  b.createdAt = T(2025, 2, 1) + (int64_t)b.id * 97;
  b.files = {
      {"cube.js", "module.exports = {\n  contextToAppId: ({ securityContext }) => `app_${securityContext.tenant}`,\n};\n"},
      {"model/cubes/orders.yml", "cubes:\n  - name: orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n"},
      {"model/cubes/customers.yml", "cubes:\n  - name: customers\n    sql_table: public.customers\n"},
      {"model/cubes/line_items.yml", "cubes:\n  - name: line_items\n    sql_table: public.line_items\n"},
      {"model/cubes/products.yml", "cubes:\n  - name: products\n    sql_table: public.products\n"},
      {"model/cubes/payments.yml", "cubes:\n  - name: payments\n    sql_table: public.payments\n"},
      {"model/cubes/suppliers.yml", "cubes:\n  - name: suppliers\n    sql_table: public.suppliers\n"},
      {"model/views/revenue.yml", "views:\n  - name: revenue\n    cubes:\n      - join_path: orders\n        includes: \"*\"\n"},
      {"model/views/customer_360.yml", "views:\n  - name: customer_360\n    cubes:\n      - join_path: customers\n        includes: \"*\"\n"},
      {"model/cubes/events.js", "cube(`events`, {\n  sql_table: `public.events`,\n  measures: { count: { type: `count` } },\n});\n"},
      {"README.md", "# Data model\n"},
  };
  b.committed = b.files;
  b.lastHash = sha256Hex(name + std::to_string(dep));
  S.branches[b.id] = b;
  return b.id;
}

static void addEnvVars(Deployment& d) {
  const char* vars[][2] = {
      {"CUBEJS_DB_TYPE", "postgres"},           {"CUBEJS_DB_HOST", "db.internal.acme.example"},
      {"CUBEJS_DB_NAME", "analytics"},          {"CUBEJS_DB_USER", "cube_reader"},
      {"CUBEJS_DB_PASS", "hunter2-super"},      {"CUBEJS_API_SECRET", "s3cr3t-signing-key"},
      {"GITHUB_TOKEN", "ghp_exampletoken123"},  {"AWS_ACCESS_KEY_ID", "AKIAEXAMPLE"},
      {"SNOWFLAKE_CREDENTIALS_JSON", "{}"},     {"CUBEJS_CACHE_AND_QUEUE_DRIVER", "cubestore"},
      {"CUBEJS_DEV_MODE", "false"},             {"TZ", "Asia/Kolkata"},
      {"db_password_hint", "the usual"},        {"MONKEY_BUSINESS", "bananas"},
      {"LOG_LEVEL", "info"},                    {"FEATURE_FLAGS", "sql-api,semantic-layer"},
  };
  int64_t t = T(2025, 3, 1);
  for (auto& v : vars) d.envVars.push_back({v[0], v[1], t++});
}

static int64_t addDeployment(int64_t id, const std::string& name, int64_t created, int64_t owner) {
  Deployment d;
  d.id = id;
  d.name = name;
  d.createdAt = created;
  d.updatedAt = created + 86400 * 30;
  d.ownerId = owner;
  d.version = "1.7.23";
  d.dbName = "db_" + std::to_string(id);
  d.templateVariables = Json::object().set("warehouse", "COMPUTE_WH").set("schema", "public").set("apiSecretKey", "hidden-value");
  d.launchpadTabs = Json::array().push("workbooks").push("dashboards");
  addEnvVars(d);
  S.deps[id] = d;
  return id;
}

static void standardBranches(int64_t dep, int64_t admin, int64_t dev, int64_t aiko) {
  addBranch(dep, "main", "", "production", admin, false, false);
  addBranch(dep, "analytics-v2", "main", "shared", admin, false, false);
  addBranch(dep, "release-2025-q3", "main", "shared", admin, true, false);
  addBranch(dep, "hotfix-currency", "main", "shared", dev, true, false);
  addBranch(dep, "dev-patel", "analytics-v2", "personal", dev, false, true);
  addBranch(dep, "dev-ada", "main", "personal", admin, false, true);
  addBranch(dep, "dev-aiko", "main", "personal", aiko, false, false);
}

static Json rec(int64_t id, int64_t created) {
  Json j = Json::object();
  j.set("id", id);
  (void)created;
  return j;
}

void seedStore() {
  S.jwtSecret = randHex(64);
  int64_t t0 = T(2024, 10, 1);
  int64_t admin = addUser("Ada", "Lovelace", "ada.admin@acme.example", ROLE_ADMIN, "admin", t0);
  int64_t dev = addUser("Dev", "Patel", "dev.patel@acme.example", ROLE_DEV, "developer", t0 + 86400);
  int64_t aiko = addUser("Aiko", "Tanaka", "aiko.tanaka@acme.example", ROLE_AIBI, "aibi", t0 + 2 * 86400);
  int64_t viewer = addUser("Victor", "Viewer", "victor.viewer@acme.example", ROLE_VIEWER, "viewer", t0 + 3 * 86400);
  int64_t auditor = addUser("Audrey", "Auditor", "audrey.auditor@acme.example", ROLE_VIEWER, "auditor", t0 + 4 * 86400);
  int64_t scoped = addUser("Scott", "Kim", "scott.kim@partner.example", ROLE_DEV, "scoped", t0 + 5 * 86400);
  int64_t embed = addUser("Emma", "Creator", "emma.creator@acme.example", ROLE_AIBI, "embed", t0 + 6 * 86400);
  int64_t gone = addUser("Dora", "Gone", "dora.gone@acme.example", ROLE_DEV, "deactivated", t0 + 7 * 86400);
  S.users[gone].active = false;
  S.users[embed].creatorMode = true;
  S.users[embed].sharedWorkspace = true;
  const char* extra[][3] = {{"Zoë", "Ångström", "zoe.angstrom@acme.example"},   {"Björn", "Müller", "bjorn.muller@acme.example"},
                            {"Chen", "Wei", "chen.wei@acme.example"},             {"Priya", "Raman", "priya.raman@acme.example"},
                            {"Liam", "O'Brien", "liam.obrien@acme.example"},      {"Sofia", "García", "sofia.garcia@acme.example"},
                            {"Noah", "Smith", "noah.smith@acme.example"},         {"Yuki", "Sato", "yuki.sato@acme.example"},
                            {"Fatima", "Zahra", "fatima.zahra@acme.example"},     {"Olu", "Adeyemi", "olu.adeyemi@acme.example"}};
  std::vector<int64_t> extras;
  int k = 0;
  for (auto& e : extra) {
    extras.push_back(addUser(e[0], e[1], e[2], k % 3 == 0 ? ROLE_AIBI : ROLE_VIEWER, "", t0 + (10 + k) * 86400));
    k++;
  }

  // groups
  auto addGroup = [&](const std::string& name, std::vector<int64_t> members) {
    Group g;
    g.id = S.smallId();
    g.name = name;
    g.description = name + " group";
    g.memberIds = members;
    g.createdAt = T(2025, 1, 5);
    g.updatedAt = g.createdAt;
    S.groups[g.id] = g;
    for (auto m : members) S.users[m].groupIds.push_back(g.id);
    return g.id;
  };
  int64_t gEng = addGroup("Engineering", {dev, scoped, gone});
  addGroup("Analysts", {aiko, viewer, extras[0], extras[1], extras[2]});
  addGroup("Finance Team", {extras[3], extras[4]});
  addGroup("Leadership", {admin, extras[5]});
  addGroup("Partners", {scoped});

  // scoped deployment membership is set below; account-level permissions
  addPolicy("Auditors may export the audit log", "user", auditor, "account", 0, {"AuditLogManage"});
  addPolicy("Engineering manages secrets", "group", gEng, "account", 0, {"SecretsManage", "DownloadData"});
  addPolicy("Analysts download data", "user", aiko, "account", 0, {"DownloadData"});

  // deployments
  int64_t dMut = addDeployment(48213, "Acme Analytics Sandbox", T(2024, 11, 5), admin);
  int64_t dLim = addDeployment(48227, "Acme Starter Plan", T(2024, 12, 12), admin);
  int64_t dScoped = addDeployment(48239, "Partner Portal", T(2025, 1, 20), admin);
  int64_t dProd = addDeployment(48251, "Acme Production", T(2024, 9, 2), admin);
  int64_t dLegacy = addDeployment(48263, "Legacy Reporting", T(2024, 6, 18), admin);
  int64_t dWiz = addDeployment(48277, "Onboarding Wizard", T(2025, 5, 30), dev);
  S.deps[dMut].version = "1.7.20";
  S.deps[dMut].hold = true;
  S.deps[dMut].history = {"1.7.8", "1.6.12"};
  S.deps[dLim].workbookLimit = 5;
  S.deps[dLim].history = {"1.7.20"};
  S.deps[dScoped].members = {admin, scoped};
  S.deps[dScoped].region = "gcp-europe-west3";
  S.deps[dScoped].cloudProvider = "gcp";
  S.deps[dProd].region = "aws-eu-central-1";
  S.deps[dProd].cloudProvider = "aws";
  S.deps[dLegacy].releaseChannel = "release";
  S.deps[dLegacy].version = "1.6.12";
  S.deps[dLegacy].hold = true;
  S.deps[dLegacy].history = {"1.5.25"};
  S.deps[dWiz].creationStep = 1;
  S.deps[dWiz].creationMethod = "upload";
  S.deps[dWiz].deployMode = "cli";
  S.deps[dWiz].githubRepo = "";
  S.deps[dMut].githubRepo = "acme/analytics-model";
  S.deps[dMut].githubBranch = "main";

  for (int64_t d : {dMut, dLim, dProd, dLegacy}) standardBranches(d, admin, dev, aiko);
  addBranch(dScoped, "main", "", "production", admin, false, false);
  addBranch(dScoped, "partner-shared", "main", "shared", admin, false, false);
  addBranch(dScoped, "dev-scott", "main", "personal", scoped, false, true);
  addBranch(dWiz, "main", "", "production", dev, false, false);

  // ---------------- workspace of the mutable deployment
  int64_t fMkt = addFolder(dMut, "Marketing", 0, admin, T(2025, 1, 8));
  int64_t fCamp = addFolder(dMut, "Campaigns", fMkt, dev, T(2025, 1, 9));
  int64_t f2025 = addFolder(dMut, "2025", fCamp, dev, T(2025, 1, 10));
  int64_t fQ1 = addFolder(dMut, "Q1", f2025, dev, T(2025, 1, 11));
  int64_t fFin = addFolder(dMut, "Finance", 0, admin, T(2025, 1, 12));
  int64_t fBud = addFolder(dMut, "Budgets", fFin, admin, T(2025, 1, 13));
  int64_t fBoard = addFolder(dMut, "Board Room", 0, admin, T(2025, 1, 14), true);
  int64_t fSandbox = addFolder(dMut, "Sandbox", 0, aiko, T(2025, 1, 15));
  int64_t fShared = addFolder(dMut, "Shared Workspace", 0, admin, T(2025, 1, 16));
  int64_t fEng = addFolder(dMut, "Engineering", 0, dev, T(2025, 1, 17));
  int64_t fPlat = addFolder(dMut, "Platform", fEng, dev, T(2025, 1, 18));
  addFolder(dMut, "Archive", 0, admin, T(2025, 1, 19));
  addPolicy("Aiko reads Finance", "user", aiko, "folder", fFin, {"Read"});
  addPolicy("Emma edits the shared workspace", "user", embed, "folder", fShared, {"Edit"});
  addPolicy("Auditor reads the board room", "user", auditor, "folder", fBoard, {"Read"});

  int64_t wRev = addWorkbook(dMut, "Revenue Overview", 0, admin, T(2025, 2, 1),
                             {{"Monthly revenue", "vega"}, {"Revenue by region", "map"}, {"Top customers", "table"}}, 2, "revenue-overview", true);
  int64_t wCamp = addWorkbook(dMut, "Campaign Performance", fCamp, dev, T(2025, 2, 3), {{"Spend vs. signups", "vega"}, {"CAC", "kpi"}}, 2,
                              "campaign-performance");
  addWorkbook(dMut, "Q1 Funnel", fQ1, dev, T(2025, 2, 5), {{"Funnel steps", "vega"}, {"Drop-off", "table"}}, 1, "q1-funnel");
  addWorkbook(dMut, "Budget 2025", fFin, admin, T(2025, 2, 7), {{"Budget vs. actual", "vega"}, {"Forecast", "kpi", true}}, 2, "budget-2025");
  addWorkbook(dMut, "Cash Flow", fBud, admin, T(2025, 2, 9), {{"Cash position", "table"}}, 0, "", false, true);
  addWorkbook(dMut, "Executive KPIs", fBoard, admin, T(2025, 2, 11), {{"ARR", "kpi"}, {"Net retention", "kpi"}}, 2, "executive-kpis");
  addWorkbook(dMut, "Scratchpad", fSandbox, aiko, T(2025, 2, 13), {{"Ad-hoc query", "table"}}, 0);
  addWorkbook(dMut, "Sales Template", fShared, admin, T(2025, 2, 15), {{"Pipeline", "vega"}, {"Win rate", "kpi"}, {"Deal table", "table", true}}, 2,
              "sales-template", true);
  addWorkbook(dMut, "Support Template", fShared, admin, T(2025, 2, 17), {{"Tickets", "table"}}, 1, "support-template");
  addWorkbook(dMut, "Platform Health", fPlat, dev, T(2025, 2, 19), {{"Error rate", "vega"}, {"Latency", "html"}}, 2, "", false, true);
  addWorkbook(dMut, "Churn Analysis", 0, aiko, T(2025, 2, 21), {{"Churn cohort", "vega"}}, 1);
  addWorkbook(dMut, "Inventory", 0, dev, T(2025, 2, 23), {{"Stock levels", "table"}, {"Warehouses", "map"}}, 2, "inventory", false, true);
  addWorkbook(dMut, "Ünïcode Ωmega Book ✓", 0, admin, T(2025, 2, 25), {{"Résumé des ventes", "table"}}, 0, "unicode-omega");
  addWorkbook(dMut, "Web Traffic", fMkt, admin, T(2025, 2, 27), {{"Sessions", "vega"}, {"Sources", "table"}}, 2);
  S.items[wRev].favoritedBy.insert(admin);
  S.items[wCamp].favoritedBy.insert(dev);
  S.items[wRev].embedAll = "read";

  // ---------------- workbook-limit deployment: exactly at its limit of 5
  int64_t fLim = addFolder(dLim, "Starter", 0, admin, T(2025, 1, 3));
  addWorkbook(dLim, "Starter Overview", 0, admin, T(2025, 3, 1), {{"Orders", "vega"}}, 2, "starter-overview");
  addWorkbook(dLim, "Starter Orders", fLim, admin, T(2025, 3, 2), {{"Orders table", "table"}}, 1);
  addWorkbook(dLim, "Starter Customers", fLim, dev, T(2025, 3, 3), {{"Customers", "table"}}, 0);
  addWorkbook(dLim, "Starter KPIs", 0, dev, T(2025, 3, 4), {{"KPIs", "kpi"}}, 2);
  addWorkbook(dLim, "Starter Map", 0, aiko, T(2025, 3, 5), {{"Map", "map"}}, 0);

  // ---------------- scoped deployment
  int64_t fP = addFolder(dScoped, "Partner Shared", 0, admin, T(2025, 2, 1));
  addFolder(dScoped, "Partner Drafts", fP, scoped, T(2025, 2, 2));
  addWorkbook(dScoped, "Partner Revenue", 0, scoped, T(2025, 3, 10), {{"Partner revenue", "vega"}}, 2, "partner-revenue");
  addWorkbook(dScoped, "Partner Leads", fP, admin, T(2025, 3, 11), {{"Leads", "table"}}, 1);
  addWorkbook(dScoped, "Partner Payouts", fP, scoped, T(2025, 3, 12), {{"Payouts", "table"}}, 0);

  // ---------------- production and others
  int64_t fOps = addFolder(dProd, "Operations", 0, admin, T(2024, 10, 1));
  int64_t fOpsD = addFolder(dProd, "Daily", fOps, admin, T(2024, 10, 2));
  addWorkbook(dProd, "Ops Daily", fOpsD, admin, T(2024, 10, 5), {{"Orders today", "kpi"}, {"Backlog", "table"}}, 2, "ops-daily");
  addWorkbook(dProd, "Ops Weekly", fOps, dev, T(2024, 10, 6), {{"Weekly orders", "vega"}}, 1);
  addWorkbook(dProd, "Company Board", 0, admin, T(2024, 10, 7), {{"Headcount", "kpi"}}, 2);
  addWorkbook(dLegacy, "Legacy Sales", 0, admin, T(2024, 7, 1), {{"Sales", "table"}}, 0, "", false, true);

  // ---------------- tenant settings
  S.tenantSettings = Json::object()
                         .set("auditLogEnabled", true)
                         .set("planTier", "enterprise")
                         .set("defaultRole", "viewer")
                         .set("sessionTimeoutMinutes", 720)
                         .set("allowedEmailDomains", Json::array().push("acme.example").push("partner.example"))
                         .set("creatorModeEnabled", true)
                         .set("timezone", "Asia/Kolkata")
                         .set("ssoEnforced", false)
                         .set("brandColor", "#0B6E4F");

  // ---------------- audit events
  struct Ev { const char* event; int64_t who; int64_t dep; const char* ip; };
  const Ev evs[] = {
      {"Logged in", admin, 0, "203.0.113.10"},          {"Logged in", dev, 0, "203.0.113.11"},
      {"Deployment updated", admin, dMut, "203.0.113.10"}, {"Workbook created", dev, dMut, "203.0.113.11"},
      {"Logged out", dev, 0, "203.0.113.11"},           {"Login failed", viewer, 0, "198.51.100.7"},
      {"Logged in", viewer, 0, "198.51.100.7"},         {"API key created", admin, 0, "203.0.113.10"},
      {"Environment variables updated", dev, dMut, "203.0.113.11"}, {"User invited", admin, 0, "203.0.113.10"},
      {"Role changed", admin, 0, "203.0.113.10"},       {"Workbook deleted", aiko, dMut, "192.0.2.44"},
      {"Logged in", aiko, 0, "192.0.2.44"},             {"Dashboard published", admin, dMut, "203.0.113.10"},
      {"Logged in", scoped, 0, "192.0.2.99"},           {"Deployment updated", scoped, dScoped, "192.0.2.99"},
      {"User deactivated", admin, 0, "203.0.113.10"},   {"Logged in", auditor, 0, "198.51.100.20"},
      {"Audit log exported", auditor, 0, "198.51.100.20"}, {"Logged in", embed, 0, "192.0.2.61"},
      {"Workbook created", embed, dMut, "192.0.2.61"},  {"Login failed", admin, 0, "45.33.32.156"},
      {"Logged in", admin, 0, "203.0.113.10"},          {"Branch created", dev, dProd, "203.0.113.11"},
      {"Environment variables updated", admin, dProd, "203.0.113.10"}, {"Logged in", dev, 0, "203.0.113.11"},
      {"Logged out", admin, 0, "203.0.113.10"},         {"Deployment created", dev, dWiz, "203.0.113.11"},
      {"Logged in", viewer, 0, "198.51.100.7"},         {"Dashboard published", dev, dMut, "203.0.113.11"},
  };
  int64_t at = T(2025, 1, 2, 8, 15);
  int n = 0;
  for (auto& e : evs) {
    AuditEvent a;
    a.id = S.nextAudit++;
    a.at = at + (int64_t)n * 86400 * 5 + n * 3671;
    a.dep = e.dep;
    a.email = S.users[e.who].email;
    a.event = e.event;
    a.ip = e.ip;
    a.attrs = Json::object().set("userAgent", n % 2 ? "Mozilla/5.0" : "platform-cli/2.4").set("sessionId", "sess_" + std::to_string(1000 + n));
    if (std::string(e.event) == "API key created") a.attrs.set("apiKey", "plat_live_abcdef");
    if (std::string(e.event) == "Environment variables updated") a.attrs.set("names", Json::array().push("CUBEJS_DB_PASS")).set("password", "x");
    if (std::string(e.event) == "Login failed") a.attrs.set("reason", "bad password");
    S.audit.push_back(a);
    n++;
  }

  // ---------------- embed tenants, users, groups
  const char* tenants[][2] = {{"Globex", "globex"}, {"Initech", "initech"}, {"Umbrella", "umbrella"}, {"Hooli", "hooli"}};
  std::vector<int64_t> tids;
  for (auto& t : tenants) {
    int64_t id = S.smallId();
    tids.push_back(id);
    S.embedTenants.rows[id] = rec(id, 0)
                                  .set("name", t[0])
                                  .set("externalId", t[1])
                                  .set("description", std::string("Embedded analytics for ") + t[0])
                                  .set("createdAt", fmtTime(T(2025, 1, 21)))
                                  .set("updatedAt", fmtTime(T(2025, 1, 21)));
  }
  S.items[wRev].embedTenants[tids[0]] = "read";
  for (size_t t = 0; t < 2; t++) {
    for (int u = 0; u < 3; u++) {
      int64_t id = S.smallId();
      std::string ext = std::string(tenants[t][1]) + "-user-" + std::to_string(u + 1);
      S.embedUsers.rows[id] = rec(id, 0)
                                  .set("tenantId", tids[t])
                                  .set("externalId", ext)
                                  .set("email", ext + "@" + tenants[t][1] + ".example")
                                  .set("name", std::string("User ") + std::to_string(u + 1) + " of " + tenants[t][0])
                                  .set("attributes", Json::object().set("region", u % 2 ? "EMEA" : "AMER"))
                                  .set("createdAt", fmtTime(T(2025, 1, 22)));
    }
    int64_t gid = S.smallId();
    Json members = Json::array();
    for (auto& kv : S.embedUsers.rows)
      if (kv.second.get("tenantId")->asInt() == tids[t] && members.size() < 2) members.push(kv.first);
    S.embedGroups.rows[gid] = rec(gid, 0)
                                  .set("tenantId", tids[t])
                                  .set("name", std::string(tenants[t][0]) + " analysts")
                                  .set("memberIds", members)
                                  .set("createdAt", fmtTime(T(2025, 1, 23)));
  }

  // ---------------- user attributes and values
  const char* attrs[][3] = {{"region", "Region", "string"},
                            {"max_discount", "Maximum discount", "number"},
                            {"is_partner", "Partner flag", "boolean"},
                            {"territories", "Territories", "string_array"},
                            {"cost_centers", "Cost centers", "number_array"}};
  for (auto& a : attrs) {
    int64_t id = S.smallId();
    S.userAttributes.rows[id] = rec(id, 0)
                                    .set("name", a[0])
                                    .set("displayName", a[1])
                                    .set("type", a[2])
                                    .set("defaultValue", Json())
                                    .set("createdAt", fmtTime(T(2025, 1, 25)))
                                    .set("updatedAt", fmtTime(T(2025, 1, 25)));
  }
  {
    auto it = S.userAttributes.rows.begin();
    S.attrValues[aiko][it->first] = Json("APAC");
    S.attrValues[dev][it->first] = Json("EMEA");
    ++it;
    S.attrValues[aiko][it->first] = Json(12.5);
  }

  // ---------------- integrations
  for (int i = 0; i < 3; i++) {
    int64_t id = S.smallId();
    const char* prov[] = {"snowflake", "salesforce", "google-sheets"};
    S.oauthIntegrations.rows[id] = rec(id, 0)
                                       .set("name", std::string("Acme ") + prov[i])
                                       .set("provider", prov[i])
                                       .set("clientId", "client-" + std::to_string(id))
                                       .set("scopes", Json::array().push("read"))
                                       .set("authorizeUrl", std::string("https://login.") + prov[i] + ".example/oauth/authorize")
                                       .set("tokenUrl", std::string("https://login.") + prov[i] + ".example/oauth/token")
                                       .set("createdAt", fmtTime(T(2025, 1, 26)));
    S.oauthIntegrations.secrets[id]["clientSecret"] = "cs_" + randHex(16);
  }
  {
    int64_t integ = S.oauthIntegrations.rows.begin()->first;
    for (int64_t u : {admin, dev}) {
      int64_t id = S.smallId();
      S.userTokens.rows[id] = rec(id, 0)
                                  .set("integrationId", integ)
                                  .set("userId", u)
                                  .set("scopes", Json::array().push("read"))
                                  .set("expiresAt", fmtTime(T(2026, 1, 1)))
                                  .set("createdAt", fmtTime(T(2025, 1, 27)));
      S.userTokens.secrets[id]["accessToken"] = "at_" + randHex(20);
    }
  }
  for (int i = 0; i < 2; i++) {
    int64_t id = S.smallId();
    S.oidcConfigs.rows[id] = rec(id, 0)
                                 .set("name", i ? "Okta workforce" : "Azure AD")
                                 .set("issuer", i ? "https://acme.okta.example" : "https://login.microsoftonline.example/acme/v2.0")
                                 .set("audience", "analytics-platform")
                                 .set("claimMappings", Json::object().set("email", "email").set("groups", "groups"))
                                 .set("createdAt", fmtTime(T(2025, 1, 28)));
  }

  // ---------------- notifications (mutable deployment)
  const char* notes[][3] = {{"Weekly revenue digest", "0 8 * * 1", "week"}, {"Daily campaign pulse", "30 7 * * *", "day"},
                            {"Monthly board pack", "0 9 1 * *", "month"}};
  int ni = 0;
  for (auto& nt : notes) {
    int64_t id = S.smallId();
    Json filters = Json::array();
    filters.push(Json::object().set("member", "orders.status").set("operator", "equals").set("values", Json::array().push("completed")));
    if (ni == 1) filters.push(Json::object().set("member", "orders.coupon").set("operator", "is_not_empty").set("values", Json()));
    S.notifications.rows[id] = rec(id, 0)
                                   .set("deploymentId", dMut)
                                   .set("name", nt[0])
                                   .set("workbookId", ni == 1 ? wCamp : wRev)
                                   .set("schedule", nt[1])
                                   .set("timezone", "Asia/Kolkata")
                                   .set("timeGrain", nt[2])
                                   .set("recipients", Json::array().push("ada.admin@acme.example"))
                                   .set("filters", filters)
                                   .set("enabled", ni != 2)
                                   .set("createdBy", admin)
                                   .set("createdAt", fmtTime(T(2025, 3, 3)))
                                   .set("updatedAt", fmtTime(T(2025, 3, 3)));
    ni++;
  }

  // ---------------- dbt history
  const char* jobs[][3] = {{"main", "refs/heads/main", "schedule"}, {"analytics-v2", "refs/heads/analytics-v2", "api"},
                           {"main", "v2025.03.1", "webhook"}};
  int ji = 0;
  for (auto& j : jobs) {
    DbtJob job;
    job.id = "dbt_" + toBase36((uint64_t)(1700000 + ji * 7919));
    job.dep = dMut;
    job.branchName = j[0];
    job.ref = j[1];
    job.trigger = j[2];
    job.createdMs = (T(2025, 4, 1) + ji * 86400) * 1000LL;
    job.fail = ji == 1;
    if (ji == 2) job.cancelledMs = job.createdMs + 100;
    job.createdBy = admin;
    S.dbt[job.id] = job;
    ji++;
  }
}

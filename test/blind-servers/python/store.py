"""In-memory state, seeded at start."""
import datetime as _dt
import hashlib
import itertools
import random
import secrets
import uuid

from core import now

R = random.Random(20240607)
T0 = now()


def ago(days=0, hours=0, minutes=0):
    return T0 - _dt.timedelta(days=days, hours=hours, minutes=minutes)


def rhash():
    return hashlib.sha1(str(R.random()).encode()).hexdigest()


ROLE_RANK = {"VIEWER": 1, "AI_BI_USER": 2, "DEVELOPER": 3, "ADMIN": 4}
ROLE_PERMS = {
    "ADMIN": {"AuditLogManage", "SecretsManage", "DownloadData", "DeploymentManage", "UserManage"},
    "DEVELOPER": {"DownloadData", "DeploymentManage"},
    "AI_BI_USER": {"DownloadData"},
    "VIEWER": set(),
}
LEVELS = {"none": 0, "read": 1, "edit": 2, "manage": 3}

ids = {k: itertools.count(s) for k, s in [
    ("item", 1001), ("dash", 501), ("dashver", 9001), ("snap", 70001), ("branch", 31), ("user", 1),
    ("group", 11), ("placement", 801), ("notif", 61), ("tenant", 201), ("tuser", 2001), ("tgroup", 301),
    ("attr", 41), ("oauth", 71), ("uotok", 91), ("oidc", 51), ("dbt", 5001), ("deploy", 4105), ("upload", 1),
    ("audit", 100001)]}


def nid(k):
    return next(ids[k])


DB = {
    "tenant": {"name": "Acme Analytics", "plan": "enterprise", "auditLogEnabled": True,
               "sessionTimeoutMinutes": 720, "defaultRole": "VIEWER",
               "allowedEmailDomains": ["acme.example"], "enforceSso": False, "timezone": "UTC"},
    "users": {}, "keys": {}, "groups": {}, "deployments": {}, "envs": {}, "branches": {}, "versions": [],
    "version_history": {}, "items": {}, "dashboards": {}, "env_vars": {}, "audit": [], "policies": {},
    "favorites": set(), "placements": {}, "notifications": {}, "tenants": {}, "tenant_users": {},
    "tenant_groups": {}, "attributes": {}, "attr_values": {}, "oauth": {}, "uotokens": {}, "oidc": {},
    "dbt": {}, "uploads": {}, "embed_access": {}, "app_config": {}, "dev_mode": {},
}

# ---------------------------------------------------------------- users, keys, groups
USERS = [
    (1, "alice@acme.example", "Alice", "Admin", "ADMIN"),
    (2, "bob@acme.example", "Bob", "Builder", "DEVELOPER"),
    (3, "carol@acme.example", "Carol", "Chen", "AI_BI_USER"),
    (4, "dave@acme.example", "Dave", "Diaz", "VIEWER"),
    (5, "erin@acme.example", "Erin", "Evans", "AI_BI_USER"),
    (6, "embed-creator@partner.example", "Creator", None, "AI_BI_USER"),
    (7, "embed-viewer@partner.example", "Viewer", None, "VIEWER"),
    (8, "ops-bot@acme.example", None, None, "ADMIN"),
    (9, "frank@acme.example", "Frank", "Fisher", "DEVELOPER"),
    (10, "grace@acme.example", "Grace", "Green", "AI_BI_USER"),
]
for uid, email, fn, ln, role in USERS:
    next(ids["user"])
    DB["users"][uid] = {"id": uid, "email": email, "firstName": fn, "lastName": ln, "role": role,
                        "status": "ACTIVE", "picture": ("https://avatars.acme.example/%d.png" % uid) if uid < 6 else None,
                        "createdAt": ago(days=400 - uid * 7), "lastLoginAt": ago(hours=uid * 5),
                        "embed": uid in (6, 7)}

KEY_DEFS = [("admin", 1, None, False), ("developer", 2, None, False), ("ai_bi_user", 3, None, False),
            ("viewer", 4, None, False), ("ai_bi_user_2", 5, None, False), ("embed_creator", 6, None, True),
            ("embed_viewer", 7, None, False), ("scoped_admin", 8, {"4102"}, False)]
TOKENS = {}
for name, uid, deps, creator in KEY_DEFS:
    k = "pk_%s_%s" % (name.replace("_", ""), secrets.token_hex(16))
    TOKENS[name] = k
    DB["keys"][k] = {"name": name, "userId": uid, "deployments": deps, "creatorMode": creator,
                     "embed": uid in (6, 7)}

for gid, name, members in [(11, "sales", [3, 10]), (12, "finance", [5]), (13, "data-team", [2, 9]),
                           (14, "executives", [1])]:
    next(ids["group"])
    DB["groups"][gid] = {"id": gid, "name": name, "description": "%s team" % name.title(),
                         "memberIds": list(members), "createdAt": ago(days=300 - gid)}

# ---------------------------------------------------------------- versions
VERSIONS = [("1.7.20", "latest", True), ("1.7.18", "latest", False), ("1.7.15", "latest", False),
            ("1.6.12", "release", True), ("1.6.9", "release", False), ("1.5.3", "release", False)]
DB["versions"] = [{"version": v, "releaseChannel": c, "isLatestInChannel": l,
                   "releaseChannelVersion": "cubejs/cube:v%s" % v} for v, c, l in VERSIONS]

# ---------------------------------------------------------------- deployments
DEPS = [("4101", "Sales Analytics", "aws", "us-east-1", "latest", "1.7.18", 420, "github", "git", None),
        ("4102", "Marketing Lake", "gcp", "europe-west3", "release", "1.6.12", 300, "hosted", "git", None),
        ("4103", "Finance Core", "hosted", "us-west-2", "release", "1.6.9", 200, "upload", "cli", 4),
        ("4104", "Sandbox", "hosted", "eu-central-1", "latest", "1.7.20", 12, "ssh", "cli", None)]
HISTORY = {"4101": ["1.7.15", "1.6.9"], "4102": ["1.6.9"], "4103": ["1.5.3"], "4104": []}


def new_deployment(did, name, cloud, region, channel, version, age_days, cm, dm, limit=None, step="done"):
    DB["deployments"][did] = {
        "id": did, "name": name, "created_at": ago(days=age_days), "updated_at": ago(days=max(age_days - 3, 0)),
        "status": "running", "cloudProvider": cloud, "region": region, "releaseChannel": channel,
        "version": version, "releaseChannelVersionHold": False, "template": None,
        "templateVariables": {"DB_SCHEMA": "analytics", "TZ": "UTC"}, "defaultLaunchpadViewGroup": None,
        "launchpadTabs": ["home", "workbooks"], "creationMethod": cm, "deployMode": dm, "creationStep": step,
        "workbookLimit": limit, "githubRepository": "acme/%s-model" % name.lower().replace(" ", "-") if cm == "github" else None,
        "podsStarted": ago(hours=R.randint(2, 90)), "buildSeq": 0,
    }
    DB["version_history"][did] = list(HISTORY.get(did, []))
    bid = nid("branch")
    files = {
        "model/cubes/orders.yml": "cubes:\n  - name: orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n",
        "model/cubes/customers.yml": "cubes:\n  - name: customers\n    sql_table: public.customers\n",
        "model/views/sales.yml": "views:\n  - name: sales\n    cubes:\n      - join_path: orders\n        includes: '*'\n",
        "cube.js": "module.exports = {\n  contextToAppId: ({ securityContext }) => `app_${securityContext.tenant}`,\n};\n",
    }
    DB["branches"][did] = [{"id": bid, "name": "main", "parentBranch": None, "lastHash": rhash(),
                            "staging": False, "kind": "production", "owner": None, "createdAt": ago(days=age_days),
                            "files": dict(files), "devMode": False, "buildStatus": "deployed",
                            "buildUpdatedAt": ago(hours=3)}]
    DB["env_vars"][did] = {}
    DB["envs"][did] = []
    DB["notifications"][did] = {}
    DB["dbt"][did] = {}
    return DB["deployments"][did]


def add_branch(did, name, parent, kind, owner=None, staging=False):
    parent_b = next(b for b in DB["branches"][did] if b["name"] == parent)
    b = {"id": nid("branch"), "name": name, "parentBranch": parent, "lastHash": rhash(), "staging": staging,
         "kind": kind, "owner": owner, "createdAt": ago(days=R.randint(2, 60)), "files": dict(parent_b["files"]),
         "devMode": kind == "personal", "buildStatus": "deployed", "buildUpdatedAt": ago(hours=R.randint(1, 40))}
    DB["branches"][did].append(b)
    return b


for d in DEPS:
    new_deployment(*d[:9], limit=d[9])

for did in ["4101", "4102", "4103", "4104"]:
    DB["envs"][did].append({"id": "env-%s-prod" % did, "name": "Production", "type": "production",
                            "branch": "main", "user": "alice@acme.example", "createdAt": DB["deployments"][did]["created_at"]})
add_branch("4101", "feature/revenue-v2", "main", "shared", staging=True)
add_branch("4101", "release/2024-q3", "main", "shared")
add_branch("4101", "hotfix/tax-rounding", "release/2024-q3", "shared")
add_branch("4101", "dev-bob", "main", "personal", owner="bob@acme.example")
add_branch("4101", "dev-frank", "feature/revenue-v2", "personal", owner="frank@acme.example")
add_branch("4102", "experiments", "main", "shared")
add_branch("4102", "dev-bob", "main", "personal", owner="bob@acme.example")
add_branch("4103", "quarter-close", "main", "shared", staging=True)
add_branch("4104", "dev-alice", "main", "personal", owner="alice@acme.example")
DB["branches"]["4101"][-1]["files"]["model/cubes/broken.yml"] = "cubez:\n  - name: broken\n\tsql: ???\n"

ENV_SEED = {
    "DB_HOST": "warehouse.internal.acme.example", "DB_PORT": "5439", "DB_NAME": "analytics",
    "DB_USER": "cube_reader", "DB_PASS": "s3cr3t-Pa55", "CUBE_API_SECRET": "a1b2c3d4e5f6",
    "CUBEJS_DB_TYPE": "redshift", "SLACK_WEBHOOK_TOKEN": "xoxb-123-456", "AWS_ACCESS_KEY_ID": "AKIAEXAMPLE",
    "GCP_CREDENTIALS_JSON": "{\"type\":\"service_account\"}", "CACHE_TTL_SECONDS": "600", "TZ": "UTC",
    "FEATURE_FLAGS": "pivot,ai", "LOG_LEVEL": "info",
}
for did in DB["deployments"]:
    for k, v in ENV_SEED.items():
        DB["env_vars"][did][k] = v
    if did != "4101":
        for k in list(DB["env_vars"][did])[8:]:
            del DB["env_vars"][did][k]


# ---------------------------------------------------------------- workspace
def new_item(did, typ, name, owner, folder=None, created=None, **kw):
    iid = nid("item")
    c = created if created is not None else ago(days=R.randint(5, 200))
    it = {"id": iid, "deploymentId": int(did), "type": typ, "name": name, "meta": {}, "calculatedFields": {},
          "createdAt": c, "updatedAt": (c if isinstance(c, _dt.datetime) else ago(days=R.randint(0, 4), hours=1)),
          "createdBy": owner, "folderId": folder, "slug": None, "dashboardDraft": None, "dashboardId": None,
          "workbookId": None, "shared": False, "position": 0, "archived": False}
    if typ == "REPORT":
        it.update({"publicId": str(uuid.UUID(int=R.getrandbits(128))), "kind": R.choice(["vega", "table", "kpi"]),
                   "title": name, "sqlQuery": "SELECT status, COUNT(*) FROM orders GROUP BY 1",
                   "spec": None, "pythonCode": None, "externalWorkbookIds": [],
                   "lastViewedAt": ago(days=R.randint(0, 30), hours=R.randint(0, 23))})
    it.update(kw)
    DB["items"][iid] = it
    return it


def publish_dashboard(wb, creator, allow_embed=False, reports=None, shared=False):
    reports = reports if reports is not None else [i for i in DB["items"].values()
                                                   if i["type"] == "REPORT" and i["workbookId"] == wb["id"]]
    widgets = []
    snaps = []
    for n, rep in enumerate(reports):
        widgets.append({"id": "w%d" % (n + 1), "type": "CHART", "position": {"x": (n % 2) * 6, "y": (n // 2) * 4, "w": 6, "h": 4},
                        "responsiveLayouts": None, "config": {"reportId": rep["id"]}, "style": None})
        snaps.append({"id": nid("snap"), "reportId": rep["id"], "versionNumber": 1, "kind": rep["kind"],
                      "name": rep["name"], "title": rep["title"], "description": None, "sqlQuery": rep["sqlQuery"],
                      "pythonCode": rep.get("pythonCode"), "spec": rep.get("spec"), "meta": {}, "isSourceReport": True,
                      "fillMissingRows": None, "periodComparisons": None,
                      "preferences": {"columnFormats": {"count": {"type": "number", "decimalPlaces": 0}}}})
    widgets.append({"id": "t1", "type": "TEXT", "position": {"x": 0, "y": 40, "w": 12, "h": 1},
                    "config": {"text": "Data refreshed hourly"}})
    cfg = {"kind": "CLASSIC", "title": wb["name"], "description": None, "widgets": widgets,
           "layout": {"breakpoints": {"lg": 1200, "md": 996, "sm": 768, "xs": 480, "xxs": 0},
                      "cols": {"lg": 12, "md": 10, "sm": 6, "xs": 4, "xxs": 2}, "containerPadding": [8, 8],
                      "margin": [8, 8], "rowHeight": 40},
           "settings": {}, "theme": {}, "app": None}
    did = nid("dash")
    d = {"id": did, "publicId": str(uuid.UUID(int=R.getrandbits(128))), "deploymentId": wb["deploymentId"],
         "workbookId": wb["id"], "status": "published", "allowEmbed": allow_embed, "config": cfg,
         "versionNumber": R.randint(1, 6), "versionId": nid("dashver"), "reportSnapshots": snaps,
         "createdBy": creator, "title": wb["name"], "description": None, "fromSharedWorkspace": shared or None,
         "restrictDataDownload": False, "useBoardDashboards": False}
    DB["dashboards"][did] = d
    wb["dashboardId"] = did
    wb["dashboardDraft"] = {k: v for k, v in cfg.items()}
    return d


def seed_workspace():
    f_sales = new_item("4101", "FOLDER", "Sales", 1)
    f_emea = new_item("4101", "FOLDER", "EMEA", 1, folder=f_sales["id"])
    f_de = new_item("4101", "FOLDER", "Germany", 3, folder=f_emea["id"])
    f_fin = new_item("4101", "FOLDER", "Finance", 1)
    f_mkt = new_item("4101", "FOLDER", "Marketing", 2)
    f_arch = new_item("4101", "FOLDER", "Archive", 1)
    for n, f in enumerate([f_sales, f_emea, f_de, f_fin, f_mkt, f_arch]):
        f["position"] = n
    DB["policies"][f_sales["id"]] = {("group", 11): "edit"}
    DB["policies"][f_fin["id"]] = {("all", None): "none", ("group", 12): "edit", ("group", 14): "manage"}
    DB["policies"][f_arch["id"]] = {("all", None): "read"}
    topics = ["Revenue", "Pipeline", "Churn", "Bookings", "Margins", "Forecast", "Cohorts", "Retention",
              "Inventory", "Shipping", "Returns", "Campaigns", "Leads", "Quota", "Territories"]
    places = [None, None, f_sales["id"], f_emea["id"], f_de["id"], f_fin["id"], f_mkt["id"], f_arch["id"], None]
    owners = [1, 2, 3, 1, 9, 5, 2, 1, 5]
    for n in range(45):
        name = "%s %s" % (topics[n % len(topics)], ["Overview", "Deep Dive", "Weekly"][n // len(topics)])
        created = (ago(days=300 + n)).date() if n % 4 == 0 else ago(days=R.randint(5, 250), hours=n)
        wb = new_item("4101", "WORKBOOK", name, owners[n % len(owners)], folder=places[n % len(places)],
                      created=created, meta={"color": R.choice(["blue", "green", "amber"]), "tier": n % 3},
                      calculatedFields={"aov": {"sql": "revenue / orders", "type": "number"}} if n % 5 == 0 else {})
        if n == 0:
            wb["slug"] = "revenue-overview"
        if n == 1:
            wb["slug"] = "pipeline-overview"
        reps = [new_item("4101", "REPORT", "%s chart %d" % (name, k + 1), wb["createdBy"], folder=wb["folderId"],
                         workbookId=wb["id"]) for k in range(1 + n % 3)]
        if n % 3 == 0:
            publish_dashboard(wb, wb["createdBy"], allow_embed=(n % 6 == 0), reports=reps)
        if n % 7 == 0:
            DB["favorites"].add((1, wb["id"]))
        if n % 9 == 2:
            DB["favorites"].add((3, wb["id"]))
    # standalone reports
    for n in range(4):
        new_item("4101", "REPORT", "Ad-hoc report %d" % (n + 1), [1, 3, 2, 9][n],
                 folder=[None, f_sales["id"], f_mkt["id"], None][n])
    # shared workspace
    for n, pub in enumerate([True, True, False]):
        wb = new_item("4101", "WORKBOOK", "Partner Template %d" % (n + 1), 1, shared=True)
        reps = [new_item("4101", "REPORT", "Template KPI %d.%d" % (n + 1, k + 1), 1, workbookId=wb["id"], shared=True)
                for k in range(2)]
        if pub:
            publish_dashboard(wb, 1, allow_embed=True, reports=reps, shared=True)
    # other deployments
    for did, count in [("4102", 6), ("4103", 4), ("4104", 2)]:
        f = new_item(did, "FOLDER", "Team", 1)
        for n in range(count):
            wb = new_item(did, "WORKBOOK", "%s workbook %d" % (DB["deployments"][did]["name"], n + 1), [1, 2, 3][n % 3],
                          folder=f["id"] if n % 2 else None)
            reps = [new_item(did, "REPORT", "%s report" % wb["name"], wb["createdBy"], folder=wb["folderId"],
                             workbookId=wb["id"])]
            if n % 2 == 0:
                publish_dashboard(wb, wb["createdBy"], reports=reps)


seed_workspace()

# ---------------------------------------------------------------- audit
EVENTS = ["Logged in", "Logged out", "Login failed", "Deployment updated", "API key created",
          "Environment variables updated", "Workbook deleted", "User invited", "Role changed",
          "Dashboard published"]
IPS = ["203.0.113.7", "198.51.100.23", "192.0.2.44", "203.0.113.90"]
for n in range(80):
    u = DB["users"][[1, 2, 3, 4, 5, 9, 10][n % 7]]
    ev = EVENTS[0] if n % 3 == 0 else EVENTS[n % len(EVENTS)]
    dep = DB["deployments"][["4101", "4102", "4103", "4101"][n % 4]]
    attrs = {"userAgent": "Mozilla/5.0", "method": "password" if ev.startswith("Log") else "api"}
    if ev == "Environment variables updated":
        attrs["names"] = ["DB_PASS", "TZ"]
        attrs["value"] = "[HIDDEN]"
    DB["audit"].append({"id": nid("audit"), "at": ago(days=n * 0.9, hours=n % 5), "event": ev, "email": u["email"],
                        "deployment": dep["name"], "ip": IPS[n % 4], "attributes": attrs})

# ---------------------------------------------------------------- misc collections
for n, (name, ext) in enumerate([("Globex", "globex"), ("Initech", "initech"), ("Umbrella", "umbrella")]):
    tid = nid("tenant")
    DB["tenants"][tid] = {"id": tid, "name": name, "externalId": ext, "createdAt": ago(days=90 - n * 10),
                          "securityContext": {"tenant_id": ext}}
    for k in range(2 + n):
        uid = nid("tuser")
        DB["tenant_users"][uid] = {"id": uid, "tenantId": tid, "externalId": "%s-user-%d" % (ext, k + 1),
                                   "email": "user%d@%s.example" % (k + 1, ext), "createdAt": ago(days=30 - k)}
    gid = nid("tgroup")
    DB["tenant_groups"][gid] = {"id": gid, "tenantId": tid, "name": "%s analysts" % name,
                                "memberIds": [u for u, x in DB["tenant_users"].items() if x["tenantId"] == tid][:2],
                                "createdAt": ago(days=20)}

for name, typ, dv in [("region", "string", "NA"), ("max_discount", "number", 0.1), ("is_partner", "boolean", False),
                      ("allowed_brands", "string_array", []), ("cost_centers", "number_array", [])]:
    aid = nid("attr")
    DB["attributes"][aid] = {"id": aid, "name": name, "type": typ, "defaultValue": dv,
                             "description": "Seeded attribute %s" % name, "createdAt": ago(days=100 - aid)}
DB["attr_values"][3] = {41: "EMEA", 43: True}
DB["attr_values"][5] = {42: 0.25, 44: ["Acme", "Zenith"]}

for name, prov in [("Google Sheets", "google"), ("Slack", "slack")]:
    oid = nid("oauth")
    DB["oauth"][oid] = {"id": oid, "name": name, "provider": prov, "clientId": "client-%s-%d" % (prov, oid),
                        "clientSecret": secrets.token_hex(8), "scopes": ["read"], "createdAt": ago(days=50),
                        "updatedAt": ago(days=10)}
tid_ = nid("uotok")
DB["uotokens"][tid_] = {"id": tid_, "integrationId": 71, "userId": 1, "scopes": ["read"],
                        "expiresAt": T0 + _dt.timedelta(days=30), "createdAt": ago(days=3), "accessToken": "ya29.hidden"}
oid_ = nid("oidc")
DB["oidc"][oid_] = {"id": oid_, "name": "Okta", "issuer": "https://acme.okta.example", "audience": "platform-api",
                    "claimsMapping": {"email": "email", "groups": "groups"}, "createdAt": ago(days=70),
                    "updatedAt": ago(days=70)}

for did in ["4101", "4102"]:
    wbs = [i for i in DB["items"].values() if i["type"] == "WORKBOOK" and str(i["deploymentId"]) == did and i["dashboardId"]]
    for n in range(3):
        xid = nid("notif")
        DB["notifications"][did][xid] = {
            "id": xid, "name": "Weekly digest %d" % (n + 1), "workbookId": wbs[n]["id"],
            "schedule": {"cron": "0 8 * * %d" % (n + 1), "timezone": "Europe/Berlin"},
            "recipients": ["alice@acme.example", "carol@acme.example"][: n + 1],
            "dashboardFilters": [{"member": "orders.status", "operator": ["equals", "is_not_empty", "is_empty"][n],
                                  "values": ["completed"] if n == 0 else []}],
            "timeGrain": ["week", "day", "month"][n], "enabled": n != 2, "createdBy": 1,
            "createdAt": ago(days=20 + n), "updatedAt": ago(days=n)}
    for n, st in enumerate(["succeeded", "failed", "succeeded"]):
        jid = nid("dbt")
        DB["dbt"][did][jid] = {"id": jid, "status": st, "trigger": ["manual", "schedule", "api"][n], "branchName": "main",
                               "ref": "main", "createdAt": ago(days=5 - n), "startedAt": ago(days=5 - n),
                               "finishedAt": ago(days=5 - n) + _dt.timedelta(minutes=3), "fixed": True,
                               "cancelRequested": False, "createdBy": 2}

DB["app_config"] = {
    "appTheme": {"primaryColor": "#3b5bdb", "logoUrl": "https://static.acme.example/logo.svg", "mode": "light"},
    "applyThemeGlobally": False, "creatorMode": {"enabled": True, "allowedTenants": ["globex"]},
    "embedding": {"signedEmbeddingEnabled": True, "allowedOrigins": ["https://portal.globex.example"]},
    "sheetsUi": {"enabled": True, "providers": ["google", "excel"]},
    "timezoneSettings": {"defaultTimezone": "UTC", "allowUserOverride": True},
}
DB["embed_access"] = {}

use crate::json::Json;
use crate::obj;
use crate::util::*;
use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, PartialOrd, Debug)]
pub enum Role { Viewer = 0, AiBiUser = 1, Developer = 2, Admin = 3 }
impl Role {
    pub fn name(&self) -> &'static str { match self { Role::Viewer => "Viewer", Role::AiBiUser => "AIBIUser", Role::Developer => "Developer", Role::Admin => "Admin" } }
    pub fn parse(s: &str) -> Option<Role> {
        match s.to_ascii_lowercase().replace(['_', '-', ' '], "").as_str() {
            "viewer" => Some(Role::Viewer), "aibiuser" => Some(Role::AiBiUser), "developer" => Some(Role::Developer), "admin" => Some(Role::Admin), _ => None,
        }
    }
}
#[derive(Clone, Copy, PartialEq, PartialOrd, Debug)]
pub enum Level { None = 0, Read = 1, Edit = 2, Manage = 3 }

#[derive(Clone)]
pub struct User {
    pub id: i64, pub email: String, pub first_name: Option<String>, pub last_name: Option<String>, pub role: Role,
    pub active: bool, pub api_key: String, pub audit_log: bool, pub creator_mode: bool, pub scoped: Option<Vec<String>>,
    pub picture: Option<String>, pub created_at: i64, pub updated_at: i64, pub deleted: bool,
}

#[derive(Clone, PartialEq)]
pub enum BranchKind { Production, Shared, Personal }
#[derive(Clone)]
pub struct Branch {
    pub id: i64, pub name: String, pub parent: Option<String>, pub last_hash: String, pub staging: bool, pub kind: BranchKind,
    pub owner: Option<i64>, pub dev_mode: bool, pub env_id: String, pub files: Vec<(String, String)>, pub dirty: bool, pub created_at: i64,
    pub build: String,
}

#[derive(Clone)]
pub struct Folder { pub id: i64, pub name: String, pub parent: Option<i64>, pub position: i64, pub owner: i64, pub restricted: bool, pub grants: Vec<(i64, Level)>, pub created_at: i64, pub updated_at: i64, pub updated_by: i64 }

#[derive(Clone)]
pub struct Workbook {
    pub id: i64, pub name: String, pub folder: Option<i64>, pub owner: i64, pub meta: Json, pub calc: Json, pub created_at: i64, pub date_only: bool,
    pub updated_at: i64, pub slug: Option<String>, pub favorite: bool, pub draft: Json, pub dashboard: Option<i64>, pub restricted: bool,
    pub grants: Vec<(i64, Level)>, pub shared: bool, pub embed_access: Vec<(String, String)>,
}

#[derive(Clone)]
pub struct Placement { pub id: i64, pub external_workbook_id: String, pub sheet_name: String, pub anchor_cell: String, pub created_at: i64, pub refreshed_at: Option<i64> }

#[derive(Clone)]
pub struct Report {
    pub id: i64, pub workbook: Option<i64>, pub folder: Option<i64>, pub name: String, pub public_id: String, pub kind: String, pub sql: Option<String>,
    pub python: Option<String>, pub spec: Json, pub title: Option<String>, pub description: Option<String>, pub owner: i64, pub created_at: i64, pub updated_at: i64,
    pub last_viewed: Option<i64>, pub placements: Vec<Placement>,
}

#[derive(Clone)]
pub struct Dashboard {
    pub id: i64, pub public_id: String, pub workbook: i64, pub status: String, pub allow_embed: bool, pub config: Json, pub version_number: i64,
    pub version_id: i64, pub snapshots: Vec<Json>, pub created_by: Option<i64>, pub title: Option<String>, pub description: Option<String>,
    pub from_shared: bool, pub restrict_dl: bool, pub use_board: bool,
}

#[derive(Clone)]
pub struct DbtJob { pub id: i64, pub branch: String, pub git_ref: Option<String>, pub trigger: String, pub created_at: i64, pub cancelled_at: Option<i64>, pub by: i64 }

#[derive(Clone)]
pub struct Upload { pub id: String, pub branch: String, pub files: Vec<(String, String)>, pub finished: bool, pub created_at: i64 }

#[derive(Clone)]
pub struct Deployment {
    pub id: String, pub name: String, pub created_at: i64, pub cloud_provider: String, pub region: String, pub release_channel: String, pub version: String,
    pub hold: bool, pub template: String, pub template_vars: Json, pub launchpad_group: Json, pub launchpad_tabs: Json, pub creation_method: String,
    pub deploy_mode: String, pub creation_step: usize, pub workbook_limit: Option<usize>, pub members: Option<Vec<i64>>, pub env_vars: Vec<(String, String)>,
    pub github: Json, pub branches: Vec<Branch>, pub folders: Vec<Folder>, pub workbooks: Vec<Workbook>, pub reports: Vec<Report>, pub dashboards: Vec<Dashboard>,
    pub dbt_jobs: Vec<DbtJob>, pub uploads: Vec<Upload>, pub updated_at: i64,
}

#[derive(Clone)]
pub struct Audit { pub id: i64, pub at: i64, pub event: String, pub email: String, pub deployment: String, pub ip: String, pub attrs: Json }

pub struct State {
    pub users: Vec<User>,
    pub deployments: Vec<Deployment>,
    pub audit: Vec<Audit>,
    pub colls: HashMap<String, Vec<Json>>,
    pub attr_values: HashMap<i64, Vec<(i64, Json)>>,
    pub tenant_settings: Json,
    pub seq: HashMap<&'static str, i64>,
    pub jwt_secret: Vec<u8>,
    pub started: i64,
}

pub const STEPS: [&str; 5] = ["connect-source", "configure-database", "generate-model", "deploy", "complete"];
pub const VERSIONS: [(&str, &str, bool); 5] = [("1.5.30", "release", false), ("1.6.7", "release", false), ("1.6.12", "release", true), ("1.7.9", "latest", false), ("1.7.20", "latest", true)];

impl State {
    pub fn next(&mut self, k: &'static str) -> i64 { let e = self.seq.entry(k).or_insert(10); *e += 1; *e }
    pub fn dep(&self, id: &str) -> Option<&Deployment> { self.deployments.iter().find(|d| d.id == id) }
    pub fn dep_mut(&mut self, id: &str) -> Option<&mut Deployment> { self.deployments.iter_mut().find(|d| d.id == id) }
    pub fn user(&self, id: i64) -> Option<&User> { self.users.iter().find(|u| u.id == id && !u.deleted) }
    pub fn new_env_id(&mut self) -> String { format!("{}", 88000 + self.next("env")) }
    pub fn new_hash(&mut self) -> String { hex(&random_bytes(20)) }
    pub fn public_id(&mut self, prefix: &str) -> String { format!("{}{}", prefix, &hex(&random_bytes(8))) }
    pub fn audit(&mut self, event: &str, email: &str, dep: &str, attrs: Json) {
        let id = self.next("audit");
        self.audit.push(Audit { id, at: now_ms(), event: event.into(), email: email.into(), deployment: dep.into(), ip: "127.0.0.1".into(), attrs });
    }
}

pub fn version_entry(v: &str) -> Option<(&'static str, &'static str, bool)> { VERSIONS.iter().find(|x| x.0 == v).cloned() }
pub fn channel_head(ch: &str) -> Option<&'static str> { VERSIONS.iter().find(|x| x.1 == ch && x.2).map(|x| x.0) }

fn day(y: i64, m: u32, d: u32, h: i64) -> i64 { civil_to_days(y, m, d) * 86_400_000 + h * 3_600_000 }

fn key() -> String { format!("plat_{}", hex(&random_bytes(20))) }

fn files_seed() -> Vec<(String, String)> {
    vec![
        ("cube.js".into(), "module.exports = {\n  contextToAppId: ({ securityContext }) => `app_${securityContext.tenant}`,\n};\n".into()),
        ("model/cubes/customers.yml".into(), "cubes:\n  - name: customers\n    sql_table: public.customers\n    dimensions:\n      - name: id\n        sql: id\n        type: number\n        primary_key: true\n".into()),
        ("model/cubes/orders.yml".into(), "cubes:\n  - name: orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n      - name: revenue\n        sql: amount\n        type: sum\n".into()),
        ("model/views/revenue.yml".into(), "views:\n  - name: revenue\n    cubes:\n      - join_path: orders\n        includes: \"*\"\n".into()),
    ]
}

pub struct Fixtures { pub mutable: String, pub limit: String, pub scoped: String }

pub fn seed() -> (State, Vec<(String, String)>, Fixtures) {
    let mut st = State { users: vec![], deployments: vec![], audit: vec![], colls: HashMap::new(), attr_values: HashMap::new(),
        tenant_settings: Json::Null, seq: HashMap::new(), jwt_secret: random_bytes(32), started: now_ms() };
    let t0 = day(2024, 1, 8, 9);
    let mk = |id: i64, email: &str, first: Option<&str>, last: Option<&str>, role: Role, audit: bool| User {
        id, email: email.into(), first_name: first.map(|s| s.into()), last_name: last.map(|s| s.into()), role, active: true, api_key: key(), audit_log: audit,
        creator_mode: false, scoped: None, picture: None, created_at: t0 + id * 3_600_000, updated_at: t0 + id * 3_600_000, deleted: false };
    let mut users = vec![
        mk(1, "ada.admin@acme.test", Some("Ada"), Some("Lovelace"), Role::Admin, true),
        mk(2, "dan.dev@acme.test", Some("Dan"), Some("Developer"), Role::Developer, false),
        mk(3, "abe.analyst@acme.test", Some("Abe"), None, Role::AiBiUser, false),
        mk(4, "vic.viewer@acme.test", Some("Vic"), Some("Viewer"), Role::Viewer, false),
        mk(5, "aud.auditor@acme.test", Some("Aud"), Some("Itor"), Role::Viewer, true),
        mk(6, "sam.scoped@acme.test", Some("Sam"), None, Role::Developer, false),
        mk(7, "cara.creator@acme.test", Some("Cara"), Some("Creator"), Role::AiBiUser, false),
        mk(8, "fred.former@acme.test", Some("Fred"), Some("Former"), Role::Developer, false),
        mk(9, "emile.zola@acme.test", Some("Émile"), Some("Zola"), Role::Viewer, false),
        mk(10, "li.wei@acme.test", Some("李"), Some("伟"), Role::AiBiUser, false),
        mk(11, "nora.nobody@acme.test", None, None, Role::Viewer, false),
    ];
    users[0].picture = Some("https://avatars.acme.test/ada.png".into());
    users[6].creator_mode = true;
    users[7].active = false;
    st.users = users;
    st.seq.insert("user", 11);

    let fx = Fixtures { mutable: "30517".into(), limit: "30529".into(), scoped: "30541".into() };
    let mkdep = |id: &str, name: &str, created: i64, version: &str| Deployment {
        id: id.into(), name: name.into(), created_at: created, cloud_provider: "aws".into(), region: "us-east-1".into(),
        release_channel: version_entry(version).unwrap().1.into(), version: version.into(), hold: !version_entry(version).unwrap().2,
        template: "blank".into(), template_vars: obj! {"warehouse" => "snowflake", "schema" => "analytics"}, launchpad_group: Json::Null,
        launchpad_tabs: Json::Arr(vec![]), creation_method: "github".into(), deploy_mode: "git".into(), creation_step: STEPS.len() - 1,
        workbook_limit: None, members: None, env_vars: vec![], github: Json::Null, branches: vec![], folders: vec![], workbooks: vec![],
        reports: vec![], dashboards: vec![], dbt_jobs: vec![], uploads: vec![], updated_at: created };
    let mut deps = vec![
        mkdep("30517", "Sales Analytics", day(2024, 3, 5, 14), "1.6.12"),
        mkdep("30529", "Finance Reporting", day(2023, 11, 20, 8), "1.7.20"),
        mkdep("30541", "Partner Sandbox", day(2024, 6, 1, 10), "1.7.9"),
        mkdep("30553", "Legacy Warehouse", day(2022, 8, 14, 16), "1.5.30"),
    ];
    deps[1].workbook_limit = Some(4);
    deps[2].members = Some(vec![1, 6]);
    deps[3].creation_step = 1; deps[3].creation_method = "upload".into(); deps[3].deploy_mode = "cli".into(); deps[3].cloud_provider = "gcp".into(); deps[3].region = "europe-west3".into();
    deps[0].github = obj! {"repository" => "acme/sales-model", "branch" => "main", "installationId" => 4401};
    deps[0].env_vars = vec![
        ("API_BASE_URL", "https://api.acme.test"), ("CUBEJS_API_SECRET", "s3cr3t-value"), ("CUBEJS_DB_HOST", "warehouse.acme.test"), ("CUBEJS_DB_NAME", "analytics"),
        ("CUBEJS_DB_PASS", "hunter2"), ("CUBEJS_DB_USER", "cube"), ("CUBEJS_LOG_LEVEL", "info"), ("GITHUB_TOKEN", "ghp_abc123"),
        ("SNOWFLAKE_CREDENTIALS_JSON", "{\"k\":1}"), ("STRIPE_API_KEY", "sk_test_42"), ("TZ", "UTC"), ("db_password_hint", "ask ada"),
        ("feature_flags", "a,b,c"), ("MONKEY_BUSINESS", "bananas"),
    ].into_iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    deps[1].env_vars = vec![("CUBEJS_DB_TYPE".into(), "postgres".into()), ("CUBEJS_DB_PASS".into(), "pw".into())];
    deps[2].env_vars = vec![("PARTNER_TOKEN".into(), "tok".into())];
    st.deployments = deps;

    // branches
    for di in 0..st.deployments.len() {
        let specs: Vec<(&str, Option<&str>, bool, BranchKind, Option<i64>, bool)> = if di == 0 {
            vec![("main", None, false, BranchKind::Production, None, false),
                 ("shared-analytics", Some("main"), false, BranchKind::Shared, None, false),
                 ("release-candidate", Some("main"), true, BranchKind::Shared, None, false),
                 ("hotfix-q3", Some("shared-analytics"), false, BranchKind::Shared, None, false),
                 ("dev-dan", Some("main"), false, BranchKind::Personal, Some(2), true),
                 ("dev-abe", Some("main"), false, BranchKind::Personal, Some(3), false)]
        } else {
            vec![("main", None, false, BranchKind::Production, None, false), ("staging", Some("main"), false, BranchKind::Shared, None, false)]
        };
        for (i, (name, parent, staging, kind, owner, dev)) in specs.into_iter().enumerate() {
            let id = st.next("branch") + 390;
            let env_id = st.new_env_id();
            let h = st.new_hash();
            let created = st.deployments[di].created_at + (i as i64) * 86_400_000;
            st.deployments[di].branches.push(Branch { id, name: name.into(), parent: parent.map(|s| s.into()), last_hash: h, staging, kind, owner, dev_mode: dev, env_id, files: files_seed(), dirty: false, created_at: created, build: "deployed".into() });
        }
    }

    // workspace of the mutable deployment
    let now = now_ms();
    let fdefs: Vec<(&str, Option<usize>, i64, bool, Vec<(i64, Level)>)> = vec![
        ("Company", None, 1, false, vec![]),
        ("Marketing", Some(0), 2, false, vec![]),
        ("Campaigns", Some(1), 2, false, vec![]),
        ("2024", Some(2), 2, false, vec![]),
        ("Finance (restricted)", None, 1, true, vec![(2, Level::Edit), (3, Level::Read)]),
        ("Team Sandbox", None, 2, false, vec![(3, Level::Edit), (7, Level::Edit)]),
        ("Archive", None, 1, false, vec![]),
    ];
    let mut fids = vec![];
    for (i, (name, parent, owner, restricted, grants)) in fdefs.into_iter().enumerate() {
        let id = st.next("folder");
        let p = parent.map(|pi| fids[pi]);
        fids.push(id);
        let c = t0 + (i as i64) * 7_200_000;
        st.deployments[0].folders.push(Folder { id, name: name.into(), parent: p, position: i as i64, owner, restricted, grants, created_at: c, updated_at: c, updated_by: owner });
    }
    let wdefs: Vec<(&str, Option<usize>, i64, bool, Option<&str>)> = vec![
        ("Revenue Overview", Some(0), 1, false, Some("revenue-overview")),
        ("Campaign Performance", Some(2), 2, false, None),
        ("Q4 Plan", Some(3), 2, false, Some("q4-plan")),
        ("Budget 2025", Some(4), 1, false, None),
        ("Private Notes", None, 2, true, None),
        ("Sandbox Board", Some(5), 3, false, None),
        ("Root Board", None, 1, false, None),
        ("Ünïcode Ledger — “quotes” & <tags>", None, 1, false, None),
        ("Pipeline", Some(1), 2, false, None),
        ("Churn", Some(1), 2, false, None),
    ];
    let mut wids = vec![];
    for (i, (name, folder, owner, restricted, slug)) in wdefs.into_iter().enumerate() {
        let id = st.next("workbook");
        wids.push(id);
        let c = t0 + 86_400_000 + (i as i64) * 3_600_000;
        st.deployments[0].workbooks.push(Workbook { id, name: name.into(), folder: folder.map(|f| fids[f]), owner, meta: obj! {"theme" => "light", "tags" => Json::Arr(vec!["seed".into()])},
            calc: obj! {}, created_at: c, date_only: i == 6, updated_at: c + 1000 * (i as i64 + 1), slug: slug.map(|s| s.into()), favorite: i % 3 == 0, draft: Json::Null,
            dashboard: None, restricted, grants: vec![], shared: i == 0 || i == 6 || i == 2, embed_access: vec![] });
    }
    st.deployments[0].workbooks[0].embed_access = vec![("*".into(), "read".into())];
    // reports
    let rdefs: Vec<(&str, Option<usize>, &str)> = vec![
        ("Monthly revenue", Some(0), "vega"), ("Top customers", Some(0), "table"), ("Campaign CTR", Some(1), "kpi"),
        ("Sandbox KPI", Some(5), "kpi"), ("Budget table", Some(3), "table"), ("Standalone SQL", None, "table"), ("Root chart", Some(6), "vega"),
    ];
    let mut rids = vec![];
    for (i, (name, wb, kind)) in rdefs.into_iter().enumerate() {
        let id = st.next("report");
        rids.push(id);
        let pid = st.public_id("rpt_");
        let (wbid, folder, owner) = match wb { Some(w) => { let wbk = &st.deployments[0].workbooks[w]; (Some(wbk.id), wbk.folder, wbk.owner) } None => (None, Some(fids[0]), 1) };
        let c = t0 + 2 * 86_400_000 + (i as i64) * 600_000;
        st.deployments[0].reports.push(Report { id, workbook: wbid, folder, name: name.into(), public_id: pid, kind: kind.into(),
            sql: Some(format!("SELECT month, SUM(amount) FROM orders /* {} */ GROUP BY 1", i)), python: if i == 2 { Some("df = query()\nresult = df.head()".into()) } else { None },
            spec: if kind == "vega" { obj! {"mark" => "bar"} } else { Json::Null }, title: Some(name.into()), description: None, owner, created_at: c, updated_at: c + 5000,
            last_viewed: if i % 2 == 0 { Some(now - (i as i64) * 3_600_000) } else { None }, placements: vec![] });
    }
    // dashboards for workbooks 0 and 5 and 6
    for (wi, reps) in [(0usize, vec![0usize, 1]), (5, vec![3]), (6, vec![6])] {
        let wid = wids[wi];
        let widgets: Vec<Json> = reps.iter().enumerate().map(|(k, ri)| obj! {"id" => format!("w{}", k + 1), "type" => "CHART",
            "position" => obj!{"x" => (k as i64) * 6, "y" => 0, "w" => 6, "h" => 4}, "config" => obj!{"reportId" => rids[*ri]}}).collect();
        let mut widgets = widgets;
        widgets.push(obj! {"id" => "title", "type" => "TEXT", "position" => obj!{"x" => 0, "y" => 4, "w" => 12, "h" => 1}, "config" => obj!{"text" => "Notes"}});
        let cfg = obj! {"kind" => "CLASSIC", "title" => st.deployments[0].workbooks[wi].name.clone(), "description" => Json::Null, "widgets" => Json::Arr(widgets),
            "layout" => obj!{"rowHeight" => 40, "cols" => obj!{"lg" => 12, "md" => 10, "sm" => 6, "xs" => 4, "xxs" => 2}}, "settings" => obj!{}, "theme" => obj!{}};
        let snaps: Vec<Json> = reps.iter().map(|ri| { let r = &st.deployments[0].reports[*ri]; (r.id, r.name.clone(), r.kind.clone(), r.sql.clone()) })
            .collect::<Vec<_>>().into_iter().map(|(rid, name, kind, sql)| { let sid = st.next("snapshot"); obj! {"id" => sid, "reportId" => rid, "versionNumber" => 2, "kind" => kind, "name" => name.clone(), "title" => name, "description" => Json::Null, "sqlQuery" => sql, "pythonCode" => Json::Null, "spec" => Json::Null, "meta" => obj!{}, "isSourceReport" => true} }).collect();
        let did = st.next("dashboard"); let vid = st.next("dversion") + 5000; let pid = st.public_id("dash_");
        let (wowner, wname) = (st.deployments[0].workbooks[wi].owner, st.deployments[0].workbooks[wi].name.clone());
        st.deployments[0].dashboards.push(Dashboard { id: did, public_id: pid, workbook: wid, status: "published".into(), allow_embed: wi == 0, config: cfg.clone(), version_number: 3,
            version_id: vid, snapshots: snaps, created_by: Some(wowner), title: Some(wname), description: None,
            from_shared: false, restrict_dl: false, use_board: false });
        st.deployments[0].workbooks[wi].dashboard = Some(did);
        st.deployments[0].workbooks[wi].draft = cfg;
    }
    st.deployments[0].workbooks[1].draft = obj! {"kind" => "APP", "title" => "Draft app", "app" => obj!{"entry" => "index.html", "files" => obj!{"index.html" => "<h1>hi</h1>"}, "manifest" => obj!{"dependencies" => obj!{}, "version" => 1}}};
    let plid = st.next("placement");
    st.deployments[0].reports[0].placements.push(Placement { id: plid, external_workbook_id: "gsheet-abc".into(), sheet_name: "Sheet1".into(), anchor_cell: "A1".into(), created_at: t0, refreshed_at: None });

    // other deployments' workspaces
    for (di, n) in [(1usize, 4usize), (2, 2), (3, 1)] {
        let fid = st.next("folder");
        let c = st.deployments[di].created_at;
        st.deployments[di].folders.push(Folder { id: fid, name: "Shared".into(), parent: None, position: 0, owner: 1, restricted: false, grants: vec![], created_at: c, updated_at: c, updated_by: 1 });
        for i in 0..n {
            let id = st.next("workbook");
            let dname = st.deployments[di].name.clone();
            st.deployments[di].workbooks.push(Workbook { id, name: format!("{} board {}", dname, i + 1), folder: if i % 2 == 0 { Some(fid) } else { None }, owner: 1, meta: obj! {},
                calc: obj! {}, created_at: c + i as i64 * 1000, date_only: false, updated_at: c + i as i64 * 1000, slug: None, favorite: false, draft: Json::Null, dashboard: None,
                restricted: false, grants: vec![], shared: false, embed_access: vec![] });
        }
        let rid = st.next("report"); let pid = st.public_id("rpt_"); let wb = st.deployments[di].workbooks[0].id;
        st.deployments[di].reports.push(Report { id: rid, workbook: Some(wb), folder: Some(fid), name: "Overview".into(), public_id: pid, kind: "table".into(), sql: Some("SELECT 1".into()), python: None, spec: Json::Null, title: None, description: None, owner: 1, created_at: c, updated_at: c, last_viewed: None, placements: vec![] });
    }

    // audit events
    let ev: Vec<(i64, &str, &str, &str, Json)> = vec![
        (day(2025, 1, 3, 8), "Logged in", "ada.admin@acme.test", "", obj! {"method" => "password"}),
        (day(2025, 1, 3, 9), "API key created", "ada.admin@acme.test", "30517", obj! {"keyName" => "ci, \"nightly\"", "secret" => "[HIDDEN]"}),
        (day(2025, 1, 5, 10), "Logged in", "dan.dev@acme.test", "", obj! {"method" => "sso"}),
        (day(2025, 1, 9, 11), "Deployment updated", "dan.dev@acme.test", "30517", obj! {"field" => "releaseChannel", "to" => "release"}),
        (day(2025, 2, 1, 12), "Env vars updated", "ada.admin@acme.test", "30517", obj! {"names" => Json::Arr(vec!["CUBEJS_DB_PASS".into()]), "values" => "[HIDDEN]"}),
        (day(2025, 2, 14, 13), "Logged in", "abe.analyst@acme.test", "", obj! {"method" => "password"}),
        (day(2025, 2, 20, 14), "Workbook deleted", "abe.analyst@acme.test", "30529", obj! {"workbook" => "Old board\nline two"}),
        (day(2025, 3, 2, 15), "User invited", "ada.admin@acme.test", "", obj! {"email" => "nora.nobody@acme.test", "role" => "Viewer"}),
        (day(2025, 3, 3, 16), "Logged out", "ada.admin@acme.test", "", obj! {}),
        (day(2025, 3, 10, 17), "Logged in", "vic.viewer@acme.test", "", obj! {"method" => "password", "note" => "Émile’s laptop"}),
        (day(2025, 4, 1, 9), "Policy changed", "ada.admin@acme.test", "30541", obj! {"action" => "SecretsManage"}),
        (day(2025, 4, 2, 23), "Logged in", "aud.auditor@acme.test", "", obj! {"method" => "password"}),
    ];
    for (at, name, email, dep, attrs) in ev {
        let id = st.next("audit");
        st.audit.push(Audit { id, at, event: name.into(), email: email.into(), deployment: dep.into(), ip: format!("10.0.0.{}", id % 250), attrs });
    }

    // generic collections
    let put = |st: &mut State, coll: &str, v: Json| { let id = st.next("generic"); let mut o = obj! {"id" => id}; if let Json::Obj(f) = v { for (k, x) in f { o.set(&k, x); } } let mut v = o; v.set("createdAt", Json::Str(iso(t0))); v.set("updatedAt", Json::Str(iso(t0))); st.colls.entry(coll.to_string()).or_default().push(v); id };
    let t1 = put(&mut st, "embed-tenants", obj! {"name" => "Globex", "externalId" => "globex"});
    let _t2 = put(&mut st, "embed-tenants", obj! {"name" => "Initech", "externalId" => "initech"});
    let eu = put(&mut st, &format!("embed-users:{}", t1), obj! {"email" => "hank@globex.test", "externalId" => "hank", "name" => "Hank Scorpio"});
    let eg = put(&mut st, &format!("embed-groups:{}", t1), obj! {"name" => "Globex analysts"});
    st.colls.entry(format!("embed-members:{}", eg)).or_default().push(obj! {"userId" => eu, "addedAt" => iso(t0)});
    put(&mut st, "user-attributes", obj! {"name" => "region", "type" => "string", "description" => "Sales region"});
    put(&mut st, "user-attributes", obj! {"name" => "accountIds", "type" => "number_array", "description" => Json::Null});
    put(&mut st, "groups", obj! {"name" => "Analysts", "description" => "All analysts", "userIds" => Json::Arr(vec![3.into(), 10.into()])});
    put(&mut st, "groups", obj! {"name" => "Board", "description" => Json::Null, "userIds" => Json::Arr(vec![1.into()])});
    put(&mut st, "policies", obj! {"principalType" => "group", "principalId" => 1, "resourceType" => "deployment", "resourceId" => "30517", "actions" => Json::Arr(vec!["DownloadData".into()])});
    put(&mut st, "oauth-integrations", obj! {"name" => "Snowflake OAuth", "provider" => "snowflake", "clientId" => "sf-client", "clientSecret" => "sf-secret", "scopes" => Json::Arr(vec!["session:role-any".into()])});
    put(&mut st, "user-oauth-tokens", obj! {"integrationId" => 1, "userId" => 2, "accessToken" => "at-123", "refreshToken" => "rt-456", "expiresAt" => iso(t0 + 86_400_000 * 400)});
    put(&mut st, "oidc-token-configs", obj! {"name" => "Okta", "issuer" => "https://acme.okta.test", "audience" => "cube", "claimsMapping" => obj!{"email" => "email"}});
    put(&mut st, "notifications:30517", obj! {"name" => "Weekly revenue", "workbookId" => wids[0], "schedule" => "0 9 * * MON", "timezone" => "UTC", "timeGrain" => "week", "recipients" => Json::Arr(vec!["ada.admin@acme.test".into()]),
        "filters" => Json::Arr(vec![obj!{"member" => "orders.status", "operator" => "is_not_empty", "values" => Json::Arr(vec![])}]), "enabled" => true});
    st.attr_values.insert(3, vec![(st.colls["user-attributes"][0].get("id").unwrap().as_i64().unwrap(), "emea".into())]);
    st.tenant_settings = obj! {"name" => "Acme Corp", "defaultRole" => "Viewer", "ssoEnforced" => false, "sessionTimeoutMinutes" => 720, "allowedEmailDomains" => Json::Arr(vec!["acme.test".into()]), "auditLogEnabled" => true, "plan" => "enterprise"};

    let tokens = vec![
        ("admin", 0), ("developer", 1), ("aiBiUser", 2), ("viewer", 3), ("auditor", 4), ("scoped", 5), ("embedCreator", 6), ("deactivated", 7),
    ].into_iter().map(|(n, i)| (n.to_string(), st.users[i].api_key.clone())).collect();
    st.users[5].scoped = Some(vec![fx.scoped.clone()]);
    (st, tokens, fx)
}

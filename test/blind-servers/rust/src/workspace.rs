use crate::api::*;
use crate::http::Response;
use crate::json::Json;
use crate::obj;
use crate::state::*;
use crate::util::*;
use std::sync::Mutex;

fn parse_id(s: &str) -> Option<i64> { if !s.is_empty() && s.len() < 16 && s.bytes().all(|c| c.is_ascii_digit()) { s.parse().ok() } else { None } }

pub fn find_wb<'a>(d: &'a Deployment, me: &User, id: &str) -> Result<&'a Workbook, Response> {
    let id = parse_id(id).ok_or_else(|| nf("workbook"))?;
    let w = d.workbooks.iter().find(|w| w.id == id).ok_or_else(|| nf("workbook"))?;
    if wb_level(d, me, w) < Level::Read { return Err(nf("workbook")); }
    Ok(w)
}

fn folder_filter(c: &Ctx) -> Result<Option<Option<i64>>, Response> {
    match c.q("folderId") {
        None => Ok(None),
        Some("null") | Some("") => Ok(Some(None)),
        Some(_) => { let n = c.q_int("folderId", 0)?.unwrap(); Ok(Some(if n == 0 { None } else { Some(n) })) }
    }
}

// E8
pub fn list_workbooks(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let ff = folder_filter(c)?;
    let mut v: Vec<&Workbook> = d.workbooks.iter().filter(|w| wb_level(d, &c.me, w) >= Level::Read && ff.map(|f| w.folder == f).unwrap_or(true)).collect();
    v.sort_by_key(|w| w.id);
    let all: Vec<Json> = v.into_iter().map(|w| wb_json(st, d, w)).collect();
    cursor_list(c, all, CURSOR_DEFAULT)
}
// E9
pub fn get_workbook(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let w = find_wb(d, &c.me, c.p(1))?;
    ok(wb_json(st, d, w))
}

fn wb_count(d: &Deployment) -> usize { d.workbooks.len() }
fn limit_check(d: &Deployment) -> Result<(), Response> {
    if let Some(l) = d.workbook_limit { if wb_count(d) >= l { return Err(bad(format!("the workbook limit of your plan ({}) has been reached", l))); } }
    Ok(())
}

pub fn create_workbook(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    need_role(&c.me, Role::AiBiUser)?;
    let b = c.body(false)?;
    let name = f_nonempty(&b, "name", true, 255)?.unwrap();
    let folder = f_int(&b, "folderId", false, 0)?.filter(|x| *x != 0);
    let meta = match b.get("meta") { None | Some(Json::Null) => Json::obj(), Some(m) if m.is_obj() => m.clone(), _ => return Err(bad("'meta' must be an object")) };
    let draft = match meta.get("dashboardDraft") { Some(x) => validate_config(x, "meta.dashboardDraft").map_err(bad)?, None => Json::Null };
    if let Some(f) = folder { if !d.folders.iter().any(|x| x.id == f) { return Err(nf("folder")); } }
    if !dest_edit(d, &c.me, folder) { return Err(forbid("you cannot create workbooks in this folder")); }
    limit_check(d)?;
    let id = st.next("workbook");
    let now = now_ms();
    let mut meta = meta; if !draft.is_null() { meta.set("dashboardDraft", draft.clone()); }
    let dd = st.dep_mut(c.p(0)).unwrap();
    dd.workbooks.push(Workbook { id, name, folder, owner: c.me.id, meta, calc: obj! {}, created_at: now, date_only: false, updated_at: now, slug: None, favorite: false,
        draft, dashboard: None, restricted: false, grants: vec![], shared: false, embed_access: vec![] });
    let d = st.dep(c.p(0)).unwrap();
    let j = wb_json(st, d, d.workbooks.last().unwrap());
    created(j, format!("/api/v1/deployments/{}/workbooks/{}", c.p(0), id))
}

fn remap(v: &mut Json, m: &[(i64, i64)]) {
    match v {
        Json::Obj(o) => for (k, x) in o.iter_mut() {
            if k == "reportId" { if let Some(old) = x.as_i64() { if let Some((_, n)) = m.iter().find(|(a, _)| *a == old) { *x = Json::I(*n); continue; } } }
            remap(x, m);
        },
        Json::Arr(a) => for x in a.iter_mut() { remap(x, m); },
        _ => {}
    }
}

// E10
pub fn duplicate(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let b = c.body(true)?;
    let shared = f_bool(&b, "shared", false)?.unwrap_or(false);
    if shared && !c.me.creator_mode { return Err(forbid("shared=true is only available to creator-mode embed sessions")); }
    let wid = parse_id(c.p(1)).ok_or_else(|| nf("workbook"))?;
    let src = if shared {
        d.workbooks.iter().find(|w| w.id == wid && w.shared).ok_or_else(|| nf("workbook in the shared workspace"))?
    } else { find_wb(d, &c.me, c.p(1))? };
    need_role(&c.me, Role::AiBiUser)?;
    let pubd = src.dashboard.and_then(|id| d.dashboards.iter().find(|x| x.id == id)).cloned();
    if shared && pubd.is_none() { return Err(bad("the source workbook has no published dashboard")); }
    limit_check(d)?;
    let src = src.clone();
    let dest = if shared { None } else { match src.folder { Some(f) if folder_level(d, &c.me, f) >= Level::Edit => Some(f), _ => None } };
    let src_reports: Vec<Report> = d.reports.iter().filter(|r| r.workbook == Some(src.id)).cloned().collect();
    let now = now_ms();
    let new_id = st.next("workbook");
    let mut mapping: Vec<(i64, i64)> = vec![];
    let mut new_reports = vec![];
    if shared {
        let snaps = pubd.as_ref().unwrap().snapshots.clone();
        for s in &snaps {
            let rid = st.next("report"); let pid = st.public_id("rpt_");
            let old = s.get("reportId").and_then(|x| x.as_i64()).unwrap_or(0);
            mapping.push((old, rid));
            let name = s.get("name").and_then(|x| x.as_str()).unwrap_or("Report").to_string();
            new_reports.push(Report { id: rid, workbook: Some(new_id), folder: None, name: name.clone(), public_id: pid, kind: s.get("kind").and_then(|x| x.as_str()).unwrap_or("table").into(),
                sql: s.get("sqlQuery").and_then(|x| x.as_str()).map(|x| x.to_string()), python: s.get("pythonCode").and_then(|x| x.as_str()).map(|x| x.to_string()),
                spec: s.get("spec").cloned().unwrap_or(Json::Null), title: s.get("title").and_then(|x| x.as_str()).map(|x| x.to_string()), description: None, owner: c.me.id,
                created_at: now, updated_at: now, last_viewed: None, placements: vec![] });
        }
    } else {
        for r in src_reports {
            let rid = st.next("report"); let pid = st.public_id("rpt_");
            mapping.push((r.id, rid));
            new_reports.push(Report { id: rid, workbook: Some(new_id), folder: dest, public_id: pid, owner: c.me.id, created_at: now, updated_at: now, last_viewed: None, placements: vec![], ..r });
        }
    }
    let mut new_dash = None;
    if let Some(pd) = &pubd {
        let did = st.next("dashboard"); let vid = st.next("dversion") + 5000; let pid = st.public_id("dash_");
        let mut cfg = pd.config.clone(); remap(&mut cfg, &mapping);
        let snaps: Vec<Json> = pd.snapshots.iter().map(|s| { let mut s = s.clone(); remap(&mut s, &mapping); s }).collect();
        let snaps: Vec<Json> = snaps.into_iter().map(|mut s| { s.set("id", Json::I(st.next("snapshot"))); s }).collect();
        new_dash = Some(Dashboard { id: did, public_id: pid, workbook: new_id, status: "published".into(), allow_embed: false, config: cfg, version_number: pd.version_number,
            version_id: vid, snapshots: snaps, created_by: Some(c.me.id), from_shared: shared, ..pd.clone() });
    }
    let mut draft = if shared { pubd.as_ref().map(|x| x.config.clone()).unwrap_or(Json::Null) } else { src.draft.clone() };
    remap(&mut draft, &mapping);
    let mut meta = src.meta.clone(); if meta.has("dashboardDraft") { meta.set("dashboardDraft", draft.clone()); }
    let wb = Workbook { id: new_id, name: format!("Copy of {}", src.name), folder: dest, owner: c.me.id, meta, calc: src.calc.clone(), created_at: now, date_only: false,
        updated_at: now, slug: None, favorite: false, draft, dashboard: new_dash.as_ref().map(|x| x.id), restricted: false, grants: vec![], shared: false, embed_access: vec![] };
    let dd = st.dep_mut(c.p(0)).unwrap();
    dd.workbooks.push(wb);
    dd.reports.extend(new_reports);
    if let Some(nd) = new_dash { dd.dashboards.push(nd); }
    let d = st.dep(c.p(0)).unwrap();
    ok(wb_json(st, d, d.workbooks.last().unwrap()))
}

// E11
enum Decision { Update(i64), Create }
pub fn upsert_by_slug(state: &Mutex<State>, c: &Ctx) -> R {
    let slug = c.p(1).trim().to_lowercase();
    if slug.is_empty() { return Err(bad("slug must not be empty")); }
    if slug.chars().count() > 120 { return Err(bad("slug must be at most 120 characters")); }
    if slug.chars().any(|ch| ch.is_control()) { return Err(bad("slug must not contain control characters")); }
    let b;
    let decision;
    let mut draft = None;
    {
        let st = state.lock().unwrap_or_else(|e| e.into_inner());
        let d = dep_check(&st, &c.me, c.p(0))?;
        b = c.body(false)?;
        let name = f_nonempty(&b, "name", false, 255)?;
        let has_folder = b.has("folderId");
        let folder = f_int(&b, "folderId", false, 0)?.filter(|x| *x != 0);
        if let Some(m) = b.get("meta") { if !m.is_obj() { return Err(bad("'meta' must be an object")); }
            if let Some(x) = m.get("dashboardDraft") { draft = Some(validate_config(x, "meta.dashboardDraft").map_err(bad)?); } }
        if let Some(f) = folder { if !d.folders.iter().any(|x| x.id == f) { return Err(nf("folder")); } }
        match d.workbooks.iter().find(|w| w.slug.as_deref() == Some(slug.as_str())) {
            Some(w) => {
                let l = wb_level(d, &c.me, w);
                if l < Level::Read { return Err(nf("workbook")); }
                if l < Level::Edit { return Err(forbid("edit access to the workbook is required")); }
                if has_folder && (l < Level::Manage || !dest_edit(d, &c.me, folder)) { return Err(forbid("moving requires manage access to the workbook and edit access to the destination folder")); }
                decision = Decision::Update(w.id);
            }
            None => {
                need_role(&c.me, Role::AiBiUser)?;
                if name.is_none() { return Err(bad("'name' is required when the slug does not exist yet (create)")); }
                if !dest_edit(d, &c.me, folder) { return Err(forbid("you cannot create workbooks in this folder")); }
                limit_check(d)?;
                decision = Decision::Create;
            }
        }
    }
    // the decision above is applied in a second critical section; a concurrent writer may intervene
    std::thread::sleep(std::time::Duration::from_millis(3));
    let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
    if st.dep(c.p(0)).is_none() { return Err(nf("deployment")); }
    let holder = st.dep(c.p(0)).unwrap().workbooks.iter().find(|w| w.slug.as_deref() == Some(slug.as_str())).map(|w| w.id);
    let conflict = match (&decision, holder) { (Decision::Update(id), Some(h)) => *id != h, (Decision::Update(_), None) => true, (Decision::Create, Some(_)) => true, (Decision::Create, None) => false };
    if conflict {
        let body = obj! {"error" => "the workbook holding this slug was created or deleted concurrently; retry the request", "statusCode" => 409, "code" => "upsert_branch_changed"};
        return Err(jres(409, &body));
    }
    let now = now_ms();
    let name = f_str(&b, "name", false)?;
    let folder = f_int(&b, "folderId", false, 0)?.filter(|x| *x != 0);
    let meta = b.get("meta").cloned();
    let id = match decision {
        Decision::Update(id) => {
            let d = st.dep_mut(c.p(0)).unwrap();
            let w = d.workbooks.iter_mut().find(|w| w.id == id).unwrap();
            let mut changed = false;
            if let Some(n) = name { if w.name != n { w.name = n; changed = true; } }
            if b.has("folderId") && w.folder != folder { w.folder = folder; changed = true; }
            if let Some(Json::Obj(o)) = meta {
                for (k, v) in o {
                    let v = if k == "dashboardDraft" { draft.clone().unwrap_or(Json::Null) } else { v };
                    if v.is_null() { if w.meta.has(&k) { w.meta.remove(&k); changed = true; } } else if w.meta.get(&k) != Some(&v) { w.meta.set(&k, v); changed = true; }
                }
                if let Some(dr) = &draft { if w.draft != *dr { w.draft = dr.clone(); changed = true; } }
            }
            if changed { w.updated_at = now; }
            id
        }
        Decision::Create => {
            let id = st.next("workbook");
            let mut m = match meta { Some(Json::Obj(o)) => Json::Obj(o.into_iter().filter(|(_, v)| !v.is_null()).collect()), _ => Json::obj() };
            if let Some(dr) = &draft { if !dr.is_null() { m.set("dashboardDraft", dr.clone()); } }
            let d = st.dep_mut(c.p(0)).unwrap();
            d.workbooks.push(Workbook { id, name: name.unwrap_or_default(), folder, owner: c.me.id, meta: m, calc: obj! {}, created_at: now, date_only: false, updated_at: now,
                slug: Some(slug.clone()), favorite: false, draft: draft.unwrap_or(Json::Null), dashboard: None, restricted: false, grants: vec![], shared: false, embed_access: vec![] });
            id
        }
    };
    let d = st.dep(c.p(0)).unwrap();
    ok(wb_json(&st, d, d.workbooks.iter().find(|w| w.id == id).unwrap()))
}

// ---------- bulk operations ----------
fn parse_items(b: &Json) -> Result<Vec<(String, i64)>, Response> {
    let arr = match b.get("items") { Some(Json::Arr(a)) => a, Some(_) => return Err(bad("'items' must be an array")), None => return Err(bad("'items' is required")) };
    let mut out: Vec<(String, i64)> = vec![];
    for (i, it) in arr.iter().enumerate() {
        if !it.is_obj() { return Err(bad(format!("items[{}] must be an object {{type, id}}", i))); }
        let t = f_enum(it, "type", true, &["WORKBOOK", "REPORT", "FOLDER"]).map_err(|_| bad(format!("items[{}].type must be one of WORKBOOK, REPORT, FOLDER", i)))?.unwrap();
        let id = f_int(it, "id", true, i64::MIN).map_err(|_| bad(format!("items[{}].id must be an integer", i)))?.unwrap();
        if !out.iter().any(|(a, b)| *a == t && *b == id) { out.push((t, id)); }
    }
    if out.len() > 100 { return Err(bad(format!("at most 100 distinct items per request, got {}", out.len()))); }
    Ok(out)
}
fn fail(t: &str, id: i64, status: i64, msg: &str) -> Json { obj! {"type" => t, "id" => id, "error" => obj!{"message" => msg, "status" => status}} }
fn depth_of(d: &Deployment, f: Option<i64>) -> usize { folder_chain(d, f).len() }
fn subtree_height(d: &Deployment, f: i64) -> usize { 1 + d.folders.iter().filter(|x| x.parent == Some(f)).map(|x| subtree_height(d, x.id)).max().unwrap_or(0) }
pub const MAX_DEPTH: usize = 7;

fn move_one(st: &mut State, dep: &str, me: &User, t: &str, id: i64, dest: Option<i64>) -> Result<Json, (i64, String)> {
    let d = st.dep(dep).unwrap();
    let (lvl, cur) = match t {
        "WORKBOOK" => { let w = d.workbooks.iter().find(|w| w.id == id).ok_or((404, "workbook not found".to_string()))?; (wb_level(d, me, w), w.folder) }
        "REPORT" => { let r = d.reports.iter().find(|r| r.id == id).ok_or((404, "report not found".to_string()))?; (report_level(d, me, r), r.folder) }
        _ => { let f = d.folders.iter().find(|f| f.id == id).ok_or((404, "folder not found".to_string()))?; (folder_level(d, me, f.id), f.parent) }
    };
    let _ = cur;
    if lvl < Level::Read { return Err((404, format!("{} not found", t.to_lowercase()))); }
    if let Some(f) = dest {
        if !d.folders.iter().any(|x| x.id == f) { return Err((400, "destination folder does not exist".into())); }
        if t == "FOLDER" {
            if folder_chain(d, Some(f)).iter().any(|x| x.id == id) { return Err((400, "a folder cannot be moved into itself or one of its descendants".into())); }
            if depth_of(d, Some(f)) + subtree_height(d, id) > MAX_DEPTH { return Err((400, format!("folders can be nested at most {} levels deep", MAX_DEPTH))); }
        }
    }
    if lvl < Level::Edit { return Err((403, format!("you do not have edit access to this {}", t.to_lowercase()))); }
    if !dest_edit(d, me, dest) { return Err((403, "you do not have edit access to the destination folder".into())); }
    let now = now_ms();
    let dm = st.dep_mut(dep).unwrap();
    match t {
        "WORKBOOK" => { let w = dm.workbooks.iter_mut().find(|w| w.id == id).unwrap(); w.folder = dest; w.updated_at = now; }
        "REPORT" => { let r = dm.reports.iter_mut().find(|r| r.id == id).unwrap(); r.folder = dest; r.updated_at = now; }
        _ => { let f = dm.folders.iter_mut().find(|f| f.id == id).unwrap(); f.parent = dest; f.updated_at = now; f.updated_by = me.id; }
    }
    let d = st.dep(dep).unwrap();
    Ok(match t {
        "WORKBOOK" => wb_json(st, d, d.workbooks.iter().find(|w| w.id == id).unwrap()),
        "REPORT" => report_json(st, d, d.reports.iter().find(|r| r.id == id).unwrap()),
        _ => folder_json(st, d, d.folders.iter().find(|f| f.id == id).unwrap()),
    })
}

// E12
pub fn bulk_move(st: &mut State, c: &Ctx) -> R {
    dep_check(st, &c.me, c.p(0))?;
    let b = c.body(false)?;
    let items = parse_items(&b)?;
    if !b.has("folderId") { return Err(bad("'folderId' is required (use null for the workspace root)")); }
    let dest = f_int(&b, "folderId", false, 0)?.filter(|x| *x != 0);
    let mut moved = vec![]; let mut failed = vec![];
    for (t, id) in items {
        match move_one(st, c.p(0), &c.me, &t, id, dest) { Ok(j) => moved.push(j), Err((s, m)) => failed.push(fail(&t, id, s, &m)) }
    }
    ok(obj! {"moved" => Json::Arr(moved), "failed" => Json::Arr(failed)})
}

fn delete_workbook_inner(d: &mut Deployment, id: i64) {
    d.workbooks.retain(|w| w.id != id);
    d.reports.retain(|r| r.workbook != Some(id));
    d.dashboards.retain(|x| x.workbook != id);
}
pub fn bulk_delete(st: &mut State, c: &Ctx) -> R {
    dep_check(st, &c.me, c.p(0))?;
    let b = c.body(false)?;
    let items = parse_items(&b)?;
    if items.is_empty() { return Err(bad("'items' must contain at least one item")); }
    let mut deleted = vec![]; let mut failed = vec![];
    for (t, id) in items {
        let d = st.dep(c.p(0)).unwrap();
        let lvl = match t.as_str() {
            "WORKBOOK" => d.workbooks.iter().find(|w| w.id == id).map(|w| wb_level(d, &c.me, w)),
            "REPORT" => d.reports.iter().find(|r| r.id == id).map(|r| report_level(d, &c.me, r)),
            _ => d.folders.iter().find(|f| f.id == id).map(|f| folder_level(d, &c.me, f.id)),
        };
        match lvl {
            None => { failed.push(fail(&t, id, 404, &format!("{} not found", t.to_lowercase()))); continue; }
            Some(l) if l < Level::Read => { failed.push(fail(&t, id, 404, &format!("{} not found", t.to_lowercase()))); continue; }
            Some(l) if l < Level::Manage => { failed.push(fail(&t, id, 403, "manage access is required to delete this item")); continue; }
            _ => {}
        }
        if t == "FOLDER" && d.folders.iter().any(|f| f.parent == Some(id)) { failed.push(fail(&t, id, 400, "the folder still contains sub-folders")); continue; }
        let dm = st.dep_mut(c.p(0)).unwrap();
        match t.as_str() {
            "WORKBOOK" => delete_workbook_inner(dm, id),
            "REPORT" => { dm.reports.retain(|r| r.id != id); }
            _ => {
                dm.folders.retain(|f| f.id != id);
                for w in dm.workbooks.iter_mut() { if w.folder == Some(id) { w.folder = None; } }
                for r in dm.reports.iter_mut() { if r.folder == Some(id) { r.folder = None; } }
            }
        }
        deleted.push(obj! {"type" => t.clone(), "id" => id});
    }
    ok(obj! {"deleted" => Json::Arr(deleted), "failed" => Json::Arr(failed)})
}

// ---------- folders ----------
pub fn list_folders(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let parent = match c.q("parentId") { None | Some("null") | Some("") => None, Some(_) => c.q_int("parentId", 0)?.filter(|x| *x != 0) };
    let mut v: Vec<&Folder> = d.folders.iter().filter(|f| f.parent == parent && folder_level(d, &c.me, f.id) >= Level::Read).collect();
    v.sort_by(|a, b| a.position.cmp(&b.position).then(a.id.cmp(&b.id)));
    let all = v.into_iter().map(|f| folder_json(st, d, f)).collect();
    cursor_list(c, all, CURSOR_DEFAULT)
}
pub fn create_folder(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    need_role(&c.me, Role::AiBiUser)?;
    let b = c.body(false)?;
    let name = f_nonempty(&b, "name", true, 200)?.unwrap();
    let parent = f_int(&b, "parentId", false, 0)?.filter(|x| *x != 0);
    let pos = f_int(&b, "position", false, 0)?;
    if let Some(p) = parent { if !d.folders.iter().any(|f| f.id == p && folder_level(d, &c.me, p) >= Level::Read) { return Err(nf("parent folder")); } }
    if !dest_edit(d, &c.me, parent) { return Err(forbid("edit access to the parent folder is required")); }
    if depth_of(d, parent) + 1 > MAX_DEPTH { return Err(bad(format!("folders can be nested at most {} levels deep", MAX_DEPTH))); }
    let pos = pos.unwrap_or(d.folders.iter().filter(|f| f.parent == parent).count() as i64);
    let id = st.next("folder"); let now = now_ms();
    st.dep_mut(c.p(0)).unwrap().folders.push(Folder { id, name, parent, position: pos, owner: c.me.id, restricted: false, grants: vec![], created_at: now, updated_at: now, updated_by: c.me.id });
    let d = st.dep(c.p(0)).unwrap();
    created(folder_json(st, d, d.folders.last().unwrap()), format!("/api/v1/deployments/{}/folders/{}", c.p(0), id))
}
pub fn delete_folder(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let id = parse_id(c.p(1)).ok_or_else(|| nf("folder"))?;
    let l = d.folders.iter().find(|f| f.id == id).map(|f| folder_level(d, &c.me, f.id)).ok_or_else(|| nf("folder"))?;
    if l < Level::Read { return Err(nf("folder")); }
    if l < Level::Manage { return Err(forbid("manage access is required to delete this folder")); }
    if d.folders.iter().any(|f| f.parent == Some(id)) { return Err(bad("the folder still contains sub-folders")); }
    let dm = st.dep_mut(c.p(0)).unwrap();
    dm.folders.retain(|f| f.id != id);
    for w in dm.workbooks.iter_mut() { if w.folder == Some(id) { w.folder = None; } }
    for r in dm.reports.iter_mut() { if r.folder == Some(id) { r.folder = None; } }
    ok(obj! {"id" => id, "deleted" => true})
}

// ---------- reports ----------
pub fn list_reports(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let ff = folder_filter(c)?;
    let ext = c.q("externalWorkbookId").map(|s| s.to_string());
    let search = c.q("search").map(|s| s.to_lowercase());
    let sort = c.q_enum("sortBy", &["createdAt", "updatedAt", "lastViewedAt", "name"])?;
    if sort.as_deref() == Some("lastViewedAt") && (c.q("first").is_some() || c.q("after").is_some()) {
        return Err(bad("cursor pagination is not available when sorting by lastViewedAt"));
    }
    let mut v: Vec<&Report> = d.reports.iter().filter(|r| report_level(d, &c.me, r) >= Level::Read
        && ff.map(|f| r.folder == f).unwrap_or(true)
        && ext.as_ref().map(|e| r.placements.iter().any(|p| p.external_workbook_id == *e)).unwrap_or(true)
        && search.as_ref().map(|s| r.name.to_lowercase().contains(s.as_str())).unwrap_or(true)).collect();
    match sort.as_deref() {
        Some("createdAt") => v.sort_by_key(|r| (std::cmp::Reverse(r.created_at), r.id)),
        Some("updatedAt") => v.sort_by_key(|r| (std::cmp::Reverse(r.updated_at), r.id)),
        Some("lastViewedAt") => v.sort_by_key(|r| (r.last_viewed.is_none(), std::cmp::Reverse(r.last_viewed.unwrap_or(0)), r.id)),
        Some(_) => v.sort_by(|a, b| a.name.to_lowercase().cmp(&b.name.to_lowercase()).then(a.id.cmp(&b.id))),
        None => v.sort_by_key(|r| r.id),
    }
    let all: Vec<Json> = v.into_iter().map(|r| report_json(st, d, r)).collect();
    if sort.as_deref() == Some("lastViewedAt") { let n = all.len(); let pg = page_of(n, 0, n.max(1)); return ok(list_body(all, &pg, n)); }
    cursor_list(c, all, CURSOR_DEFAULT)
}
pub fn upsert_report(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let pid = c.p(1).trim().to_string();
    if pid.is_empty() || pid.len() > 100 { return Err(bad("invalid publicId")); }
    let b = c.body(false)?;
    let name = f_nonempty(&b, "name", false, 255)?;
    let kind = f_enum(&b, "kind", false, &["vega", "table", "kpi", "html", "map"])?;
    let sql = f_str(&b, "sqlQuery", false)?;
    let title = f_str(&b, "title", false)?;
    let desc = f_str(&b, "description", false)?;
    let wbid = f_int(&b, "workbookId", false, 1)?;
    let spec = b.get("spec").cloned();
    if let Some(s) = &spec { if !(s.is_null() || s.is_obj() || s.as_str().is_some()) { return Err(bad("'spec' must be a string, object or null")); } }
    if let Some(w) = wbid { let wb = d.workbooks.iter().find(|x| x.id == w).ok_or_else(|| nf("workbook"))?; if wb_level(d, &c.me, wb) < Level::Edit { return Err(forbid("edit access to the workbook is required")); } }
    let existing = d.reports.iter().find(|r| r.public_id == pid).map(|r| (r.id, report_level(d, &c.me, r)));
    let now = now_ms();
    match existing {
        Some((id, l)) => {
            if l < Level::Read { return Err(nf("report")); }
            if l < Level::Edit { return Err(forbid("edit access to the report is required")); }
            let dm = st.dep_mut(c.p(0)).unwrap();
            let r = dm.reports.iter_mut().find(|r| r.id == id).unwrap();
            if let Some(x) = name { r.name = x; } if let Some(x) = kind { r.kind = x; } if let Some(x) = sql { r.sql = Some(x); }
            if let Some(x) = title { r.title = Some(x); } if let Some(x) = desc { r.description = Some(x); } if let Some(x) = spec { r.spec = x; }
            if let Some(w) = wbid { r.workbook = Some(w); }
            r.updated_at = now;
            let d = st.dep(c.p(0)).unwrap();
            ok(report_json(st, d, d.reports.iter().find(|r| r.id == id).unwrap()))
        }
        None => {
            need_role(&c.me, Role::AiBiUser)?;
            let name = name.ok_or_else(|| bad("'name' is required to create a report"))?;
            let folder = wbid.and_then(|w| d.workbooks.iter().find(|x| x.id == w).and_then(|x| x.folder));
            let id = st.next("report");
            st.dep_mut(c.p(0)).unwrap().reports.push(Report { id, workbook: wbid, folder, name, public_id: pid, kind: kind.unwrap_or("table".into()), sql, python: None,
                spec: spec.unwrap_or(Json::Null), title, description: desc, owner: c.me.id, created_at: now, updated_at: now, last_viewed: None, placements: vec![] });
            let d = st.dep(c.p(0)).unwrap();
            created(report_json(st, d, d.reports.last().unwrap()), format!("/api/v1/deployments/{}/reports/by-public-id/{}", c.p(0), c.p(1)))
        }
    }
}
fn find_report<'a>(d: &'a Deployment, me: &User, id: &str) -> Result<&'a Report, Response> {
    let id = parse_id(id).ok_or_else(|| nf("report"))?;
    let r = d.reports.iter().find(|r| r.id == id).ok_or_else(|| nf("report"))?;
    if report_level(d, me, r) < Level::Read { return Err(nf("report")); }
    Ok(r)
}
fn placement_addr(b: &Json) -> Result<(Option<i64>, Option<(String, String, String)>), Response> {
    let pid = f_int(b, "placementId", false, 1)?;
    let e = f_nonempty(b, "externalWorkbookId", false, 255)?;
    let s = f_nonempty(b, "sheetName", false, 255)?;
    let a = f_nonempty(b, "anchorCell", false, 16)?;
    if let Some(a) = &a { let ok_cell = { let t = a.to_ascii_uppercase(); let l = t.trim_start_matches(|c: char| c.is_ascii_alphabetic()); l.len() < t.len() && !l.is_empty() && l.bytes().all(|c| c.is_ascii_digit()) }; if !ok_cell { return Err(bad("'anchorCell' must be an A1-style cell reference")); } }
    match (e, s, a) { (Some(e), Some(s), Some(a)) => Ok((pid, Some((e, s, a.to_ascii_uppercase())))), (None, None, None) => Ok((pid, None)), _ if pid.is_some() => Ok((pid, None)),
        _ => Err(bad("address a placement by 'placementId' or by 'externalWorkbookId' + 'sheetName' + 'anchorCell'")) }
}
pub fn connect_workbook(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let r = find_report(d, &c.me, c.p(1))?;
    let rid = r.id;
    let b = c.body(false)?;
    let (pid, triple) = placement_addr(&b)?;
    let now = now_ms();
    let existing = r.placements.iter().position(|p| Some(p.id) == pid || triple.as_ref().map(|t| p.external_workbook_id == t.0 && p.sheet_name == t.1 && p.anchor_cell == t.2).unwrap_or(false));
    if c.req.method == "DELETE" {
        let i = existing.ok_or_else(|| nf("placement"))?;
        let dm = st.dep_mut(c.p(0)).unwrap();
        let r = dm.reports.iter_mut().find(|r| r.id == rid).unwrap();
        let p = r.placements.remove(i);
        return ok(obj! {"removed" => placement_json(&p), "reportId" => rid});
    }
    match existing {
        Some(i) => { let p = placement_json(&r.placements[i]); ok(obj! {"reportId" => rid, "placement" => p, "created" => false}) }
        None => {
            let t = triple.ok_or_else(|| if pid.is_some() { nf("placement") } else { bad("externalWorkbookId, sheetName and anchorCell are required") })?;
            let id = st.next("placement");
            let p = Placement { id, external_workbook_id: t.0, sheet_name: t.1, anchor_cell: t.2, created_at: now, refreshed_at: None };
            let j = placement_json(&p);
            st.dep_mut(c.p(0)).unwrap().reports.iter_mut().find(|r| r.id == rid).unwrap().placements.push(p);
            Ok(jres(201, &obj! {"reportId" => rid, "placement" => j, "created" => true}))
        }
    }
}
pub fn refresh_report(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let r = find_report(d, &c.me, c.p(1))?;
    let rid = r.id;
    let b = c.body(false)?;
    let (pid, triple) = placement_addr(&b)?;
    if pid.is_none() && triple.is_none() { return Err(bad("a placement address is required")); }
    let i = r.placements.iter().position(|p| Some(p.id) == pid || triple.as_ref().map(|t| p.external_workbook_id == t.0 && p.sheet_name == t.1 && p.anchor_cell == t.2).unwrap_or(false)).ok_or_else(|| nf("placement"))?;
    let now = now_ms();
    let dm = st.dep_mut(c.p(0)).unwrap();
    let r = dm.reports.iter_mut().find(|r| r.id == rid).unwrap();
    r.placements[i].refreshed_at = Some(now); r.last_viewed = Some(now);
    ok(obj! {"reportId" => rid, "placement" => placement_json(&r.placements[i]), "rowCount" => 42, "status" => "refreshed"})
}

// ---------- embed access / embed dashboards ----------
pub fn embed_access(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let w = find_wb(d, &c.me, c.p(1))?;
    let wid = w.id;
    let view = |w: &Workbook| obj! {"workbookId" => w.id, "allEmbedUsers" => w.embed_access.iter().find(|x| x.0 == "*").map(|x| x.1.clone()).unwrap_or("none".into()),
        "tenants" => Json::Arr(w.embed_access.iter().filter(|x| x.0 != "*").map(|x| obj!{"tenantId" => x.0.parse::<i64>().unwrap_or(0), "action" => x.1.clone()}).collect())};
    if c.req.method == "GET" { return ok(view(w)); }
    if wb_level(d, &c.me, w) < Level::Manage { return Err(forbid("manage access to the workbook is required")); }
    let b = c.body(false)?;
    let action = f_enum(&b, "action", true, &["read", "none"])?.unwrap();
    let all = f_bool(&b, "allEmbedUsers", false)?.unwrap_or(false);
    let tenant = f_int(&b, "tenantId", false, 1)?;
    let key = match (all, tenant) {
        (true, None) => "*".to_string(),
        (false, Some(t)) => { if !st.colls.get("embed-tenants").map(|v| v.iter().any(|x| x.get("id").and_then(|i| i.as_i64()) == Some(t))).unwrap_or(false) { return Err(nf("embed tenant")); } t.to_string() }
        _ => return Err(bad("give exactly one of 'tenantId' or 'allEmbedUsers': true")),
    };
    let w = st.dep_mut(c.p(0)).unwrap().workbooks.iter_mut().find(|x| x.id == wid).unwrap();
    w.embed_access.retain(|x| x.0 != key);
    if action == "read" { w.embed_access.push((key, action)); } else if key == "*" { w.embed_access.push((key, action)); }
    let w = st.dep(c.p(0)).unwrap().workbooks.iter().find(|x| x.id == wid).unwrap();
    ok(view(w))
}
fn find_dash(st: &State, me: &User, pid: &str) -> Result<(String, i64), Response> {
    for d in &st.deployments {
        if let Some(db) = d.dashboards.iter().find(|x| x.public_id == pid) {
            dep_check(st, me, &d.id).map_err(|_| nf("dashboard"))?;
            let w = d.workbooks.iter().find(|w| w.id == db.workbook);
            if w.map(|w| wb_level(d, me, w) < Level::Read).unwrap_or(true) { return Err(nf("dashboard")); }
            return Ok((d.id.clone(), db.id));
        }
    }
    Err(nf("dashboard"))
}
pub fn patch_embed_dashboard(st: &mut State, c: &Ctx) -> R {
    let (dep, did) = find_dash(st, &c.me, c.p(0))?;
    need_role(&c.me, Role::Developer)?;
    let b = c.body(false)?;
    let allow = f_bool(&b, "allowEmbed", true)?.unwrap();
    let dm = st.dep_mut(&dep).unwrap();
    let db = dm.dashboards.iter_mut().find(|x| x.id == did).unwrap();
    db.allow_embed = allow;
    let d = st.dep(&dep).unwrap();
    ok(dashboard_json(d, d.dashboards.iter().find(|x| x.id == did).unwrap()))
}
pub fn python_run(st: &mut State, c: &Ctx) -> R {
    let (dep, did) = find_dash(st, &c.me, c.p(0))?;
    let b = c.body(false)?;
    let rid = f_int(&b, "reportId", true, 1)?.unwrap();
    let filters = match b.get("filters") { None | Some(Json::Null) => Json::Arr(vec![]), Some(Json::Arr(a)) => Json::Arr(a.clone()), _ => return Err(bad("'filters' must be an array")) };
    let d = st.dep(&dep).unwrap();
    let db = d.dashboards.iter().find(|x| x.id == did).unwrap();
    if !db.snapshots.iter().any(|s| s.get("reportId").and_then(|x| x.as_i64()) == Some(rid)) { return Err(nf("report on this dashboard")); }
    let r = d.reports.iter().find(|r| r.id == rid);
    if r.map(|r| r.python.is_none()).unwrap_or(true) { return Err(bad("the report is not a Python report")); }
    ok(obj! {"reportId" => rid, "status" => "succeeded", "appliedFilters" => filters, "result" => obj!{"columns" => Json::Arr(vec!["month".into(), "value".into()]),
        "rows" => Json::Arr(vec![Json::Arr(vec!["2025-01".into(), 10.into()]), Json::Arr(vec!["2025-02".into(), 12.into()])])}, "stdout" => "", "durationMs" => 17})
}

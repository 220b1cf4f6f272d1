use crate::http::{Request, Response};
use crate::json::{self, Json};
use crate::obj;
use crate::openapi::{Op, OPS};
use crate::state::*;
use crate::util::*;
use std::sync::Mutex;

pub const JSON_CT: &str = "Application/JSON; charset=utf-8";
pub type R = Result<Response, Response>;

pub struct Ctx<'a> {
    pub req: &'a Request,
    pub me: User,
    pub params: Vec<String>,
    pub query: Vec<(String, String)>,
    pub op: &'static Op,
}

pub fn err(status: u16, msg: impl Into<String>) -> Response {
    let b = obj! {"error" => msg.into(), "statusCode" => status as i64}.dump().into_bytes();
    Response::new(status, JSON_CT, b)
}
pub fn jres(status: u16, j: &Json) -> Response { Response::new(status, JSON_CT, j.dump().into_bytes()) }
pub fn ok(j: Json) -> R { Ok(jres(200, &j)) }
pub fn created(j: Json, loc: String) -> R { Ok(jres(201, &j).header("Location", &loc)) }
pub fn bad(msg: impl Into<String>) -> Response { err(400, msg) }
pub fn nf(what: &str) -> Response { err(404, format!("{} not found", what)) }
pub fn forbid(msg: impl Into<String>) -> Response { err(403, msg) }

// ---------- request helpers ----------
impl<'a> Ctx<'a> {
    pub fn p(&self, i: usize) -> &str { &self.params[i] }
    pub fn q(&self, name: &str) -> Option<&str> { self.query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()) }
    pub fn q_int(&self, name: &str, min: i64) -> Result<Option<i64>, Response> {
        match self.q(name) {
            None => Ok(None),
            Some(v) => {
                let t = v.trim();
                let ok_syntax = !t.is_empty() && t.trim_start_matches('-').bytes().all(|c| c.is_ascii_digit()) && !t.trim_start_matches('-').is_empty();
                if !ok_syntax { return Err(bad(format!("query parameter '{}' must be an integer", name))); }
                let n: i64 = t.parse().map_err(|_| bad(format!("query parameter '{}' is out of range", name)))?;
                if n < min { return Err(bad(format!("query parameter '{}' must be >= {}", name, min))); }
                Ok(Some(n))
            }
        }
    }
    pub fn q_bool(&self, name: &str) -> Result<Option<bool>, Response> {
        match self.q(name) { None => Ok(None), Some("true") | Some("1") => Ok(Some(true)), Some("false") | Some("0") => Ok(Some(false)), _ => Err(bad(format!("query parameter '{}' must be true or false", name))) }
    }
    pub fn q_enum(&self, name: &str, allowed: &[&str]) -> Result<Option<String>, Response> {
        match self.q(name) { None => Ok(None), Some(v) if allowed.contains(&v) => Ok(Some(v.to_string())), Some(_) => Err(bad(format!("query parameter '{}' must be one of {}", name, allowed.join(", ")))) }
    }
    /// body must be a JSON object; empty body allowed only when `optional`
    pub fn body(&self, optional: bool) -> Result<Json, Response> {
        let b = &self.req.body;
        if b.iter().all(|c| c.is_ascii_whitespace()) {
            return if optional { Ok(Json::obj()) } else { Err(bad("request body is required (a JSON object)")) };
        }
        let s = std::str::from_utf8(b).map_err(|_| bad("request body is not valid UTF-8"))?;
        let v = json::parse(s).map_err(|e| bad(format!("malformed JSON: {}", e)))?;
        if !v.is_obj() { return Err(bad(format!("request body must be a JSON object, got {}", v.type_name()))); }
        Ok(v)
    }
}

// field extraction: Ok(None) when absent; null treated as absent only when `nullable`
pub fn f_str(b: &Json, k: &str, required: bool) -> Result<Option<String>, Response> {
    match b.get(k) {
        None | Some(Json::Null) if !required => Ok(None),
        None | Some(Json::Null) => Err(bad(format!("'{}' is required", k))),
        Some(Json::Str(s)) => Ok(Some(s.clone())),
        Some(v) => Err(bad(format!("'{}' must be a string, got {}", k, v.type_name()))),
    }
}
pub fn f_nonempty(b: &Json, k: &str, required: bool, max: usize) -> Result<Option<String>, Response> {
    let v = f_str(b, k, required)?;
    if let Some(s) = &v {
        if s.trim().is_empty() { return Err(bad(format!("'{}' must not be empty", k))); }
        if s.chars().count() > max { return Err(bad(format!("'{}' must be at most {} characters", k, max))); }
    }
    Ok(v)
}
pub fn f_int(b: &Json, k: &str, required: bool, min: i64) -> Result<Option<i64>, Response> {
    match b.get(k) {
        None | Some(Json::Null) if !required => Ok(None),
        None | Some(Json::Null) => Err(bad(format!("'{}' is required", k))),
        Some(v) => match v.as_i64() {
            Some(n) if n >= min => Ok(Some(n)),
            Some(_) => Err(bad(format!("'{}' must be >= {}", k, min))),
            None => Err(bad(format!("'{}' must be an integer", k))),
        },
    }
}
pub fn f_bool(b: &Json, k: &str, required: bool) -> Result<Option<bool>, Response> {
    match b.get(k) {
        None | Some(Json::Null) if !required => Ok(None),
        None | Some(Json::Null) => Err(bad(format!("'{}' is required", k))),
        Some(Json::Bool(x)) => Ok(Some(*x)),
        Some(v) => Err(bad(format!("'{}' must be a boolean, got {}", k, v.type_name()))),
    }
}
pub fn f_enum(b: &Json, k: &str, required: bool, allowed: &[&str]) -> Result<Option<String>, Response> {
    let v = f_str(b, k, required)?;
    if let Some(s) = &v { if !allowed.contains(&s.as_str()) { return Err(bad(format!("'{}' must be one of {}", k, allowed.join(", ")))); } }
    Ok(v)
}

// ---------- pagination ----------
pub fn enc_cursor(i: usize) -> String { hex(format!("o:{}", i).as_bytes()) }
pub fn dec_cursor(s: &str) -> Option<usize> {
    let b = unhex(s)?; let t = String::from_utf8(b).ok()?; let n = t.strip_prefix("o:")?;
    if n.is_empty() || !n.bytes().all(|c| c.is_ascii_digit()) || n.len() > 9 { return None; }
    n.parse().ok()
}
pub const MAX_PAGE: i64 = 250;
pub const CURSOR_DEFAULT: usize = 7;

pub struct Page { pub start: usize, pub end: usize, pub first: usize, pub info: Json }
pub fn cursor_page(ctx: &Ctx, len: usize, default: usize) -> Result<Page, Response> {
    let first = ctx.q_int("first", 1)?.map(|n| n.min(MAX_PAGE) as usize).unwrap_or(default);
    let start = match ctx.q("after") {
        None => 0,
        Some("") => 0,
        Some(c) => dec_cursor(c).ok_or_else(|| bad("query parameter 'after' is not a valid cursor"))? + 1,
    };
    Ok(page_of(len, start, first))
}
pub fn page_of(len: usize, start: usize, first: usize) -> Page {
    let s = start.min(len);
    let e = (s + first).min(len);
    let info = obj! {"hasNextPage" => e < len, "hasPreviousPage" => s > 0,
        "startCursor" => if e > s { Json::Str(enc_cursor(s)) } else { Json::Null }, "endCursor" => if e > s { Json::Str(enc_cursor(e - 1)) } else { Json::Null }};
    Page { start: s, end: e, first, info }
}
pub fn cursor_list(ctx: &Ctx, all: Vec<Json>, default: usize) -> R {
    let pg = cursor_page(ctx, all.len(), default)?;
    ok(list_body(all[pg.start..pg.end].to_vec(), &pg, all.len()))
}
pub fn list_body(items: Vec<Json>, pg: &Page, total: usize) -> Json {
    obj! {"items" => Json::Arr(items.clone()), "pageInfo" => pg.info.clone(), "data" => Json::Arr(items), "count" => total,
        "pagination" => obj!{"offset" => pg.start, "limit" => pg.first, "total" => total}}
}
pub fn offset_limit(ctx: &Ctx, min_limit: i64) -> Result<(usize, usize), Response> {
    let off = ctx.q_int("offset", 0)?.unwrap_or(0);
    let lim = ctx.q_int("limit", min_limit)?.unwrap_or(20).min(MAX_PAGE);
    Ok((off.min(i32::MAX as i64) as usize, lim as usize))
}

// ---------- access ----------
pub fn dep_check<'s>(st: &'s State, me: &User, id: &str) -> Result<&'s Deployment, Response> {
    let d = st.dep(id).ok_or_else(|| nf("deployment"))?;
    if let Some(sc) = &me.scoped { if !sc.iter().any(|x| x == id) { return Err(forbid("this API key is not allowed to access this deployment")); } }
    if let Some(m) = &d.members { if me.role != Role::Admin && !m.contains(&me.id) { return Err(forbid("you are not a member of this deployment")); } }
    Ok(d)
}
pub fn need_role(me: &User, r: Role) -> Result<(), Response> {
    if me.role < r { Err(forbid(format!("this operation requires the {} role or higher", r.name()))) } else { Ok(()) }
}
pub fn account_admin(me: &User) -> Result<(), Response> {
    if me.scoped.is_some() { return Err(forbid("deployment-scoped API keys cannot manage account settings")); }
    need_role(me, Role::Admin)
}

fn grant(grants: &[(i64, Level)], uid: i64) -> Level { grants.iter().filter(|g| g.0 == uid).map(|g| g.1).fold(Level::None, |a, b| if b > a { b } else { a }) }
fn maxl(a: Level, b: Level) -> Level { if a > b { a } else { b } }

pub fn folder_chain(d: &Deployment, f: Option<i64>) -> Vec<&Folder> {
    let mut out = vec![]; let mut cur = f; let mut guard = 0;
    while let Some(id) = cur { guard += 1; if guard > 64 { break; } match d.folders.iter().find(|x| x.id == id) { Some(x) => { out.push(x); cur = x.parent; } None => break } }
    out
}
fn level_for(d: &Deployment, me: &User, owner: i64, restricted: bool, grants: &[(i64, Level)], folder: Option<i64>) -> Level {
    if me.role == Role::Admin { return Level::Manage; }
    let chain = folder_chain(d, folder);
    if owner == me.id || chain.iter().any(|f| f.owner == me.id) { return Level::Manage; }
    let any_restricted = restricted || chain.iter().any(|f| f.restricted);
    let base = if any_restricted { Level::None } else if me.role == Role::Developer { Level::Edit } else { Level::Read };
    let mut l = maxl(base, grant(grants, me.id));
    for f in &chain { l = maxl(l, grant(&f.grants, me.id)); }
    l
}
pub fn folder_level(d: &Deployment, me: &User, fid: i64) -> Level {
    match d.folders.iter().find(|f| f.id == fid) { Some(f) => level_for(d, me, f.owner, f.restricted, &f.grants, f.parent), None => Level::None }
}
pub fn wb_level(d: &Deployment, me: &User, w: &Workbook) -> Level { level_for(d, me, w.owner, w.restricted, &w.grants, w.folder) }
pub fn report_level(d: &Deployment, me: &User, r: &Report) -> Level {
    if let Some(wid) = r.workbook { if let Some(w) = d.workbooks.iter().find(|w| w.id == wid) { return wb_level(d, me, w); } }
    level_for(d, me, r.owner, false, &[], r.folder)
}
/// may the caller place something into `dest` (None = root)?
pub fn dest_edit(d: &Deployment, me: &User, dest: Option<i64>) -> bool {
    match dest { None => me.role >= Role::AiBiUser, Some(f) => folder_level(d, me, f) >= Level::Edit && me.role >= Role::AiBiUser }
}

// ---------- serialization ----------
pub fn owner_json(st: &State, uid: i64) -> Json {
    match st.users.iter().find(|u| u.id == uid) {
        Some(u) => obj! {"id" => u.id, "email" => u.email.clone(), "firstName" => u.first_name.clone(), "picture" => u.picture.clone()},
        None => Json::Null,
    }
}
pub fn folder_path(d: &Deployment, containing: Option<i64>) -> Json {
    let chain = folder_chain(d, containing);
    // ancestors of the containing folder (excluding it), root first
    let mut anc: Vec<Json> = chain.iter().skip(1).map(|f| obj! {"id" => f.id, "name" => f.name.clone()}).collect();
    anc.reverse();
    Json::Arr(anc)
}
pub fn dep_num(d: &Deployment) -> i64 { d.id.parse().unwrap_or(0) }
pub fn dashboard_json(d: &Deployment, db: &Dashboard) -> Json {
    obj! {"id" => db.id, "publicId" => db.public_id.clone(), "deploymentId" => dep_num(d), "workbookId" => db.workbook, "status" => db.status.clone(),
        "allowEmbed" => db.allow_embed, "config" => db.config.clone(), "versionNumber" => db.version_number, "versionId" => db.version_id,
        "reportSnapshots" => Json::Arr(db.snapshots.clone()), "createdBy" => db.created_by, "title" => db.title.clone(), "description" => db.description.clone(),
        "fromSharedWorkspace" => db.from_shared, "restrictDataDownload" => db.restrict_dl, "useBoardDashboards" => db.use_board}
}
pub fn wb_json(st: &State, d: &Deployment, w: &Workbook) -> Json {
    let db = w.dashboard.and_then(|id| d.dashboards.iter().find(|x| x.id == id));
    obj! {"id" => w.id, "deploymentId" => dep_num(d), "name" => w.name.clone(), "type" => "WORKBOOK", "meta" => w.meta.clone(), "calculatedFields" => w.calc.clone(),
        "createdAt" => if w.date_only { iso_date(w.created_at) } else { iso(w.created_at) }, "updatedAt" => iso(w.updated_at),
        "createdBy" => w.owner, "userId" => w.owner, "user" => owner_json(st, w.owner), "folderId" => w.folder, "folderPath" => folder_path(d, w.folder),
        "isFavorite" => w.favorite, "slug" => w.slug.clone(), "dashboardDraft" => w.draft.clone(),
        "dashboardPublished" => db.map(|x| x.config.clone()), "publishedDashboard" => db.map(|x| dashboard_json(d, x))}
}
pub fn folder_json(st: &State, d: &Deployment, f: &Folder) -> Json {
    obj! {"id" => f.id, "deploymentId" => dep_num(d), "name" => f.name.clone(), "type" => "FOLDER", "meta" => obj!{}, "calculatedFields" => obj!{},
        "createdAt" => iso(f.created_at), "updatedAt" => iso(f.updated_at), "createdBy" => f.owner, "userId" => f.owner, "user" => owner_json(st, f.owner),
        "folderId" => f.parent, "folderPath" => folder_path(d, f.parent), "isFavorite" => false, "slug" => Json::Null, "dashboardDraft" => Json::Null,
        "dashboardPublished" => Json::Null, "publishedDashboard" => Json::Null, "parentId" => f.parent, "position" => f.position, "updatedBy" => f.updated_by}
}
pub fn report_json(st: &State, d: &Deployment, r: &Report) -> Json {
    obj! {"id" => r.id, "deploymentId" => dep_num(d), "name" => r.name.clone(), "type" => "REPORT", "meta" => obj!{"kind" => r.kind.clone()}, "calculatedFields" => obj!{},
        "createdAt" => iso(r.created_at), "updatedAt" => iso(r.updated_at), "createdBy" => r.owner, "userId" => r.owner, "user" => owner_json(st, r.owner),
        "folderId" => r.folder, "folderPath" => folder_path(d, r.folder), "isFavorite" => false, "slug" => Json::Null, "dashboardDraft" => Json::Null,
        "dashboardPublished" => Json::Null, "publishedDashboard" => Json::Null,
        "workbookId" => r.workbook, "publicId" => r.public_id.clone(), "kind" => r.kind.clone(), "title" => r.title.clone(), "description" => r.description.clone(),
        "sqlQuery" => r.sql.clone(), "pythonCode" => r.python.clone(), "spec" => r.spec.clone(), "lastViewedAt" => r.last_viewed.map(iso),
        "placements" => Json::Arr(r.placements.iter().map(placement_json).collect())}
}
pub fn placement_json(p: &Placement) -> Json {
    obj! {"placementId" => p.id, "externalWorkbookId" => p.external_workbook_id.clone(), "sheetName" => p.sheet_name.clone(), "anchorCell" => p.anchor_cell.clone(),
        "createdAt" => iso(p.created_at), "refreshedAt" => p.refreshed_at.map(iso)}
}

// ---------- dashboard config validation ----------
const WIDGET_TYPES: [&str; 9] = ["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"];
const BPS: [&str; 5] = ["lg", "md", "sm", "xs", "xxs"];
fn is_int(v: &Json) -> bool { matches!(v, Json::I(_)) || matches!(v, Json::F(f) if f.fract() == 0.0) }
fn opt_t(o: &Json, k: &str, p: &str, pred: fn(&Json) -> bool, tn: &str) -> Result<(), String> {
    match o.get(k) { None | Some(Json::Null) => Ok(()), Some(v) if pred(v) => Ok(()), Some(_) => Err(format!("{}.{} must be {}", p, k, tn)) }
}
fn check_position(v: &Json, p: &str) -> Result<(), String> {
    if !v.is_obj() { return Err(format!("{} must be an object with x, y, w, h", p)); }
    for k in ["x", "y", "w", "h"] { match v.get(k) { Some(n) if is_int(n) => {} _ => return Err(format!("{}.{} is required and must be an integer", p, k)) } }
    Ok(())
}
fn check_bp_obj(v: &Json, p: &str) -> Result<(), String> {
    if !v.is_obj() { return Err(format!("{} must be an object", p)); }
    for k in BPS { opt_t(v, k, p, is_int, "an integer or null")?; }
    Ok(())
}
pub fn validate_config(v: &Json, p: &str) -> Result<Json, String> {
    if v.is_null() { return Ok(Json::Null); }
    if !v.is_obj() { return Err(format!("{} must be an object or null", p)); }
    let mut out = v.clone();
    if let Some(k) = v.get("kind") { if !k.is_null() && !matches!(k.as_str(), Some("CLASSIC") | Some("APP")) { return Err(format!("{}.kind must be CLASSIC or APP", p)); } }
    opt_t(v, "title", p, |x| x.as_str().is_some(), "a string")?;
    opt_t(v, "description", p, |x| x.as_str().is_some(), "a string")?;
    opt_t(v, "settings", p, |x| x.is_obj(), "an object")?;
    opt_t(v, "theme", p, |x| x.is_obj(), "an object")?;
    if let Some(ws) = v.get("widgets") {
        if !ws.is_null() {
            let arr = ws.as_arr().ok_or(format!("{}.widgets must be an array", p))?;
            let mut nw = vec![];
            for (i, w) in arr.iter().enumerate() {
                let wp = format!("{}.widgets[{}]", p, i);
                if !w.is_obj() { return Err(format!("{} must be an object", wp)); }
                let mut w2 = w.clone();
                match w.get("id") { Some(Json::Str(_)) => {} _ => return Err(format!("{}.id is required and must be a string", wp)) }
                let t = w.get("type").and_then(|t| t.as_str()).ok_or(format!("{}.type is required", wp))?;
                if t == "TABS_CONTAINER" {
                    w2.set("type", "CONTAINER".into());
                    let mut cfg = match w.get("config") { Some(c) if c.is_obj() => c.clone(), _ => Json::obj() };
                    cfg.set("layout", "tabs".into());
                    w2.set("config", cfg);
                } else if !WIDGET_TYPES.contains(&t) { return Err(format!("{}.type must be one of {}", wp, WIDGET_TYPES.join(", "))); }
                check_position(w.get("position").unwrap_or(&Json::Null), &format!("{}.position", wp))?;
                if let Some(rl) = w.get("responsiveLayouts") {
                    if !rl.is_null() {
                        if !rl.is_obj() { return Err(format!("{}.responsiveLayouts must be an object", wp)); }
                        for k in BPS { if let Some(x) = rl.get(k) { if !x.is_null() { check_position(x, &format!("{}.responsiveLayouts.{}", wp, k))?; } } }
                    }
                }
                opt_t(w, "config", &wp, |x| x.is_obj(), "an object or null")?;
                opt_t(w, "style", &wp, |x| x.is_obj(), "an object or null")?;
                nw.push(w2);
            }
            out.set("widgets", Json::Arr(nw));
        }
    }
    if let Some(l) = v.get("layout") {
        if !l.is_null() {
            let lp = format!("{}.layout", p);
            if !l.is_obj() { return Err(format!("{} must be an object", lp)); }
            for k in ["breakpoints", "cols"] { if let Some(x) = l.get(k) { if !x.is_null() { check_bp_obj(x, &format!("{}.{}", lp, k))?; } } }
            for k in ["containerPadding", "margin"] { opt_t(l, k, &lp, |x| x.as_arr().map(|a| a.iter().all(is_int)).unwrap_or(false), "an array of integers")?; }
            opt_t(l, "rowHeight", &lp, is_int, "an integer")?;
        }
    }
    if let Some(a) = v.get("app") {
        if !a.is_null() {
            let ap = format!("{}.app", p);
            if !a.is_obj() { return Err(format!("{} must be an object", ap)); }
            opt_t(a, "entry", &ap, |x| x.as_str().map(|s| s.chars().count() <= 255).unwrap_or(false), "a string of at most 255 characters")?;
            opt_t(a, "html", &ap, |x| x.as_str().is_some(), "a string")?;
            opt_t(a, "files", &ap, |x| x.as_obj().map(|o| o.iter().all(|(_, v)| v.as_str().is_some())).unwrap_or(false), "an object of strings")?;
            if let Some(m) = a.get("manifest") {
                if !m.is_null() {
                    if !m.is_obj() { return Err(format!("{}.manifest must be an object", ap)); }
                    opt_t(m, "dependencies", &format!("{}.manifest", ap), |x| x.as_obj().map(|o| o.iter().all(|(_, v)| v.as_str().is_some())).unwrap_or(false), "an object of strings")?;
                    opt_t(m, "version", &format!("{}.manifest", ap), is_int, "an integer")?;
                }
            }
        }
    }
    Ok(out)
}

// ---------- dispatcher ----------
fn parse_query(q: &str) -> Result<Vec<(String, String)>, Response> {
    let mut out: Vec<(String, String)> = vec![];
    for part in q.split('&') {
        if part.is_empty() { continue; }
        let (k, v) = match part.find('=') { Some(i) => (&part[..i], &part[i + 1..]), None => (part, "") };
        let k = pct_decode(k, true).ok_or_else(|| bad("malformed percent-encoding in query string"))?;
        let v = pct_decode(v, true).ok_or_else(|| bad("malformed percent-encoding in query string"))?;
        if out.iter().any(|(kk, _)| *kk == k) { return Err(bad(format!("query parameter '{}' is repeated", k))); }
        out.push((k, v));
    }
    Ok(out)
}

fn authenticate(st: &State, req: &Request) -> Result<User, Response> {
    let unauth = |m: &str| err(401, m).header("WWW-Authenticate", "Bearer realm=\"platform\"");
    let h = req.header("authorization").ok_or_else(|| unauth("missing Authorization header"))?;
    let h = h.trim();
    let (scheme, tok) = match h.find(' ') { Some(i) => (&h[..i], h[i + 1..].trim()), None => return Err(unauth("malformed Authorization header")) };
    if !(scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("api-key")) || tok.is_empty() { return Err(unauth("unsupported authorization scheme")); }
    if let Some(u) = st.users.iter().find(|u| u.api_key == tok && !u.deleted) {
        if !u.active { return Err(unauth("the user owning this API key is deactivated")); }
        return Ok(u.clone());
    }
    if tok.matches('.').count() == 2 {
        if let Some(exp) = crate::api14::verify_jwt(st, tok) {
            if exp * 1000 < now_ms() { return Err(unauth("token expired")); }
            return Err(forbid("metadata tokens are valid only for metadata endpoints"));
        }
    }
    Err(unauth("invalid API key"))
}

pub fn handle(state: &Mutex<State>, req: &Request) -> Response {
    let t = now_ms();
    let resp = handle_inner(state, req);
    eprintln!("{} {} {} -> {} ({} ms)", iso(t), req.method, req.path, resp.status, now_ms() - t);
    resp
}

fn handle_inner(state: &Mutex<State>, req: &Request) -> Response {
    let me = {
        let st = state.lock().unwrap_or_else(|e| e.into_inner());
        match authenticate(&st, req) { Ok(u) => u, Err(r) => return r }
    };
    let query = match parse_query(&req.query) { Ok(q) => q, Err(r) => return r };
    // split path into decoded segments
    if !req.path.starts_with('/') { return err(404, "no such route"); }
    let mut segs = vec![];
    for s in req.path[1..].split('/') { match pct_decode(s, false) { Some(d) => segs.push(d), None => return bad("malformed percent-encoding in path") } }
    let method = if req.method == "HEAD" { "GET" } else { req.method.as_str() };
    let mut allowed: Vec<&str> = vec![];
    let mut found: Option<(&'static Op, Vec<String>)> = None;
    for op in OPS.iter() {
        let tsegs: Vec<&str> = op.p[1..].split('/').collect();
        if tsegs.len() != segs.len() { continue; }
        let mut params = vec![];
        let mut m = true;
        for (t, s) in tsegs.iter().zip(segs.iter()) {
            if t.starts_with('{') { if s.is_empty() { m = false; break; } params.push(s.clone()); } else if t != s { m = false; break; }
        }
        if !m { continue; }
        if op.m == method { if found.is_none() { found = Some((op, params)); } } else if !allowed.contains(&op.m) { allowed.push(op.m); }
    }
    let (op, params) = match found {
        Some(f) => f,
        None if !allowed.is_empty() => {
            if allowed.contains(&"GET") { allowed.push("HEAD"); }
            return err(405, format!("method {} is not allowed on this path", req.method)).header("Allow", &allowed.join(", "));
        }
        None => return err(404, format!("no route for {} {}", req.method, req.path)),
    };
    let ctx = Ctx { req, me, params, query, op };
    let r = if op.id == "upsertWorkbookBySlug" { crate::workspace::upsert_by_slug(state, &ctx) } else {
        let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
        dispatch(&mut st, &ctx)
    };
    match r { Ok(x) | Err(x) => x }
}

fn dispatch(st: &mut State, c: &Ctx) -> R {
    use crate::api14 as x;
    use crate::workspace as w;
    match c.op.id {
        "listDeployments" => list_deployments(st, c),
        "getDeployment" => get_deployment(st, c),
        "listEnvironments" => list_environments(st, c),
        "createMetaToken" => x::meta_token(st, c),
        "setStagingEnvironment" => set_staging(st, c),
        "listVersions" => list_versions(st, c),
        "updateDeployment" => update_deployment(st, c),
        "exportAuditLogs" => export_audit(st, c),
        "listWorkbooks" => w::list_workbooks(st, c),
        "getWorkbook" => w::get_workbook(st, c),
        "createWorkbook" => w::create_workbook(st, c),
        "duplicateWorkbook" => w::duplicate(st, c),
        "bulkMove" => w::bulk_move(st, c),
        "bulkDelete" => w::bulk_delete(st, c),
        "listEnvVars" => list_env_vars(st, c),
        "setEnvVars" => set_env_vars(st, c),
        "getSpec" => ok(crate::openapi::document()),
        _ => x::dispatch14(st, c),
    }
}

// ---------- E1 ----------
pub fn dep_item(d: &Deployment) -> Json {
    obj! {"id" => d.id.clone(), "name" => d.name.clone(), "created_at" => iso(d.created_at), "cloudProvider" => d.cloud_provider.clone(), "region" => d.region.clone(),
        "deploymentUrl" => format!("https://{}.{}.platform.test", slugify(&d.name), d.region)}
}
pub fn slugify(s: &str) -> String { s.to_ascii_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect() }
pub fn dep_full(d: &Deployment) -> Json {
    let mut j = dep_item(d);
    for (k, v) in [
        ("releaseChannel", Json::from(d.release_channel.clone())), ("releaseChannelVersion", d.version.clone().into()), ("releaseChannelVersionHold", d.hold.into()),
        ("image", format!("cubejs/cube:v{}", d.version).into()), ("template", d.template.clone().into()), ("templateVariables", d.template_vars.clone()),
        ("defaultLaunchpadViewGroup", d.launchpad_group.clone()), ("launchpadTabs", d.launchpad_tabs.clone()), ("creationMethod", d.creation_method.clone().into()),
        ("deployMode", d.deploy_mode.clone().into()), ("creationStep", STEPS[d.creation_step].into()), ("updated_at", iso(d.updated_at).into()),
    ] { j.set(k, v); }
    j
}
fn list_deployments(st: &mut State, c: &Ctx) -> R {
    let (off, lim) = offset_limit(c, 1)?;
    let mut v: Vec<&Deployment> = st.deployments.iter().filter(|d| dep_check(st, &c.me, &d.id).is_ok()).collect();
    v.sort_by_key(|d| d.created_at);
    let total = v.len();
    let items: Vec<Json> = v.into_iter().skip(off).take(lim).map(dep_item).collect();
    ok(obj! {"data" => obj!{"deployments" => Json::Arr(items)}, "pagination" => obj!{"offset" => off, "limit" => lim, "total" => total}})
}
fn get_deployment(st: &mut State, c: &Ctx) -> R { let d = dep_check(st, &c.me, c.p(0))?; ok(dep_full(d)) }

// ---------- E2 ----------
pub fn env_list(st: &State, d: &Deployment) -> Vec<(Json, &'static str)> {
    let mut out = vec![];
    for b in &d.branches {
        let t = match b.kind { BranchKind::Production => "production", BranchKind::Shared if b.staging => "staging", BranchKind::Personal if b.dev_mode => "development", _ => continue };
        let user = match b.owner { Some(o) => st.users.iter().find(|u| u.id == o).map(|u| u.email.clone()).unwrap_or_default(), None => "ada.admin@acme.test".into() };
        let host = format!("{}--{}.platform.test", slugify(&b.name), d.id);
        let mut creds = vec![obj! {"type" => "rest", "version" => 1, "database" => slugify(&d.name), "host" => host.clone(), "port" => 443, "url" => format!("https://{}/cubejs-api/v1", host)}];
        if t == "production" { creds.push(obj! {"type" => "sql", "version" => 1, "database" => slugify(&d.name), "host" => format!("sql-{}", host), "port" => 5432, "url" => format!("postgres://sql-{}:5432/{}", host, slugify(&d.name))}); }
        let name = match t { "production" => "Production".to_string(), "staging" => format!("Staging ({})", b.name), _ => format!("Development ({})", b.name) };
        out.push((obj! {"id" => b.env_id.clone(), "name" => name, "type" => t, "branch" => b.name.clone(), "user" => user, "api_credentials" => Json::Arr(creds)}, t));
    }
    out.sort_by_key(|(j, _)| j.get("id").and_then(|x| x.as_str()).and_then(|s| s.parse::<i64>().ok()).unwrap_or(0));
    out
}
fn list_environments(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let ty = c.q_enum("type", &["production", "staging", "development"])?;
    let (off, lim) = offset_limit(c, 0)?;
    let all: Vec<Json> = env_list(st, d).into_iter().filter(|(_, t)| ty.as_deref().map(|x| x == *t).unwrap_or(true)).map(|(j, _)| j).collect();
    let total = all.len();
    let use_cursor = c.q("first").is_some() || c.q("after").is_some();
    let pg = cursor_page(c, total, if use_cursor { CURSOR_DEFAULT } else { total.max(1) })?;
    let items = all[pg.start..pg.end].to_vec();
    let data: Vec<Json> = all.iter().skip(off).take(lim).cloned().collect();
    ok(obj! {"items" => Json::Arr(items), "pageInfo" => pg.info, "data" => Json::Arr(data), "pagination" => obj!{"offset" => off, "limit" => lim, "total" => total}})
}

// ---------- E4 ----------
pub fn branch_json(b: &Branch) -> Json {
    obj! {"id" => b.id, "name" => b.name.clone(), "parentBranch" => b.parent.clone(), "lastHash" => b.last_hash.clone(), "isStagingEnvironmentEnabled" => b.staging,
        "kind" => match b.kind { BranchKind::Production => "production", BranchKind::Shared => "shared", BranchKind::Personal => "personal" },
        "devMode" => b.dev_mode, "createdAt" => iso(b.created_at)}
}
fn set_staging(st: &mut State, c: &Ctx) -> R {
    dep_check(st, &c.me, c.p(0))?;
    need_role(&c.me, Role::Admin)?;
    let b = c.body(false)?;
    let enabled = f_bool(&b, "enabled", true)?.unwrap();
    let name = f_str(&b, "branchName", false)?;
    let bid = f_int(&b, "branchId", false, i64::MIN)?;
    if name.is_none() && bid.is_none() { return Err(bad("one of 'branchName' or 'branchId' is required")); }
    let d = st.dep_mut(c.p(0)).unwrap();
    let br = d.branches.iter_mut().find(|x| match &name { Some(n) => x.name == *n, None => Some(x.id) == bid }).ok_or_else(|| nf("branch"))?;
    if enabled && br.kind != BranchKind::Shared {
        return Err(forbid(format!("only shared branches can have an always-on staging environment; '{}' is a {} branch", br.name, if br.kind == BranchKind::Production { "production" } else { "personal development" })));
    }
    br.staging = enabled;
    let j = branch_json(br);
    let dn = d.id.clone();
    st.audit("Staging environment toggled", &c.me.email.clone(), &dn, obj! {"branch" => j.get("name").unwrap().clone(), "enabled" => enabled});
    ok(obj! {"data" => j})
}

// ---------- E5 / E6 ----------
fn list_versions(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let v: Vec<Json> = VERSIONS.iter().map(|(v, ch, head)| obj! {"releaseChannelVersion" => format!("cubejs/cube:v{}", v), "version" => *v, "releaseChannel" => *ch, "isLatestInChannel" => *head, "isCurrent" => d.version == *v}).collect();
    ok(obj! {"data" => Json::Arr(v)})
}
fn norm_version(s: &str) -> Option<&'static str> {
    let t = s.trim();
    let t = t.strip_prefix("cubejs/cube:").unwrap_or(t);
    let t = t.strip_prefix('v').unwrap_or(t);
    version_entry(t).map(|e| e.0)
}
const CLOUD_ALIASES: [&str; 4] = ["cloud", "hosted", "<hosted>", "managed"];
fn norm_hosted(s: &str) -> String { if CLOUD_ALIASES.contains(&s) { "cloud".into() } else { s.to_string() } }
fn update_deployment(st: &mut State, c: &Ctx) -> R {
    dep_check(st, &c.me, c.p(0))?;
    need_role(&c.me, Role::Developer)?;
    let b = c.body(false)?;
    if b.has("image") { return Err(bad("'image' cannot be set; it is resolved from releaseChannelVersion")); }
    let pick = |a: &str, s: &str| -> Result<Option<String>, Response> { let v = f_str(&b, a, false)?; if v.is_some() { return Ok(v); } f_str(&b, s, false) };
    let cloud = f_str(&b, "cloudProvider", false)?.map(|s| norm_hosted(&s));
    if let Some(cp) = &cloud { if !["cloud", "aws", "gcp"].contains(&cp.as_str()) { return Err(bad("'cloudProvider' must be one of cloud, aws, gcp")); } }
    let region = f_nonempty(&b, "region", false, 64)?;
    let channel = f_str(&b, "releaseChannel", false)?;
    if let Some(ch) = &channel { if channel_head(ch).is_none() { return Err(bad("'releaseChannel' must be one of latest, release")); } }
    let ver = match f_str(&b, "releaseChannelVersion", false)? { Some(v) => Some(norm_version(&v).ok_or_else(|| bad(format!("releaseChannelVersion '{}' is not one of the versions listed for this deployment", v)))?), None => None };
    if let (Some(v), Some(ch)) = (ver, &channel) { if version_entry(v).unwrap().1 != ch { return Err(bad(format!("version {} does not belong to release channel '{}'", v, ch))); } }
    let hold = f_bool(&b, "releaseChannelVersionHold", false)?;
    let template = f_str(&b, "template", false)?;
    let tv = b.get("templateVariables").cloned();
    if let Some(t) = &tv { if !t.is_obj() && !t.is_null() { return Err(bad("'templateVariables' must be an object")); }
        if let Some(o) = t.as_obj() { for (k, v) in o { if matches!(v, Json::Arr(_) | Json::Obj(_)) { return Err(bad(format!("templateVariables.{} must be a scalar", k))); } } } }
    let lg = b.get("defaultLaunchpadViewGroup").cloned();
    if let Some(x) = &lg { if !x.is_null() && x.as_str().is_none() { return Err(bad("'defaultLaunchpadViewGroup' must be a string or null")); } }
    let tabs = b.get("launchpadTabs").cloned();
    if let Some(x) = &tabs { if !x.is_null() && x.as_arr().is_none() { return Err(bad("'launchpadTabs' must be an array")); } }
    let cm = pick("creationMethod", "creation_method")?.map(|s| norm_hosted(&s));
    if let Some(x) = &cm { if !["upload", "cloud", "github", "ssh"].contains(&x.as_str()) { return Err(bad("'creationMethod' must be one of upload, cloud, github, ssh")); } }
    let dm = pick("deployMode", "deploy_mode")?;
    if let Some(x) = &dm { if !["git", "cli"].contains(&x.as_str()) { return Err(bad("'deployMode' must be one of git, cli")); } }
    let d = st.dep_mut(c.p(0)).unwrap();
    if let Some(x) = cloud { d.cloud_provider = x; }
    if let Some(x) = region { d.region = x; }
    match (ver, &channel) {
        (Some(v), _) => { let e = version_entry(v).unwrap(); d.version = v.into(); d.release_channel = e.1.into(); d.hold = !e.2; }
        (None, Some(ch)) => { d.version = channel_head(ch).unwrap().into(); d.release_channel = ch.clone(); d.hold = false; }
        _ => {}
    }
    if let Some(h) = hold { d.hold = h; }
    if let Some(x) = template { d.template = x; }
    if let Some(Json::Obj(o)) = tv { for (k, v) in o { if v.is_null() { d.template_vars.remove(&k); } else { d.template_vars.set(&k, v); } } }
    if let Some(x) = lg { d.launchpad_group = x; }
    if let Some(x) = tabs { d.launchpad_tabs = if x.is_null() { Json::Arr(vec![]) } else { x }; }
    if let Some(x) = cm { d.creation_method = x; }
    if let Some(x) = dm { d.deploy_mode = x; }
    d.updated_at = now_ms();
    let j = dep_full(d);
    let id = d.id.clone();
    st.audit("Deployment updated", &c.me.email, &id, obj! {"fields" => Json::Arr(b.as_obj().unwrap().iter().map(|(k, _)| Json::from(k.clone())).collect())});
    ok(obj! {"deployment" => j})
}

// ---------- E7 ----------
fn csv_field(s: &str) -> String {
    if s.contains(',') || s.contains('"') || s.contains('\n') || s.contains('\r') { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}
fn export_audit(st: &mut State, c: &Ctx) -> R {
    if st.tenant_settings.get("auditLogEnabled").and_then(|x| x.as_bool()) != Some(true) { return Err(forbid("the audit log feature is not enabled for this account")); }
    if !c.me.audit_log || c.me.scoped.is_some() { return Err(forbid("the AuditLogManage permission is required")); }
    let parse_b = |n: &str| -> Result<Option<(i64, bool)>, Response> { match c.q(n) { None | Some("") => Ok(None), Some(v) => parse_iso(v).map(Some).ok_or_else(|| bad(format!("query parameter '{}' must be an ISO 8601 date", n))) } };
    let start = parse_b("start")?.map(|x| x.0);
    let end = parse_b("end")?.map(|(ms, date)| if date { ms + 86_400_000 - 1 } else { ms });
    if let (Some(s), Some(e)) = (start, end) { if e < s { return Err(bad("'end' must not be before 'start'")); } }
    let search = c.q("search").map(|s| s.to_lowercase()).filter(|s| !s.is_empty());
    let ev = c.q("eventName").map(|s| s.to_lowercase()).filter(|s| !s.is_empty());
    let ue = c.q("userEmail").map(|s| s.to_lowercase()).filter(|s| !s.is_empty());
    let mut rows: Vec<&Audit> = st.audit.iter().filter(|a| {
        start.map(|s| a.at >= s).unwrap_or(true) && end.map(|e| a.at <= e).unwrap_or(true)
            && ev.as_ref().map(|e| a.event.to_lowercase() == *e).unwrap_or(true)
            && ue.as_ref().map(|u| a.email.to_lowercase() == *u).unwrap_or(true)
            && search.as_ref().map(|s| format!("{} {} {}", a.event, a.email, a.attrs.dump()).to_lowercase().contains(s.as_str())
                || a.attrs.dump().to_lowercase().contains(s.as_str())).unwrap_or(true)
    }).collect();
    rows.sort_by_key(|a| (a.at, a.id));
    let mut out = String::from("timestamp,eventName,userEmail,deploymentId,deploymentName,ipAddress,attributes\r\n");
    for a in &rows {
        let dn = st.dep(&a.deployment).map(|d| d.name.clone()).unwrap_or_default();
        let fields = [iso(a.at), a.event.clone(), a.email.clone(), a.deployment.clone(), dn, a.ip.clone(), a.attrs.dump().replace("\\/", "/")];
        out.push_str(&fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    let n = rows.len();
    let email = c.me.email.clone();
    st.audit("Audit log exported", &email, "", obj! {"rows" => n});
    let mut r = Response::new(200, "text/csv; charset=utf-8", out.into_bytes())
        .header("Content-Disposition", "attachment; filename=audit-log.csv").header("X-Audit-Row-Count", &n.to_string());
    r.chunked = true;
    Ok(r)
}

// ---------- E13 ----------
pub fn is_secret(name: &str) -> bool { let u = name.to_ascii_uppercase(); ["PASS", "SECRET", "TOKEN", "KEY", "CREDENTIAL"].iter().any(|w| u.contains(w)) }
fn env_vars_json(d: &Deployment) -> Vec<Json> {
    let mut v: Vec<&(String, String)> = d.env_vars.iter().collect();
    v.sort_by(|a, b| a.0.to_lowercase().cmp(&b.0.to_lowercase()).then(a.0.cmp(&b.0)));
    v.into_iter().map(|(n, val)| obj! {"name" => n.clone(), "value" => if is_secret(n) { "[ENCRYPTED]".to_string() } else { val.clone() }}).collect()
}
fn list_env_vars(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    let all = env_vars_json(d);
    cursor_list(c, all, CURSOR_DEFAULT)
}
fn valid_var_name(n: &str) -> bool {
    let b = n.as_bytes();
    !b.is_empty() && (b[0].is_ascii_alphabetic() || b[0] == b'_') && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_') && b.len() <= 200
}
fn set_env_vars(st: &mut State, c: &Ctx) -> R {
    dep_check(st, &c.me, c.p(0))?;
    need_role(&c.me, Role::Developer)?;
    let b = c.body(false)?;
    let arr = match b.get("env_variables") { Some(Json::Arr(a)) => a.clone(), Some(_) => return Err(bad("'env_variables' must be an array")), None => return Err(bad("'env_variables' is required")) };
    if arr.len() > 500 { return Err(bad("at most 500 variables per request")); }
    let mut vals = vec![];
    for (i, e) in arr.iter().enumerate() {
        if !e.is_obj() { return Err(bad(format!("env_variables[{}] must be an object", i))); }
        let n = f_str(e, "name", true).map_err(|_| bad(format!("env_variables[{}].name is required and must be a string", i)))?.unwrap();
        let v = f_str(e, "value", true).map_err(|_| bad(format!("env_variables[{}].value is required and must be a string", i)))?.unwrap();
        if v == "[ENCRYPTED]" { return Err(err(422, format!("env_variables[{}].value is the masked placeholder; send the real value", i))); }
        if v.len() > 65536 { return Err(bad(format!("env_variables[{}].value is too long", i))); }
        let d = st.dep(c.p(0)).unwrap();
        if !d.env_vars.iter().any(|(k, _)| *k == n) && !valid_var_name(&n) { return Err(err(422, format!("env_variables[{}].name must match ^[A-Za-z_][A-Za-z0-9_]*$", i))); }
        vals.push((n, v));
    }
    let d = st.dep_mut(c.p(0)).unwrap();
    for (n, v) in &vals { match d.env_vars.iter_mut().find(|(k, _)| k == n) { Some(e) => e.1 = v.clone(), None => d.env_vars.push((n.clone(), v.clone())) } }
    let all = env_vars_json(d);
    let id = d.id.clone();
    st.audit("Env vars updated", &c.me.email, &id, obj! {"names" => Json::Arr(vals.iter().map(|(n, _)| Json::from(n.clone())).collect()), "values" => "[HIDDEN]"});
    let pg = page_of(all.len(), 0, CURSOR_DEFAULT);
    ok(list_body(all[pg.start..pg.end].to_vec(), &pg, all.len()))
}

use crate::api::*;
use crate::http::Response;
use crate::json::{self, Json};
use crate::obj;
use crate::state::*;
use crate::util::*;
use crate::workspace as w;

// ---------- E3: metadata token ----------
pub fn verify_jwt(st: &State, tok: &str) -> Option<i64> {
    let parts: Vec<&str> = tok.split('.').collect();
    if parts.len() != 3 { return None; }
    let sig = b64url(&hmac_sha256(&st.jwt_secret, format!("{}.{}", parts[0], parts[1]).as_bytes()));
    if sig != parts[2] { return None; }
    // decode payload
    let dec = b64url_decode(parts[1])?;
    let p = json::parse(std::str::from_utf8(&dec).ok()?).ok()?;
    p.get("exp").and_then(|x| x.as_i64())
}
fn b64url_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = vec![]; let mut buf = 0u32; let mut bits = 0;
    for ch in s.bytes() {
        let v = match ch { b'A'..=b'Z' => ch - b'A', b'a'..=b'z' => ch - b'a' + 26, b'0'..=b'9' => ch - b'0' + 52, b'-' => 62, b'_' => 63, _ => return None } as u32;
        buf = (buf << 6) | v; bits += 6;
        if bits >= 8 { bits -= 8; out.push((buf >> bits) as u8); buf &= (1 << bits) - 1; }
    }
    Some(out)
}
pub fn meta_token(st: &mut State, c: &Ctx) -> R {
    let d = dep_check(st, &c.me, c.p(0))?;
    need_role(&c.me, Role::Developer)?;
    let envs = env_list(st, d);
    if !envs.iter().any(|(j, _)| j.get("id").and_then(|x| x.as_str()) == Some(c.p(1))) { return Err(nf("environment")); }
    let b = c.body(false)?;
    let sc = match b.get("security_context") { Some(v) if v.is_obj() => v.clone(), Some(v) => return Err(bad(format!("'security_context' must be an object, got {}", v.type_name()))), None => return Err(bad("'security_context' is required")) };
    let exp_in = match b.get("expires_in") {
        None | Some(Json::Null) => 86400.0,
        Some(v) => match v.as_f64() { Some(x) if x > 0.0 && x <= 7_776_000.0 => x, Some(_) => return Err(bad("'expires_in' must be > 0 and <= 7776000 seconds")), None => return Err(bad("'expires_in' must be a number")) },
    };
    let now = now_ms();
    let exp_ms = now + (exp_in * 1000.0).round() as i64;
    let header = b64url(br#"{"alg":"HS256","typ":"JWT"}"#);
    let payload = obj! {"iss" => "platform-api", "sub" => format!("meta-sync:{}", c.me.id), "aud" => "metadata", "deploymentId" => d.id.clone(), "environmentId" => c.p(1),
        "securityContext" => sc.clone(), "scope" => "meta", "iat" => now / 1000, "exp" => (exp_ms + 999) / 1000};
    let p = b64url(payload.dump().as_bytes());
    let sig = b64url(&hmac_sha256(&st.jwt_secret, format!("{}.{}", header, p).as_bytes()));
    ok(obj! {"data" => obj!{"token" => format!("{}.{}.{}", header, p, sig), "created_at" => iso(now), "expires_at" => iso(exp_ms), "security_context" => sc, "scopes" => Json::Arr(vec!["meta".into()])}})
}

// ---------- generic collections ----------
#[derive(Clone, Copy)]
pub enum FK { Str, Int, Bool, Obj, Arr, StrArr, IntArr, Enum(&'static [&'static str]), EnumArr(&'static [&'static str]), Any }
pub struct Coll { pub name: &'static str, pub fields: &'static [(&'static str, FK, bool)], pub secrets: &'static [&'static str], pub search: &'static [&'static str] }

pub const OAUTH: Coll = Coll { name: "oauth-integrations", fields: &[("name", FK::Str, true), ("provider", FK::Enum(&["snowflake", "databricks", "bigquery", "google", "custom"]), true), ("clientId", FK::Str, true), ("clientSecret", FK::Str, false), ("authorizeUrl", FK::Str, false), ("tokenUrl", FK::Str, false), ("scopes", FK::StrArr, false)], secrets: &["clientSecret"], search: &["name"] };
pub const UTOKENS: Coll = Coll { name: "user-oauth-tokens", fields: &[("integrationId", FK::Int, true), ("userId", FK::Int, true), ("accessToken", FK::Str, true), ("refreshToken", FK::Str, false), ("expiresAt", FK::Str, false)], secrets: &["accessToken", "refreshToken"], search: &[] };
pub const OIDC: Coll = Coll { name: "oidc-token-configs", fields: &[("name", FK::Str, true), ("issuer", FK::Str, true), ("audience", FK::Str, false), ("claimsMapping", FK::Obj, false)], secrets: &[], search: &["name"] };
pub const GROUPS: Coll = Coll { name: "groups", fields: &[("name", FK::Str, true), ("description", FK::Str, false), ("userIds", FK::IntArr, false)], secrets: &[], search: &["name", "description"] };
pub const POLICIES: Coll = Coll { name: "policies", fields: &[("principalType", FK::Enum(&["user", "group"]), true), ("principalId", FK::Int, true), ("resourceType", FK::Enum(&["account", "deployment", "folder", "workbook"]), true), ("resourceId", FK::Any, false), ("actions", FK::EnumArr(&["Read", "Edit", "Manage", "SecretsManage", "DownloadData", "AuditLogManage"]), true)], secrets: &[], search: &[] };
pub const UATTRS: Coll = Coll { name: "user-attributes", fields: &[("name", FK::Str, true), ("type", FK::Enum(&["string", "number", "boolean", "string_array", "number_array"]), true), ("description", FK::Str, false)], secrets: &[], search: &["name"] };
pub const TENANTS: Coll = Coll { name: "embed-tenants", fields: &[("name", FK::Str, true), ("externalId", FK::Str, false)], secrets: &[], search: &["name", "externalId"] };
pub const EUSERS: Coll = Coll { name: "embed-users", fields: &[("email", FK::Str, true), ("externalId", FK::Str, false), ("name", FK::Str, false)], secrets: &[], search: &["email", "name"] };
pub const EGROUPS: Coll = Coll { name: "embed-groups", fields: &[("name", FK::Str, true), ("description", FK::Str, false)], secrets: &[], search: &["name"] };
pub const NOTIFS: Coll = Coll { name: "notifications", fields: &[("name", FK::Str, true), ("workbookId", FK::Int, true), ("schedule", FK::Str, true), ("timezone", FK::Str, false), ("timeGrain", FK::Enum(&["hour", "day", "week", "month", "quarter", "year"]), false), ("recipients", FK::StrArr, false), ("filters", FK::Arr, false), ("enabled", FK::Bool, false)], secrets: &[], search: &["name"] };

fn check_field(k: &str, kind: FK, v: &Json) -> Result<(), Response> {
    let okk = match kind {
        FK::Str => v.as_str().map(|s| !s.trim().is_empty() && s.len() <= 2000).unwrap_or(false),
        FK::Int => v.as_i64().map(|n| n >= 0).unwrap_or(false),
        FK::Bool => v.as_bool().is_some(),
        FK::Obj => v.is_obj(),
        FK::Arr => v.as_arr().map(|a| a.len() <= 1000).unwrap_or(false),
        FK::StrArr => v.as_arr().map(|a| a.len() <= 1000 && a.iter().all(|x| x.as_str().is_some())).unwrap_or(false),
        FK::IntArr => v.as_arr().map(|a| a.len() <= 1000 && a.iter().all(|x| x.as_i64().is_some())).unwrap_or(false),
        FK::Enum(e) => v.as_str().map(|s| e.contains(&s)).unwrap_or(false),
        FK::EnumArr(e) => v.as_arr().map(|a| !a.is_empty() && a.iter().all(|x| x.as_str().map(|s| e.contains(&s)).unwrap_or(false))).unwrap_or(false),
        FK::Any => true,
    };
    if okk { return Ok(()); }
    let what = match kind { FK::Str => "a non-empty string".to_string(), FK::Int => "a non-negative integer".into(), FK::Bool => "a boolean".into(), FK::Obj => "an object".into(),
        FK::Arr => "an array".into(), FK::StrArr => "an array of strings".into(), FK::IntArr => "an array of integers".into(), FK::Enum(e) => format!("one of {}", e.join(", ")),
        FK::EnumArr(e) => format!("a non-empty array of {}", e.join(", ")), FK::Any => "any".into() };
    Err(bad(format!("'{}' must be {}", k, what)))
}
fn validate_coll(coll: &Coll, b: &Json, create: bool) -> Result<Json, Response> {
    let mut out = Json::obj();
    for (k, kind, req) in coll.fields {
        match b.get(k) {
            None => { if create && *req { return Err(bad(format!("'{}' is required", k))); } }
            Some(Json::Null) => { if *req { return Err(bad(format!("'{}' must not be null", k))); } out.set(k, Json::Null); }
            Some(v) => { check_field(k, *kind, v)?; out.set(k, v.clone()); }
        }
    }
    Ok(out)
}
fn coll_view(coll: &Coll, v: &Json) -> Json {
    let mut o = v.clone();
    for s in coll.secrets { let set = v.get(s).map(|x| !x.is_null()).unwrap_or(false); o.remove(s); o.set(&format!("{}Set", s), Json::Bool(set)); }
    o
}
fn coll_items<'a>(st: &'a State, key: &str) -> Vec<&'a Json> { st.colls.get(key).map(|v| v.iter().collect()).unwrap_or_default() }
fn find_in(st: &State, key: &str, id: &str) -> Option<usize> {
    let id: i64 = if id.bytes().all(|c| c.is_ascii_digit()) && !id.is_empty() && id.len() < 16 { id.parse().ok()? } else { return None };
    st.colls.get(key)?.iter().position(|x| x.get("id").and_then(|i| i.as_i64()) == Some(id))
}
enum Act { List, Create, Get, Update, Delete }
fn coll_do(st: &mut State, c: &Ctx, coll: &Coll, key: &str, act: Act, id_param: Option<usize>, loc: &str, extra: Option<&dyn Fn(&State, &Json) -> Result<(), Response>>) -> R {
    match act {
        Act::List => {
            let search = c.q("search").map(|s| s.to_lowercase());
            let all: Vec<Json> = coll_items(st, key).into_iter().filter(|v| search.as_ref().map(|s| coll.search.iter().any(|f| v.get(f).and_then(|x| x.as_str()).map(|x| x.to_lowercase().contains(s.as_str())).unwrap_or(false))).unwrap_or(true)).map(|v| coll_view(coll, v)).collect();
            cursor_list(c, all, CURSOR_DEFAULT)
        }
        Act::Get => { let i = find_in(st, key, c.p(id_param.unwrap())).ok_or_else(|| nf(coll.name.trim_end_matches('s')))?; ok(coll_view(coll, &st.colls[key][i])) }
        Act::Create => {
            let b = c.body(false)?;
            let mut v = validate_coll(coll, &b, true)?;
            if let Some(f) = extra { f(st, &v)?; }
            let id = st.next("generic"); let now = iso(now_ms());
            let mut o = obj! {"id" => id};
            if let Json::Obj(fields) = &mut v { for (k, x) in fields.drain(..) { o.set(&k, x); } }
            o.set("createdAt", now.clone().into()); o.set("updatedAt", now.into());
            st.colls.entry(key.to_string()).or_default().push(o.clone());
            created(coll_view(coll, &o), format!("{}/{}", loc, id))
        }
        Act::Update => {
            let i = find_in(st, key, c.p(id_param.unwrap())).ok_or_else(|| nf(coll.name.trim_end_matches('s')))?;
            let b = c.body(false)?;
            let v = validate_coll(coll, &b, false)?;
            let mut merged = st.colls[key][i].clone();
            if let Json::Obj(fields) = v { for (k, x) in fields { merged.set(&k, x); } }
            if let Some(f) = extra { f(st, &merged)?; }
            merged.set("updatedAt", iso(now_ms()).into());
            st.colls.get_mut(key).unwrap()[i] = merged.clone();
            ok(coll_view(coll, &merged))
        }
        Act::Delete => {
            let i = find_in(st, key, c.p(id_param.unwrap())).ok_or_else(|| nf(coll.name.trim_end_matches('s')))?;
            let v = st.colls.get_mut(key).unwrap().remove(i);
            ok(obj! {"id" => v.get("id").cloned().unwrap_or(Json::Null), "deleted" => true})
        }
    }
}
fn act_of(m: &str, has_id: bool) -> Act {
    match (m, has_id) { ("GET", false) => Act::List, ("POST", false) => Act::Create, ("GET", true) => Act::Get, ("DELETE", true) => Act::Delete, _ => Act::Update }
}

// ---------- users ----------
fn user_json(st: &State, u: &User) -> Json {
    let mut perms = vec![]; if u.audit_log { perms.push(Json::from("AuditLogManage")); } if u.role == Role::Admin { perms.push("SecretsManage".into()); perms.push("DownloadData".into()); }
    let groups: Vec<Json> = coll_items(st, "groups").into_iter().filter(|g| g.get("userIds").and_then(|x| x.as_arr()).map(|a| a.iter().any(|i| i.as_i64() == Some(u.id))).unwrap_or(false)).map(|g| g.get("id").cloned().unwrap()).collect();
    obj! {"id" => u.id, "email" => u.email.clone(), "firstName" => u.first_name.clone(), "lastName" => u.last_name.clone(), "role" => u.role.name(),
        "status" => if u.active { "active" } else { "deactivated" }, "picture" => u.picture.clone(), "permissions" => Json::Arr(perms), "groupIds" => Json::Arr(groups),
        "creatorMode" => u.creator_mode, "createdAt" => iso(u.created_at), "updatedAt" => iso(u.updated_at)}
}
fn find_user(st: &State, id: &str) -> Result<usize, Response> {
    let id: i64 = if !id.is_empty() && id.len() < 16 && id.bytes().all(|c| c.is_ascii_digit()) { id.parse().unwrap() } else { return Err(nf("user")) };
    st.users.iter().position(|u| u.id == id && !u.deleted).ok_or_else(|| nf("user"))
}
fn users(st: &mut State, c: &Ctx) -> R {
    if c.me.scoped.is_some() { return Err(forbid("deployment-scoped API keys cannot read account users")); }
    match (c.req.method.as_str(), c.params.len()) {
        ("GET", 0) => {
            let s = c.q("search").map(|s| s.to_lowercase());
            let all: Vec<Json> = st.users.iter().filter(|u| !u.deleted && s.as_ref().map(|s| format!("{} {} {}", u.email, u.first_name.clone().unwrap_or_default(), u.last_name.clone().unwrap_or_default()).to_lowercase().contains(s.as_str())).unwrap_or(true)).map(|u| user_json(st, u)).collect();
            cursor_list(c, all, CURSOR_DEFAULT)
        }
        ("GET", 1) => { let i = find_user(st, c.p(0))?; ok(user_json(st, &st.users[i])) }
        ("POST", 0) if c.op.id != "usersBulk" => {
            account_admin(&c.me)?;
            let b = c.body(false)?;
            let email = f_nonempty(&b, "email", true, 254)?.unwrap().trim().to_lowercase();
            let at = email.find('@');
            if at.map(|i| i == 0 || i == email.len() - 1 || email[i + 1..].contains('@')).unwrap_or(true) || email.contains(' ') { return Err(bad("'email' must be a valid email address")); }
            let role = match f_str(&b, "role", false)? { Some(r) => Role::parse(&r).ok_or_else(|| bad("'role' must be one of Viewer, AIBIUser, Developer, Admin"))?, None => Role::Viewer };
            let first = f_str(&b, "firstName", false)?; let last = f_str(&b, "lastName", false)?;
            if st.users.iter().any(|u| !u.deleted && u.email == email) { return Err(err(409, "a user with this email already exists")); }
            let id = st.next("user"); let now = now_ms();
            let u = User { id, email: email.clone(), first_name: first, last_name: last, role, active: true, api_key: format!("plat_{}", hex(&random_bytes(20))), audit_log: false, creator_mode: false, scoped: None, picture: None, created_at: now, updated_at: now, deleted: false };
            st.users.push(u.clone());
            st.audit("User invited", &c.me.email, "", obj! {"email" => email, "role" => role.name()});
            created(user_json(st, &u), format!("/api/v1/users/{}", id))
        }
        ("PUT", 1) => {
            account_admin(&c.me)?;
            let i = find_user(st, c.p(0))?;
            let b = c.body(false)?;
            let role = match f_str(&b, "role", false)? { Some(r) => Some(Role::parse(&r).ok_or_else(|| bad("'role' must be one of Viewer, AIBIUser, Developer, Admin"))?), None => None };
            let first = f_str(&b, "firstName", false)?; let last = f_str(&b, "lastName", false)?;
            let active = f_bool(&b, "active", false)?;
            if st.users[i].id == c.me.id && (role.map(|r| r != Role::Admin).unwrap_or(false) || active == Some(false)) { return Err(bad("you cannot demote or deactivate yourself")); }
            let u = &mut st.users[i];
            if let Some(r) = role { u.role = r; } if b.has("firstName") { u.first_name = first; } if b.has("lastName") { u.last_name = last; } if let Some(a) = active { u.active = a; }
            u.updated_at = now_ms();
            let u = u.clone();
            ok(user_json(st, &u))
        }
        _ => {
            // bulk
            account_admin(&c.me)?;
            let b = c.body(false)?;
            let action = f_enum(&b, "action", true, &["DEACTIVATE", "ACTIVATE", "DELETE"])?.unwrap();
            let ids = match b.get("userIds") { Some(Json::Arr(a)) if !a.is_empty() && a.len() <= 100 => a.clone(), Some(Json::Arr(_)) => return Err(bad("'userIds' must hold 1 to 100 ids")), _ => return Err(bad("'userIds' is required (array of integers)")) };
            let mut okv = vec![]; let mut failed = vec![];
            for v in ids {
                let id = v.as_i64().ok_or_else(|| bad("'userIds' must contain integers"))?;
                if okv.contains(&Json::I(id)) { continue; }
                match st.users.iter().position(|u| u.id == id && !u.deleted) {
                    None => failed.push(obj! {"userId" => id, "error" => obj!{"message" => "user not found", "status" => 404}}),
                    Some(_) if id == c.me.id && action != "ACTIVATE" => failed.push(obj! {"userId" => id, "error" => obj!{"message" => "you cannot deactivate or delete yourself", "status" => 400}}),
                    Some(i) => { let u = &mut st.users[i]; match action.as_str() { "DEACTIVATE" => u.active = false, "ACTIVATE" => u.active = true, _ => u.deleted = true } u.updated_at = now_ms(); okv.push(Json::I(id)); }
                }
            }
            ok(obj! {"action" => action, "succeeded" => Json::Arr(okv), "failed" => Json::Arr(failed)})
        }
    }
}

fn attr_values(st: &mut State, c: &Ctx) -> R {
    if c.me.scoped.is_some() { return Err(forbid("deployment-scoped API keys cannot read account users")); }
    let i = find_user(st, c.p(0))?;
    let uid = st.users[i].id;
    let attrs: Vec<Json> = coll_items(st, "user-attributes").into_iter().cloned().collect();
    let view = |st: &State| {
        let vals = st.attr_values.get(&uid).cloned().unwrap_or_default();
        let items: Vec<Json> = vals.iter().filter_map(|(aid, v)| attrs.iter().find(|a| a.get("id").and_then(|x| x.as_i64()) == Some(*aid)).map(|a| obj! {"attributeId" => *aid, "name" => a.get("name").cloned(), "type" => a.get("type").cloned(), "value" => v.clone()})).collect();
        obj! {"userId" => uid, "values" => Json::Arr(items)}
    };
    if c.req.method == "GET" { return ok(view(st)); }
    account_admin(&c.me)?;
    let b = c.body(false)?;
    let vals = match b.get("values") { Some(Json::Arr(a)) => a.clone(), _ => return Err(bad("'values' is required (array of {attributeId, value})")) };
    let mut changes = vec![];
    for (i, v) in vals.iter().enumerate() {
        if !v.is_obj() { return Err(bad(format!("values[{}] must be an object", i))); }
        let aid = f_int(v, "attributeId", true, 1).map_err(|_| bad(format!("values[{}].attributeId must be an integer", i)))?.unwrap();
        let a = attrs.iter().find(|a| a.get("id").and_then(|x| x.as_i64()) == Some(aid)).ok_or_else(|| nf("user attribute"))?;
        let val = v.get("value").cloned().unwrap_or(Json::Null);
        let t = a.get("type").and_then(|x| x.as_str()).unwrap_or("string");
        let good = val.is_null() || match t { "string" => val.as_str().is_some(), "number" => val.as_f64().is_some(), "boolean" => val.as_bool().is_some(),
            "string_array" => val.as_arr().map(|x| x.iter().all(|y| y.as_str().is_some())).unwrap_or(false), _ => val.as_arr().map(|x| x.iter().all(|y| y.as_f64().is_some())).unwrap_or(false) };
        if !good { return Err(bad(format!("values[{}].value must match the attribute type '{}'", i, t))); }
        changes.push((aid, val));
    }
    let e = st.attr_values.entry(uid).or_default();
    for (aid, val) in changes { e.retain(|x| x.0 != aid); if !val.is_null() { e.push((aid, val)); } }
    ok(view(st))
}

fn tenant_settings(st: &mut State, c: &Ctx) -> R {
    if c.req.method == "GET" { return ok(st.tenant_settings.clone()); }
    account_admin(&c.me)?;
    let b = c.body(false)?;
    let name = f_nonempty(&b, "name", false, 200)?;
    let role = match f_str(&b, "defaultRole", false)? { Some(r) => Some(Role::parse(&r).ok_or_else(|| bad("'defaultRole' must be one of Viewer, AIBIUser, Developer, Admin"))?), None => None };
    let sso = f_bool(&b, "ssoEnforced", false)?;
    let timeout = f_int(&b, "sessionTimeoutMinutes", false, 5)?;
    if timeout.map(|t| t > 43200).unwrap_or(false) { return Err(bad("'sessionTimeoutMinutes' must be between 5 and 43200")); }
    if let Some(v) = b.get("allowedEmailDomains") { check_field("allowedEmailDomains", FK::StrArr, v)?; }
    let audit = f_bool(&b, "auditLogEnabled", false)?;
    let t = &mut st.tenant_settings;
    if let Some(x) = name { t.set("name", x.into()); } if let Some(r) = role { t.set("defaultRole", r.name().into()); } if let Some(x) = sso { t.set("ssoEnforced", x.into()); }
    if let Some(x) = timeout { t.set("sessionTimeoutMinutes", x.into()); } if let Some(v) = b.get("allowedEmailDomains") { t.set("allowedEmailDomains", v.clone()); }
    if let Some(x) = audit { t.set("auditLogEnabled", x.into()); }
    ok(st.tenant_settings.clone())
}

// ---------- deployment-level E14 ----------
fn branch_of<'a>(d: &'a Deployment, name: Option<&str>) -> Result<&'a Branch, Response> {
    match name { None | Some("") => Ok(d.branches.iter().find(|b| b.kind == BranchKind::Production).unwrap()), Some(n) => d.branches.iter().find(|b| b.name == n).ok_or_else(|| nf("branch")) }
}
fn build_state(b: &Branch) -> (&'static str, Option<i64>) {
    if let Some(t) = b.build.strip_prefix("building:") { let t: i64 = t.parse().unwrap_or(0); if now_ms() - t < 1500 { return ("building", Some(t)); } return ("deployed", Some(t + 1500)); }
    if b.build == "failed" { return ("failed", None); }
    ("deployed", None)
}
fn valid_path(p: &str) -> bool {
    !p.is_empty() && p.len() <= 255 && !p.starts_with('/') && !p.contains('\\') && !p.contains('\0') && p.split('/').all(|s| !s.is_empty() && s != "." && s != "..")
}
fn file_json(p: &str, content: &str, with_content: bool) -> Json {
    let mut j = obj! {"path" => p, "size" => content.len(), "hash" => hex(&sha256(content.as_bytes()))};
    if with_content { j.set("content", content.into()); }
    j
}
fn validate_files(files: &[(String, String)]) -> Vec<Json> {
    let mut errs = vec![];
    for (p, content) in files {
        if p.ends_with(".yml") || p.ends_with(".yaml") {
            for (i, l) in content.lines().enumerate() { if l.contains('\t') { errs.push(obj! {"file" => p.clone(), "line" => i + 1, "message" => "tab characters are not allowed in YAML indentation"}); } }
            if p.starts_with("model/") && !content.trim_start().starts_with("cubes:") && !content.trim_start().starts_with("views:") { errs.push(obj! {"file" => p.clone(), "line" => 1, "message" => "a model file must start with 'cubes:' or 'views:'"}); }
        } else if p.ends_with(".js") {
            let mut depth = 0i64; for ch in content.chars() { match ch { '{' | '(' | '[' => depth += 1, '}' | ')' | ']' => depth -= 1, _ => {} } if depth < 0 { break; } }
            if depth != 0 { errs.push(obj! {"file" => p.clone(), "line" => content.lines().count().max(1), "message" => "unbalanced brackets"}); }
        }
    }
    errs
}
fn dm_branch_mut<'a>(st: &'a mut State, dep: &str, name: Option<&str>) -> Result<&'a mut Branch, Response> {
    let d = st.dep_mut(dep).unwrap();
    let b = match name { None | Some("") => d.branches.iter_mut().find(|b| b.kind == BranchKind::Production).unwrap(), Some(n) => d.branches.iter_mut().find(|b| b.name == n).ok_or_else(|| nf("branch"))? };
    Ok(b)
}
fn require_dev(b: &Branch) -> Result<(), Response> {
    if !b.dev_mode { return Err(forbid(format!("branch '{}' is not in dev mode; data-model files can only be written on dev-mode branches", b.name))); }
    Ok(())
}
fn job_json(dep: &str, j: &DbtJob) -> Json {
    let now = now_ms();
    let (status, started, finished) = if let Some(cx) = j.cancelled_at { ("cancelled", if cx - j.created_at >= 300 { Some(j.created_at + 300) } else { None }, Some(cx)) }
        else if now - j.created_at < 300 { ("queued", None, None) } else if now - j.created_at < 1200 { ("running", Some(j.created_at + 300), None) }
        else { (if j.branch.contains("fail") { "failed" } else { "succeeded" }, Some(j.created_at + 300), Some(j.created_at + 1200)) };
    obj! {"id" => j.id, "deploymentId" => dep, "status" => status, "trigger" => j.trigger.clone(), "branchName" => j.branch.clone(), "ref" => j.git_ref.clone(),
        "createdAt" => iso(j.created_at), "startedAt" => started.map(iso), "finishedAt" => finished.map(iso), "createdBy" => j.by}
}
fn find_job(d: &Deployment, id: &str) -> Result<usize, Response> {
    let id: i64 = if !id.is_empty() && id.len() < 16 && id.bytes().all(|c| c.is_ascii_digit()) { id.parse().unwrap() } else { return Err(nf("sync job")) };
    d.dbt_jobs.iter().position(|j| j.id == id).ok_or_else(|| nf("sync job"))
}
fn logs(st: &State, c: &Ctx, d: &Deployment) -> R {
    let src = c.q_enum("source", &["production", "dev"])?;
    let cont = c.q_enum("container", &["INIT", "MAIN", "vector", "api-proxy", "cube"])?;
    let mut all = vec![];
    let base = st.started - 3_600_000;
    for i in 0..40i64 {
        let s = if i % 4 == 3 { "dev" } else { "production" };
        let ct = ["INIT", "MAIN", "vector", "api-proxy", "cube"][(i % 5) as usize];
        if src.as_deref().map(|x| x != s).unwrap_or(false) || cont.as_deref().map(|x| x != ct).unwrap_or(false) { continue; }
        all.push(obj! {"timestamp" => iso(base + i * 61_000), "source" => s, "container" => ct, "level" => if i % 9 == 0 { "warn" } else { "info" },
            "message" => format!("[{}] {} line {} for deployment {}", ct, if i % 9 == 0 { "slow query" } else { "request served" }, i, d.id)});
    }
    cursor_list(c, all, CURSOR_DEFAULT)
}

fn bool_q_or_body(c: &Ctx, b: &Json, k: &str) -> Result<Option<String>, Response> { if let Some(v) = c.q(k) { return Ok(Some(v.to_string())); } f_str(b, k, false) }

pub fn dispatch14(st: &mut State, c: &Ctx) -> R {
    let id = c.op.id;
    let m = c.req.method.as_str();
    // account-level
    match id {
        "getAppConfig" => {
            return ok(obj! {"appTheme" => obj!{"primaryColor" => "#4F46E5", "mode" => "light", "logoUrl" => Json::Null}, "applyThemeGlobally" => false, "creatorMode" => c.me.creator_mode,
                "embedding" => obj!{"enabled" => true, "signedEmbedding" => true, "creatorMode" => c.me.creator_mode}, "sheetsUi" => obj!{"enabled" => true},
                "timezoneSettings" => obj!{"defaultTimezone" => "UTC", "allowUserOverride" => true}});
        }
        "listRegions" => {
            let all = vec![("aws", "us-east-1", "US East (N. Virginia)"), ("aws", "eu-central-1", "EU (Frankfurt)"), ("gcp", "us-central1", "Iowa"), ("gcp", "europe-west3", "Frankfurt"), ("cloud", "us-west-2", "Managed US West")]
                .into_iter().map(|(p, r, n)| obj! {"id" => format!("{}-{}", p, r), "cloudProvider" => p, "region" => r, "name" => n, "available" => true}).collect();
            return cursor_list(c, all, CURSOR_DEFAULT);
        }
        "createDeployment" => {
            account_admin(&c.me)?;
            let b = c.body(false)?;
            let name = f_nonempty(&b, "name", true, 100)?.unwrap();
            let cp = f_str(&b, "cloudProvider", false)?.map(|s| if ["hosted", "<hosted>", "managed"].contains(&s.as_str()) { "cloud".to_string() } else { s }).unwrap_or("cloud".into());
            if !["cloud", "aws", "gcp"].contains(&cp.as_str()) { return Err(bad("'cloudProvider' must be one of cloud, aws, gcp")); }
            let region = f_nonempty(&b, "region", false, 64)?.unwrap_or("us-east-1".into());
            let cm = f_str(&b, "creationMethod", false)?.map(|s| if ["hosted", "<hosted>", "managed"].contains(&s.as_str()) { "cloud".to_string() } else { s }).unwrap_or("cloud".into());
            if !["upload", "cloud", "github", "ssh"].contains(&cm.as_str()) { return Err(bad("'creationMethod' must be one of upload, cloud, github, ssh")); }
            let dm = f_enum(&b, "deployMode", false, &["git", "cli"])?.unwrap_or("git".into());
            let n = st.next("deployment");
            let did = format!("{}", 30553 + (n - 10) * 12);
            let now = now_ms();
            let env = st.new_env_id(); let h = st.new_hash(); let bid = st.next("branch") + 390;
            let mut d = st.dep("30517").cloned().unwrap_or_else(|| st.deployments[0].clone());
            d.id = did.clone(); d.name = name; d.created_at = now; d.updated_at = now; d.cloud_provider = cp; d.region = region; d.creation_method = cm; d.deploy_mode = dm;
            d.creation_step = 0; d.workbook_limit = None; d.members = None; d.env_vars = vec![]; d.github = Json::Null; d.folders = vec![]; d.workbooks = vec![]; d.reports = vec![];
            d.dashboards = vec![]; d.dbt_jobs = vec![]; d.uploads = vec![]; d.version = "1.7.20".into(); d.release_channel = "latest".into(); d.hold = false;
            d.template_vars = Json::obj(); d.launchpad_tabs = Json::Arr(vec![]); d.launchpad_group = Json::Null; d.template = "blank".into();
            d.branches = vec![Branch { id: bid, name: "main".into(), parent: None, last_hash: h, staging: false, kind: BranchKind::Production, owner: None, dev_mode: false, env_id: env, files: vec![], dirty: false, created_at: now, build: "deployed".into() }];
            let j = dep_full(&d);
            st.deployments.push(d);
            st.audit("Deployment created", &c.me.email, &did, obj! {"name" => j.get("name").cloned()});
            return created(j, format!("/api/v1/deployments/{}", did));
        }
        "usersCollection" | "userItem" | "usersBulk" => return users(st, c),
        "userAttributeValues" => return attr_values(st, c),
        "tenantSettings" => return tenant_settings(st, c),
        "githubStatus" | "githubInstallations" | "githubRepositories" | "githubBranches" => {
            if c.me.scoped.is_some() { return Err(forbid("deployment-scoped API keys cannot use account integrations")); }
            need_role(&c.me, Role::Developer)?;
            return match id {
                "githubStatus" => ok(obj! {"connected" => true, "account" => "acme", "installations" => 1, "appSlug" => "platform-app"}),
                "githubInstallations" => cursor_list(c, vec![obj! {"id" => 4401, "account" => "acme", "accountType" => "Organization", "repositorySelection" => "selected"}], CURSOR_DEFAULT),
                "githubRepositories" => {
                    if c.p(0) != "4401" { return Err(nf("installation")); }
                    cursor_list(c, ["sales-model", "finance-model", "sandbox"].iter().enumerate().map(|(i, r)| obj! {"id" => 9100 + i as i64, "owner" => "acme", "name" => *r, "fullName" => format!("acme/{}", r), "private" => i != 2, "defaultBranch" => "main"}).collect(), CURSOR_DEFAULT)
                }
                _ => {
                    if c.p(0) != "acme" || !["sales-model", "finance-model", "sandbox"].contains(&c.p(1)) { return Err(nf("repository")); }
                    cursor_list(c, ["main", "develop", "release/2025-q1"].iter().map(|b| obj! {"name" => *b, "sha" => hex(&sha256(format!("{}{}", c.p(1), b).as_bytes()))[..40].to_string(), "protected" => *b == "main"}).collect(), CURSOR_DEFAULT)
                }
            };
        }
        _ => {}
    }
    // generic account collections
    let acc: Option<&Coll> = match id { "oauthIntegrations" => Some(&OAUTH), "userOauthTokens" => Some(&UTOKENS), "oidcTokenConfigs" => Some(&OIDC), "groups" => Some(&GROUPS), "policies" => Some(&POLICIES), "userAttributes" => Some(&UATTRS), "embedTenants" => Some(&TENANTS), _ => None };
    if let Some(coll) = acc {
        if c.me.scoped.is_some() { return Err(forbid("deployment-scoped API keys cannot manage account resources")); }
        if m != "GET" || coll.name == "oauth-integrations" || coll.name == "user-oauth-tokens" { account_admin(&c.me)?; }
        let has_id = !c.params.is_empty();
        let loc = format!("/api/v1/{}", if coll.name == "user-attributes" { "user-attributes" } else { coll.name });
        let extra: Option<&dyn Fn(&State, &Json) -> Result<(), Response>> = match coll.name {
            "user-attributes" => Some(&|st: &State, v: &Json| { let n = v.get("name").and_then(|x| x.as_str()).unwrap_or(""); if coll_items(st, "user-attributes").iter().any(|a| a.get("name").and_then(|x| x.as_str()) == Some(n) && a.get("id") != v.get("id")) { Err(err(409, "an attribute with this name already exists")) } else { Ok(()) } }),
            "groups" => Some(&|st: &State, v: &Json| { if let Some(a) = v.get("userIds").and_then(|x| x.as_arr()) { for u in a { if st.user(u.as_i64().unwrap_or(-1)).is_none() { return Err(bad(format!("userIds: user {} does not exist", u.dump()))); } } } Ok(()) }),
            _ => None,
        };
        return coll_do(st, c, coll, coll.name, act_of(m, has_id), if has_id { Some(0) } else { None }, &loc, extra);
    }
    // embed tenant sub-collections
    if id == "embedUsers" || id == "embedGroups" || id == "embedMembers" {
        if c.me.scoped.is_some() { return Err(forbid("deployment-scoped API keys cannot manage account resources")); }
        if m != "GET" { account_admin(&c.me)?; }
        if find_in(st, "embed-tenants", c.p(0)).is_none() { return Err(nf("embed tenant")); }
        let tid = c.p(0).to_string();
        if id == "embedMembers" {
            let gkey = format!("embed-groups:{}", tid);
            if find_in(st, &gkey, c.p(1)).is_none() { return Err(nf("embed group")); }
            let mkey = format!("embed-members:{}", c.p(1));
            let ukey = format!("embed-users:{}", tid);
            return match (m, c.params.len()) {
                ("GET", _) => { let all = coll_items(st, &mkey).into_iter().cloned().collect(); cursor_list(c, all, CURSOR_DEFAULT) }
                ("POST", _) => {
                    let b = c.body(false)?;
                    let uid = f_int(&b, "userId", true, 1)?.unwrap();
                    if find_in(st, &ukey, &uid.to_string()).is_none() { return Err(nf("embed user")); }
                    if coll_items(st, &mkey).iter().any(|x| x.get("userId").and_then(|v| v.as_i64()) == Some(uid)) { return Err(err(409, "the user is already a member of this group")); }
                    let v = obj! {"userId" => uid, "addedAt" => iso(now_ms())};
                    st.colls.entry(mkey).or_default().push(v.clone());
                    created(v, format!("/api/v1/embed-tenants/{}/groups/{}/members/{}", tid, c.p(1), uid))
                }
                _ => {
                    let uid = c.p(2).parse::<i64>().map_err(|_| nf("group member"))?;
                    let list = st.colls.entry(mkey).or_default();
                    let before = list.len(); list.retain(|x| x.get("userId").and_then(|v| v.as_i64()) != Some(uid));
                    if list.len() == before { return Err(nf("group member")); }
                    ok(obj! {"id" => uid, "deleted" => true})
                }
            };
        }
        let coll = if id == "embedUsers" { &EUSERS } else { &EGROUPS };
        let key = format!("{}:{}", coll.name, tid);
        let has_id = c.params.len() > 1;
        let loc = format!("/api/v1/embed-tenants/{}/{}", tid, if id == "embedUsers" { "users" } else { "groups" });
        return coll_do(st, c, coll, &key, act_of(m, has_id), if has_id { Some(1) } else { None }, &loc, None);
    }
    if id == "embedTenantDelete" {
        // handled by generic path above via embedTenants
    }
    // ---- embed dashboards ----
    match id {
        "patchEmbedDashboard" => return w::patch_embed_dashboard(st, c),
        "embedPythonRun" => return w::python_run(st, c),
        _ => {}
    }
    // ---- everything below is deployment-scoped ----
    let dep = c.p(0).to_string();
    let d = dep_check(st, &c.me, &dep)?;
    match id {
        "getDeploymentSettings" => {
            let mut j = dep_full(d);
            j.set("environmentVariables", Json::Arr(d.env_vars.iter().filter(|(n, _)| !is_secret(n)).map(|(n, v)| obj! {"name" => n.clone(), "value" => v.clone()}).collect()));
            j.set("secretEnvironmentVariableCount", d.env_vars.iter().filter(|(n, _)| is_secret(n)).count().into());
            j.set("sqlApi", obj! {"enabled" => true, "port" => 5432}); j.set("github", d.github.clone()); j.set("workbookLimit", d.workbook_limit.into());
            ok(j)
        }
        "deleteDeployment" => {
            account_admin(&c.me)?;
            st.deployments.retain(|x| x.id != dep);
            st.audit("Deployment deleted", &c.me.email, &dep, obj! {});
            ok(obj! {"id" => dep, "deleted" => true})
        }
        "getBuildStatus" => {
            let b = branch_of(d, c.q("branchName"))?;
            let (s, t) = build_state(b);
            ok(obj! {"deploymentId" => dep.clone(), "branchName" => b.name.clone(), "status" => s, "lastHash" => b.last_hash.clone(), "updatedAt" => iso(t.unwrap_or(b.created_at)),
                "states" => Json::Arr(vec!["building".into(), "deployed".into(), "failed".into()])})
        }
        "getLogs" => logs(st, c, d),
        "listPods" => {
            let mut all = vec![];
            for (i, (n, src)) in [("api-0", "production"), ("api-1", "production"), ("refresh-worker-0", "production"), ("cubestore-router-0", "production"), ("dev-0", "dev")].iter().enumerate() {
                all.push(obj! {"name" => format!("{}-{}", slugify(&d.name), n), "source" => *src, "status" => "Running", "ready" => true, "restarts" => (i % 2) as i64,
                    "containers" => Json::Arr(vec!["INIT".into(), "MAIN".into(), "vector".into(), "api-proxy".into(), "cube".into()]), "startedAt" => iso(st.started - 600_000 * (i as i64 + 1))});
            }
            cursor_list(c, all, CURSOR_DEFAULT)
        }
        "advanceCreationStep" | "resetCreationStep" => {
            need_role(&c.me, Role::Developer)?;
            let dm = st.dep_mut(&dep).unwrap();
            if id == "resetCreationStep" { dm.creation_step = 0; } else {
                if dm.creation_step >= STEPS.len() - 1 { return Err(err(422, "the setup wizard is already complete")); }
                dm.creation_step += 1;
            }
            ok(obj! {"deploymentId" => dep.clone(), "creationStep" => STEPS[dm.creation_step], "stepIndex" => dm.creation_step, "steps" => Json::Arr(STEPS.iter().map(|s| Json::from(*s)).collect()), "completed" => dm.creation_step == STEPS.len() - 1})
        }
        "listFolders" => w::list_folders(st, c),
        "createFolder" => w::create_folder(st, c),
        "deleteFolder" => w::delete_folder(st, c),
        "listReports" => w::list_reports(st, c),
        "upsertReportByPublicId" => w::upsert_report(st, c),
        "connectWorkbook" | "disconnectWorkbook" => w::connect_workbook(st, c),
        "refreshReport" => w::refresh_report(st, c),
        "getEmbedAccess" | "setEmbedAccess" => w::embed_access(st, c),
        "notifications" => {
            let has_id = c.params.len() > 1;
            if m != "GET" { need_role(&c.me, Role::AiBiUser)?; }
            let dep2 = dep.clone();
            let me = c.me.clone();
            let extra = move |st: &State, v: &Json| -> Result<(), Response> {
                let d = st.dep(&dep2).unwrap();
                let wid = v.get("workbookId").and_then(|x| x.as_i64()).unwrap_or(-1);
                match d.workbooks.iter().find(|w| w.id == wid) { Some(w) if wb_level(d, &me, w) >= Level::Read => {} _ => return Err(nf("workbook")) }
                if let Some(fs) = v.get("filters").and_then(|x| x.as_arr()) {
                    for (i, f) in fs.iter().enumerate() {
                        if !f.is_obj() || f.get("member").and_then(|x| x.as_str()).is_none() { return Err(bad(format!("filters[{}].member is required", i))); }
                        let ops = ["equals", "not_equals", "contains", "not_contains", "gt", "gte", "lt", "lte", "in_date_range", "before_date", "after_date", "is_empty", "is_not_empty"];
                        match f.get("operator").and_then(|x| x.as_str()) { Some(o) if ops.contains(&o) => {} _ => return Err(bad(format!("filters[{}].operator must be one of {}", i, ops.join(", ")))) }
                        if let Some(vs) = f.get("values") { if !vs.is_null() && vs.as_arr().is_none() { return Err(bad(format!("filters[{}].values must be an array", i))); } }
                    }
                }
                if let Some(s) = v.get("schedule").and_then(|x| x.as_str()) { if s.split_whitespace().count() != 5 { return Err(bad("'schedule' must be a 5-field cron expression")); } }
                Ok(())
            };
            coll_do(st, c, &NOTIFS, &format!("notifications:{}", dep), act_of(m, has_id), if has_id { Some(1) } else { None }, &format!("/api/v1/deployments/{}/notifications", dep), Some(&extra))
        }
        "startDbtSync" | "listDbtSyncs" | "getDbtSync" | "cancelDbtSync" | "getDbtSyncResult" | "getDbtSyncLogs" => {
            match id {
                "startDbtSync" => {
                    need_role(&c.me, Role::Developer)?;
                    let b = c.body(true)?;
                    let bn = f_str(&b, "branchName", false)?; let r = f_nonempty(&b, "ref", false, 255)?;
                    let br = branch_of(d, bn.as_deref())?.name.clone();
                    let jid = st.next("dbt");
                    let job = DbtJob { id: jid, branch: br, git_ref: r, trigger: "api".into(), created_at: now_ms(), cancelled_at: None, by: c.me.id };
                    let j = job_json(&dep, &job);
                    st.dep_mut(&dep).unwrap().dbt_jobs.push(job);
                    Ok(jres(202, &j).header("Location", &format!("/api/v1/deployments/{}/dbt-sync/{}", dep, jid)))
                }
                "listDbtSyncs" => {
                    let s = c.q_enum("status", &["queued", "running", "succeeded", "failed", "cancelled"])?;
                    let t = c.q_enum("trigger", &["api", "schedule", "manual"])?;
                    let mut all: Vec<Json> = d.dbt_jobs.iter().map(|j| job_json(&dep, j)).filter(|j| s.as_deref().map(|s| j.get("status").and_then(|x| x.as_str()) == Some(s)).unwrap_or(true) && t.as_deref().map(|t| j.get("trigger").and_then(|x| x.as_str()) == Some(t)).unwrap_or(true)).collect();
                    all.reverse();
                    cursor_list(c, all, CURSOR_DEFAULT)
                }
                "getDbtSync" => { let i = find_job(d, c.p(1))?; ok(job_json(&dep, &d.dbt_jobs[i])) }
                "cancelDbtSync" => {
                    need_role(&c.me, Role::Developer)?;
                    let i = find_job(d, c.p(1))?;
                    let j = job_json(&dep, &d.dbt_jobs[i]);
                    let s = j.get("status").and_then(|x| x.as_str()).unwrap_or("");
                    if s != "queued" && s != "running" { return Err(bad(format!("the sync job has already finished ({})", s))); }
                    let dm = st.dep_mut(&dep).unwrap(); dm.dbt_jobs[i].cancelled_at = Some(now_ms());
                    ok(job_json(&dep, &dm.dbt_jobs[i]))
                }
                "getDbtSyncResult" => {
                    let i = find_job(d, c.p(1))?;
                    let j = job_json(&dep, &d.dbt_jobs[i]);
                    let s = j.get("status").and_then(|x| x.as_str()).unwrap_or("").to_string();
                    let result = if s == "succeeded" { obj! {"modelsImported" => 12, "cubesGenerated" => 9, "viewsGenerated" => 2, "files" => Json::Arr(vec!["model/cubes/dbt_orders.yml".into(), "model/cubes/dbt_customers.yml".into()])} }
                        else if s == "failed" { obj! {"error" => "dbt manifest could not be parsed"} } else { Json::Null };
                    ok(obj! {"id" => d.dbt_jobs[i].id, "status" => s, "result" => result})
                }
                _ => {
                    let i = find_job(d, c.p(1))?;
                    let j = &d.dbt_jobs[i];
                    let now = now_ms();
                    let msgs = [(0, "queued"), (300, "cloning repository"), (600, "parsing manifest.json"), (900, "generating cubes"), (1200, "done")];
                    let all = msgs.iter().filter(|(o, _)| j.created_at + o <= now && j.cancelled_at.map(|cx| j.created_at + o <= cx).unwrap_or(true)).map(|(o, mm)| obj! {"timestamp" => iso(j.created_at + o), "level" => "info", "message" => *mm}).collect();
                    cursor_list(c, all, CURSOR_DEFAULT)
                }
            }
        }
        _ => build_ops(st, c, &dep),
    }
}

fn build_ops(st: &mut State, c: &Ctx, dep: &str) -> R {
    let id = c.op.id;
    need_role(&c.me, Role::Developer)?;
    let d = st.dep(dep).unwrap();
    match id {
        "listFiles" | "fileHashes" => {
            let b = branch_of(d, c.q("branchName"))?;
            let mut files = b.files.clone(); files.sort();
            let all = files.iter().map(|(p, ct)| if id == "listFiles" { file_json(p, ct, true) } else { obj! {"path" => p.clone(), "hash" => hex(&sha256(ct.as_bytes()))} }).collect();
            cursor_list(c, all, CURSOR_DEFAULT)
        }
        "writeFiles" => {
            let body = c.body(false)?;
            let bn = f_str(&body, "branchName", false)?;
            let files = match body.get("files") { Some(Json::Arr(a)) if !a.is_empty() && a.len() <= 100 => a.clone(), Some(Json::Arr(_)) => return Err(bad("'files' must hold 1 to 100 entries")), _ => return Err(bad("'files' is required (array of {path, content})")) };
            let mut parsed = vec![];
            for (i, f) in files.iter().enumerate() {
                if !f.is_obj() { return Err(bad(format!("files[{}] must be an object", i))); }
                let p = f_str(f, "path", true).map_err(|_| bad(format!("files[{}].path must be a string", i)))?.unwrap();
                if !valid_path(&p) { return Err(bad(format!("files[{}].path is not a valid relative path", i))); }
                let ct = f_str(f, "content", true).map_err(|_| bad(format!("files[{}].content must be a string", i)))?.unwrap();
                if ct.len() > 512 * 1024 { return Err(bad(format!("files[{}].content is larger than 512 KiB", i))); }
                parsed.push((p, ct));
            }
            let br = dm_branch_mut(st, dep, bn.as_deref())?;
            require_dev(br)?;
            for (p, ct) in &parsed { match br.files.iter_mut().find(|x| x.0 == *p) { Some(e) => e.1 = ct.clone(), None => br.files.push((p.clone(), ct.clone())) } }
            br.dirty = true;
            ok(obj! {"branchName" => br.name.clone(), "written" => Json::Arr(parsed.iter().map(|(p, ct)| file_json(p, ct, false)).collect())})
        }
        "deleteFiles" => {
            let body = c.body(true)?;
            let bn = match c.q("branchName") { Some(x) => Some(x.to_string()), None => f_str(&body, "branchName", false)? };
            let mut paths: Vec<String> = vec![];
            if let Some(p) = c.q("path") { paths.push(p.to_string()); }
            match body.get("paths") { None | Some(Json::Null) => {}, Some(Json::Arr(a)) => for (i, x) in a.iter().enumerate() { paths.push(x.as_str().ok_or_else(|| bad(format!("paths[{}] must be a string", i)))?.to_string()); }, _ => return Err(bad("'paths' must be an array of strings")) }
            if paths.is_empty() { return Err(bad("give the files to delete in 'paths' (body) or 'path' (query)")); }
            let br = dm_branch_mut(st, dep, bn.as_deref())?;
            require_dev(br)?;
            for p in &paths { if !br.files.iter().any(|x| x.0 == *p) { return Err(nf(&format!("file '{}'", p))); } }
            br.files.retain(|x| !paths.contains(&x.0)); br.dirty = true;
            ok(obj! {"branchName" => br.name.clone(), "deleted" => Json::Arr(paths.into_iter().map(Json::from).collect())})
        }
        "renameFiles" => {
            let body = c.body(false)?;
            let bn = f_str(&body, "branchName", false)?;
            let list = match body.get("files") { Some(Json::Arr(a)) if !a.is_empty() && a.len() <= 100 => a.clone(), _ => return Err(bad("'files' is required (array of {from, to}, 1 to 100)")) };
            let mut pairs = vec![];
            for (i, f) in list.iter().enumerate() {
                if !f.is_obj() { return Err(bad(format!("files[{}] must be an object", i))); }
                let a = f_str(f, "from", true).map_err(|_| bad(format!("files[{}].from must be a string", i)))?.unwrap();
                let b = f_str(f, "to", true).map_err(|_| bad(format!("files[{}].to must be a string", i)))?.unwrap();
                if !valid_path(&b) { return Err(bad(format!("files[{}].to is not a valid relative path", i))); }
                if pairs.iter().any(|(_, t): &(String, String)| *t == b) { return Err(bad(format!("files[{}].to duplicates another target", i))); }
                pairs.push((a, b));
            }
            let br = dm_branch_mut(st, dep, bn.as_deref())?;
            require_dev(br)?;
            for (a, b) in &pairs {
                if !br.files.iter().any(|x| x.0 == *a) { return Err(nf(&format!("file '{}'", a))); }
                if br.files.iter().any(|x| x.0 == *b) && !pairs.iter().any(|(f, _)| f == b) { return Err(err(409, format!("a file named '{}' already exists", b))); }
            }
            for (a, b) in &pairs { if let Some(e) = br.files.iter_mut().find(|x| x.0 == *a) { e.0 = format!("\u{0}{}", b); } }
            for e in br.files.iter_mut() { if let Some(s) = e.0.strip_prefix('\u{0}') { e.0 = s.to_string(); } }
            br.dirty = true;
            ok(obj! {"branchName" => br.name.clone(), "renamed" => Json::Arr(pairs.into_iter().map(|(a, b)| obj!{"from" => a, "to" => b}).collect())})
        }
        "validateDataModel" => {
            let b = branch_of(d, c.q("branchName"))?;
            let errs = validate_files(&b.files);
            let cubes = b.files.iter().filter(|f| f.1.trim_start().starts_with("cubes:")).count();
            let views = b.files.iter().filter(|f| f.1.trim_start().starts_with("views:")).count();
            ok(obj! {"branchName" => b.name.clone(), "valid" => errs.is_empty(), "errors" => Json::Arr(errs), "cubes" => cubes, "views" => views, "validatedAt" => iso(now_ms())})
        }
        "uploadStart" | "uploadFile" | "uploadFinish" => {
            let body = c.body(id != "uploadStart")?;
            if id == "uploadStart" {
                let bn = f_str(&body, "branchName", false)?;
                let br = branch_of(d, bn.as_deref())?.name.clone();
                let uid = format!("upl_{}", hex(&random_bytes(8)));
                let now = now_ms();
                st.dep_mut(dep).unwrap().uploads.push(Upload { id: uid.clone(), branch: br.clone(), files: vec![], finished: false, created_at: now });
                return created(obj! {"uploadId" => uid.clone(), "branchName" => br, "expiresAt" => iso(now + 3_600_000)}, format!("/build/api/v1/deployments/{}/data-model/upload/{}", dep, uid));
            }
            let uid = f_str(&body, "uploadId", true)?.unwrap();
            let ui = d.uploads.iter().position(|u| u.id == uid).ok_or_else(|| nf("upload"))?;
            if d.uploads[ui].finished { return Err(err(409, "the upload has already been finished")); }
            if id == "uploadFile" {
                let p = f_str(&body, "path", true)?.unwrap();
                if !valid_path(&p) { return Err(bad("'path' is not a valid relative path")); }
                let ct = f_str(&body, "content", true)?.unwrap();
                let chunk = f_int(&body, "chunkIndex", false, 0)?.unwrap_or(0);
                let u = &mut st.dep_mut(dep).unwrap().uploads[ui];
                match u.files.iter_mut().find(|x| x.0 == p) { Some(e) => { if chunk == 0 { e.1 = ct; } else { e.1.push_str(&ct); } } None => u.files.push((p.clone(), ct)) }
                let size = u.files.iter().find(|x| x.0 == p).map(|x| x.1.len()).unwrap_or(0);
                return ok(obj! {"uploadId" => uid, "path" => p, "chunkIndex" => chunk, "size" => size, "received" => u.files.len()});
            }
            let h = st.new_hash();
            let dm = st.dep_mut(dep).unwrap();
            dm.uploads[ui].finished = true;
            let u = dm.uploads[ui].clone();
            let br = dm.branches.iter_mut().find(|b| b.name == u.branch).ok_or_else(|| nf("branch"))?;
            for (p, ct) in &u.files { match br.files.iter_mut().find(|x| x.0 == *p) { Some(e) => e.1 = ct.clone(), None => br.files.push((p.clone(), ct.clone())) } }
            br.last_hash = h; br.build = format!("building:{}", now_ms());
            ok(obj! {"uploadId" => uid, "branchName" => br.name.clone(), "files" => u.files.len(), "lastHash" => br.last_hash.clone()})
        }
        "startDevMode" => {
            let body = c.body(true)?;
            let bn = f_str(&body, "branchName", false)?;
            let name = match bn { Some(n) => n, None => format!("dev-{}", c.me.email.split('@').next().unwrap_or("user").split('.').next().unwrap_or("user")) };
            if !d.branches.iter().any(|b| b.name == name) {
                let env = st.new_env_id(); let h = st.new_hash(); let bid = st.next("branch") + 390;
                let dm = st.dep_mut(dep).unwrap();
                let files = dm.branches.iter().find(|b| b.kind == BranchKind::Production).map(|b| b.files.clone()).unwrap_or_default();
                dm.branches.push(Branch { id: bid, name: name.clone(), parent: Some("main".into()), last_hash: h, staging: false, kind: BranchKind::Personal, owner: Some(c.me.id), dev_mode: true, env_id: env, files, dirty: false, created_at: now_ms(), build: "deployed".into() });
            }
            let dm = st.dep_mut(dep).unwrap();
            let br = dm.branches.iter_mut().find(|b| b.name == name).unwrap();
            if br.kind == BranchKind::Production { return Err(forbid("dev mode cannot be started on the production branch")); }
            br.dev_mode = true;
            ok(branch_json(br))
        }
        "stopDevMode" => {
            let bn = c.q("branchName").map(|s| s.to_string());
            let dm = st.dep_mut(dep).unwrap();
            let mut stopped = vec![];
            for b in dm.branches.iter_mut() {
                let hit = match &bn { Some(n) => b.name == *n, None => b.owner == Some(c.me.id) };
                if hit && b.dev_mode { b.dev_mode = false; stopped.push(Json::from(b.name.clone())); }
            }
            if let Some(n) = &bn { if !dm.branches.iter().any(|b| b.name == *n) { return Err(nf("branch")); } }
            ok(obj! {"stopped" => Json::Arr(stopped), "devMode" => false})
        }
        "listBranches" => { let mut v: Vec<&Branch> = d.branches.iter().collect(); v.sort_by_key(|b| b.id); cursor_list(c, v.into_iter().map(branch_json).collect(), CURSOR_DEFAULT) }
        "createBranch" => {
            let body = c.body(false)?;
            let name = f_str(&body, "name", true)?.unwrap();
            let okn = !name.is_empty() && name.len() <= 100 && name.as_bytes()[0].is_ascii_alphanumeric() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._/-".contains(&b)) && !name.contains("..") && !name.ends_with('/');
            if !okn { return Err(bad("'name' must match ^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$")); }
            let from = f_str(&body, "from", false)?;
            let activate = f_bool(&body, "activate", false)?.unwrap_or(false);
            if d.branches.iter().any(|b| b.name == name) { return Err(err(409, format!("branch '{}' already exists", name))); }
            let src = branch_of(d, from.as_deref())?.clone();
            let env = st.new_env_id(); let bid = st.next("branch") + 390;
            let br = Branch { id: bid, name: name.clone(), parent: Some(src.name.clone()), last_hash: src.last_hash.clone(), staging: false, kind: BranchKind::Shared, owner: None, dev_mode: activate, env_id: env, files: src.files.clone(), dirty: false, created_at: now_ms(), build: "deployed".into() };
            let j = branch_json(&br);
            st.dep_mut(dep).unwrap().branches.push(br);
            created(j, format!("/build/api/v1/deployments/{}/branches?branchName={}", dep, name))
        }
        "deleteBranch" => {
            let name = c.q("branchName").ok_or_else(|| bad("query parameter 'branchName' is required"))?.to_string();
            let remote = c.q_bool("removeOnUpstream")?.unwrap_or(false);
            let b = d.branches.iter().find(|b| b.name == name).ok_or_else(|| nf("branch"))?;
            if b.kind == BranchKind::Production { return Err(bad("the production branch cannot be deleted")); }
            let parent = b.parent.clone();
            let dm = st.dep_mut(dep).unwrap();
            let mut rep = vec![];
            for x in dm.branches.iter_mut() { if x.parent.as_deref() == Some(name.as_str()) { x.parent = parent.clone(); rep.push(Json::from(x.name.clone())); } }
            dm.branches.retain(|x| x.name != name);
            ok(obj! {"deleted" => name, "removedOnUpstream" => remote, "reparented" => Json::Arr(rep), "newParent" => parent})
        }
        "commit" | "pull" | "merge" | "mergeToDefault" | "githubConnect" => {
            let body = c.body(false)?;
            if id == "githubConnect" {
                let repo = f_str(&body, "repository", true)?.unwrap();
                let parts: Vec<&str> = repo.split('/').collect();
                if parts.len() != 2 || parts.iter().any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))) { return Err(bad("'repository' must look like owner/name")); }
                let branch = f_nonempty(&body, "branch", false, 255)?.unwrap_or("main".into());
                let inst = f_int(&body, "installationId", false, 1)?;
                if let Some(i) = inst { if i != 4401 { return Err(nf("installation")); } }
                let g = obj! {"repository" => repo, "branch" => branch, "installationId" => inst.unwrap_or(4401)};
                st.dep_mut(dep).unwrap().github = g.clone();
                return ok(obj! {"deploymentId" => dep, "connected" => true, "github" => g});
            }
            let bn = f_str(&body, "branchName", true)?.unwrap();
            let h = st.new_hash();
            let dm = st.dep_mut(dep).unwrap();
            let bi = dm.branches.iter().position(|b| b.name == bn).ok_or_else(|| nf("branch"))?;
            match id {
                "commit" => {
                    let msg = f_nonempty(&body, "message", false, 1000)?.unwrap_or("Update data model".into());
                    if !dm.branches[bi].dirty { return Err(bad("there are no uncommitted changes on this branch")); }
                    let b = &mut dm.branches[bi]; b.last_hash = h.clone(); b.dirty = false; b.build = format!("building:{}", now_ms());
                    ok(obj! {"branch" => branch_json(b), "commitHash" => h, "message" => msg})
                }
                "pull" => { let b = &dm.branches[bi]; ok(obj! {"branch" => branch_json(b), "updated" => false, "message" => "already up to date"}) }
                _ => {
                    let target = if id == "mergeToDefault" { Some("main".to_string()) } else { f_str(&body, "intoBranch", false)?.or(dm.branches[bi].parent.clone()) };
                    let target = target.ok_or_else(|| bad("the branch has no parent; give 'intoBranch'"))?;
                    if target == bn { return Err(bad("a branch cannot be merged into itself")); }
                    let ti = dm.branches.iter().position(|b| b.name == target).ok_or_else(|| nf("target branch"))?;
                    if dm.branches[bi].dirty { return Err(err(409, "the branch has uncommitted changes; commit them first")); }
                    let files = dm.branches[bi].files.clone();
                    let t = &mut dm.branches[ti]; t.files = files; t.last_hash = h.clone(); t.build = format!("building:{}", now_ms());
                    ok(obj! {"source" => bn, "target" => target, "mergeCommit" => h, "targetBranch" => branch_json(&dm.branches[ti])})
                }
            }
        }
        _ => Err(err(404, "no such operation")),
    }
}

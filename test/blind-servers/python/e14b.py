"""E14: administration, integrations, embed tenants, notifications (generic collections)."""
import copy
import datetime as _dt
import re
import secrets

from core import (op, ApiError, LOCK, qp, ts, now, nullable, obj, arr, S, I, N, B, DT, ANYOBJ, schema,
                  cursor_list, FIRST, AFTER, CURSOR_Q)
from schemas import *  # noqa
from api import dep_of, need_role, int_param, get_item, audit
from store import DB, nid, ROLE_RANK

EMAIL = {"type": "string", "pattern": r"^[^@\s]+@[^@\s]+\.[^@\s]+$", "maxLength": 320}
NAME = {"type": "string", "minLength": 1, "maxLength": 200}


def out_of(rec, fields):
    o = {}
    for f in fields:
        v = rec.get(f)
        o[f] = ts(v) if isinstance(v, _dt.datetime) else copy.deepcopy(v)
    return o


def collection(base, idp, store, name, tag, props, required, out_fields, min_role="ADMIN", read_role="VIEWER",
               update_method="PUT", search=None, dep_scoped=False, on_create=None, validate_fn=None, seq=None,
               list_filter=None, ops=("list", "create", "get", "update", "delete"), default_page=10, out_fn=None,
               extra_out=None):
    """Registers list/create/get/update/delete for a simple resource."""
    seq = seq or store
    out_schema = schema(name, obj(dict({"id": I, "createdAt": DT, "updatedAt": DT}, **(extra_out or {}),
                                       **{k: v for k, v in props.items() if k in out_fields}),
                                  ["id", "createdAt", "updatedAt"] + [k for k in out_fields if k in props]
                                  + list((extra_out or {}).keys())))
    fields = ["id", "createdAt", "updatedAt"] + list((extra_out or {}).keys()) + [k for k in out_fields if k in props]
    fmt = out_fn or (lambda r: out_of(r, fields))

    def coll(req):
        if dep_scoped:
            d = dep_of(req)
            return DB[store].setdefault(d["id"], {})
        return DB[store]

    def one(req):
        c = coll(req)
        iid = int_param(req, idp)
        r = c.get(iid)
        if r is None or (list_filter and not list_filter(req, r)):
            raise ApiError(404, "%s %d not found" % (name, iid), code="not_found")
        return r

    lst_q = [FIRST, AFTER] + ([qp("search", {"type": "string", "maxLength": 200})] if search else [])
    if "list" in ops:
        @op("GET", base, "list" + name + "s", "List %ss (id order)" % name, tag, query=lst_q,
            resp=cursor_list_schema(name + "ListResponse", out_schema))
        def _list(req):
            with LOCK:
                need_role(req.user, read_role)
                rows = [r for _, r in sorted(coll(req).items())]
                if list_filter:
                    rows = [r for r in rows if list_filter(req, r)]
                if req.query.get("search"):
                    s = req.query["search"].lower()
                    rows = [r for r in rows if any(s in str(r.get(f) or "").lower() for f in search)]
                return cursor_list([fmt(r) for r in rows], req.query, default=default_page)

    if "create" in ops:
        @op("POST", base, "create" + name, "Create a %s" % name, tag, body=obj(props, required), body_required=True,
            resp=out_schema, errors=(400, 401, 403, 404, 409, 422))
        def _create(req):
            with LOCK:
                need_role(req.user, min_role)
                c = coll(req)
                if validate_fn:
                    validate_fn(req, req.body, None, c)
                rid = nid(seq)
                r = {"id": rid, "createdAt": now(), "updatedAt": now()}
                r.update(copy.deepcopy(req.body))
                if on_create:
                    on_create(req, r)
                c[rid] = r
                return fmt(r)

    if "get" in ops:
        @op("GET", base + "/{%s}" % idp, "get" + name, "Get a %s" % name, tag, resp=out_schema)
        def _get(req):
            with LOCK:
                need_role(req.user, read_role)
                return fmt(one(req))

    if "update" in ops:
        @op(update_method, base + "/{%s}" % idp, "update" + name, "Partially update a %s" % name, tag,
            body=obj(props), body_required=True, resp=out_schema, errors=(400, 401, 403, 404, 409, 422))
        def _update(req):
            with LOCK:
                need_role(req.user, min_role)
                r = one(req)
                if validate_fn:
                    validate_fn(req, req.body, r, coll(req))
                changed = False
                for k, v in req.body.items():
                    if r.get(k) != v:
                        r[k] = copy.deepcopy(v)
                        changed = True
                if changed:
                    r["updatedAt"] = now()
                return fmt(r)

    if "delete" in ops:
        @op("DELETE", base + "/{%s}" % idp, "delete" + name, "Delete a %s" % name, tag, resp=DELETED_SCHEMA)
        def _delete(req):
            with LOCK:
                need_role(req.user, min_role)
                r = one(req)
                del coll(req)[r["id"]]
                return {"data": {"id": r["id"], "deleted": True}}
    return out_schema


DELETED_SCHEMA = {"$ref": "#/components/schemas/DeletedResponse"}


def unique(field):
    def v(req, body, cur, c):
        if field in body:
            for r in c.values():
                if r is not cur and str(r.get(field)).lower() == str(body[field]).lower():
                    raise ApiError(409, "%s %r already exists" % (field, body[field]), code="duplicate")
    return v


# ------------------------------------------------------------------ users
ROLES = ["ADMIN", "DEVELOPER", "AI_BI_USER", "VIEWER"]
USER = schema("User", obj({
    "id": I, "email": S, "firstName": nullable(S), "lastName": nullable(S), "role": {"type": "string", "enum": ROLES},
    "status": {"type": "string", "enum": ["ACTIVE", "DEACTIVATED", "INVITED"]}, "picture": nullable(S),
    "groupIds": arr(I), "createdAt": DT, "lastLoginAt": nullable(DT)},
    ["id", "email", "firstName", "lastName", "role", "status", "picture", "groupIds", "createdAt", "lastLoginAt"]))


def user_out(u):
    return {"id": u["id"], "email": u["email"], "firstName": u["firstName"], "lastName": u["lastName"],
            "role": u["role"], "status": u["status"], "picture": u["picture"],
            "groupIds": sorted(g["id"] for g in DB["groups"].values() if u["id"] in g["memberIds"]),
            "createdAt": ts(u["createdAt"]), "lastLoginAt": ts(u["lastLoginAt"])}


def visible_users():
    return [u for _, u in sorted(DB["users"].items()) if not u.get("embed") and u["status"] != "DELETED"]


@op("GET", "/api/v1/users", "listUsers", "List users (id order); search matches email and names", "users",
    query=[qp("search", {"type": "string", "maxLength": 200}),
           qp("role", {"type": "string", "enum": ROLES}), FIRST, AFTER],
    resp=cursor_list_schema("UsersListResponse", USER))
def list_users(req):
    with LOCK:
        rows = visible_users()
        if req.query.get("search"):
            s = req.query["search"].lower()
            rows = [u for u in rows if any(s in (u.get(f) or "").lower() for f in ("email", "firstName", "lastName"))]
        if req.query.get("role"):
            rows = [u for u in rows if u["role"] == req.query["role"]]
        return cursor_list([user_out(u) for u in rows], req.query, default=10)


USER_CREATE = obj({"email": EMAIL, "firstName": nullable({"type": "string", "maxLength": 100}),
                   "lastName": nullable({"type": "string", "maxLength": 100}),
                   "role": {"type": "string", "enum": ROLES}}, ["email", "role"])


@op("POST", "/api/v1/users", "createUser", "Invite a user", "users", body=USER_CREATE, body_required=True, resp=USER,
    errors=(400, 401, 403, 409, 422))
def create_user(req):
    b = req.body
    with LOCK:
        need_role(req.user, "ADMIN")
        if any(u["email"].lower() == b["email"].lower() for u in DB["users"].values() if u["status"] != "DELETED"):
            raise ApiError(409, "a user with this email exists", code="duplicate")
        uid = nid("user")
        DB["users"][uid] = {"id": uid, "email": b["email"], "firstName": b.get("firstName"), "lastName": b.get("lastName"),
                            "role": b["role"], "status": "INVITED", "picture": None, "createdAt": now(),
                            "lastLoginAt": None, "embed": False}
        audit(req.user, "User invited", None, email=b["email"])
        return user_out(DB["users"][uid])


def get_user(req):
    uid = int_param(req, "userId")
    u = DB["users"].get(uid)
    if u is None or u.get("embed") or u["status"] == "DELETED":
        raise ApiError(404, "user not found", code="not_found")
    return u


@op("GET", "/api/v1/users/{userId}", "getUser", "Get a user", "users", resp=USER)
def get_user_op(req):
    with LOCK:
        return user_out(get_user(req))


@op("PUT", "/api/v1/users/{userId}", "updateUser", "Partially update a user", "users",
    body=obj({"firstName": nullable({"type": "string", "maxLength": 100}),
              "lastName": nullable({"type": "string", "maxLength": 100}),
              "role": {"type": "string", "enum": ROLES}}), body_required=True, resp=USER)
def update_user(req):
    with LOCK:
        need_role(req.user, "ADMIN")
        u = get_user(req)
        if "role" in req.body and u["id"] == req.user["user"]["id"] and req.body["role"] != u["role"]:
            raise ApiError(422, "you cannot change your own role", code="self_change")
        for k, v in req.body.items():
            u[k] = v
        return user_out(u)


BULK_USERS = obj({"action": {"type": "string", "enum": ["DEACTIVATE", "ACTIVATE", "DELETE"]},
                  "userIds": arr(I, minItems=1, maxItems=100)}, ["action", "userIds"])
BULK_USERS_RESP = schema("BulkUsersResponse", obj({"succeeded": arr(I), "failed": arr(obj({"id": I, "error": ITEM_ERR},
                                                                                        ["id", "error"]))},
                                                  ["succeeded", "failed"]))


@op("POST", "/api/v1/users/bulk", "bulkUsers", "Bulk DEACTIVATE / ACTIVATE / DELETE with per-user failures", "users",
    body=BULK_USERS, body_required=True, resp=BULK_USERS_RESP)
def bulk_users(req):
    with LOCK:
        need_role(req.user, "ADMIN")
        ok, failed = [], []
        for uid in dict.fromkeys(req.body["userIds"]):
            u = DB["users"].get(uid)
            if u is None or u.get("embed") or u["status"] == "DELETED":
                failed.append({"id": uid, "error": {"message": "user not found", "status": 404}})
                continue
            if uid == req.user["user"]["id"]:
                failed.append({"id": uid, "error": {"message": "cannot apply to yourself", "status": 400}})
                continue
            u["status"] = {"DEACTIVATE": "DEACTIVATED", "ACTIVATE": "ACTIVE", "DELETE": "DELETED"}[req.body["action"]]
            ok.append(uid)
        return {"succeeded": ok, "failed": failed}


# ------------------------------------------------------------------ groups
def group_members_valid(req, body, cur, c):
    unique("name")(req, body, cur, c)
    for m in body.get("memberIds", []):
        if m not in DB["users"]:
            raise ApiError(422, "unknown user id %d in memberIds" % m)


collection("/api/v1/groups", "groupId", "groups", "Group", "users",
           {"name": NAME, "description": nullable({"type": "string", "maxLength": 1000}),
            "memberIds": arr(I, maxItems=1000)}, ["name"], ["name", "description", "memberIds"],
           search=["name", "description"], validate_fn=group_members_valid, seq="group",
           on_create=lambda req, r: (r.setdefault("memberIds", []), r.setdefault("description", None)))
for g in DB["groups"].values():
    g.setdefault("updatedAt", g["createdAt"])

# ------------------------------------------------------------------ user attributes
ATTR_TYPES = ["string", "number", "boolean", "string_array", "number_array"]
TYPE_SCHEMA = {"string": {"type": "string", "maxLength": 10000}, "number": {"type": "number"},
               "boolean": {"type": "boolean"}, "string_array": arr({"type": "string", "maxLength": 1000}, maxItems=1000),
               "number_array": arr({"type": "number"}, maxItems=1000)}
ANY_VAL = {"type": ["string", "number", "boolean", "array", "null"]}


def attr_valid(req, body, cur, c):
    from core import validate
    unique("name")(req, body, cur, c)
    if cur is not None and "type" in body and body["type"] != cur["type"]:
        raise ApiError(422, "the type of an attribute cannot be changed")
    t = body.get("type", cur["type"] if cur else None)
    if "defaultValue" in body and body["defaultValue"] is not None:
        m = validate(TYPE_SCHEMA[t], body["defaultValue"], "body.defaultValue")
        if m:
            raise ApiError(422, m)


collection("/api/v1/user-attributes", "attributeId", "attributes", "UserAttribute", "users",
           {"name": {"type": "string", "pattern": r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"},
            "type": {"type": "string", "enum": ATTR_TYPES}, "defaultValue": ANY_VAL,
            "description": nullable({"type": "string", "maxLength": 1000})}, ["name", "type"],
           ["name", "type", "defaultValue", "description"], validate_fn=attr_valid, seq="attr",
           ops=("list", "create", "get", "update"),
           on_create=lambda req, r: (r.setdefault("defaultValue", None), r.setdefault("description", None)))
for a in DB["attributes"].values():
    a.setdefault("updatedAt", a["createdAt"])

ATTR_VALUE = schema("UserAttributeValue", obj({"attributeId": I, "name": S, "type": S, "value": ANY_VAL,
                                               "isDefault": B}, ["attributeId", "name", "type", "value", "isDefault"]))


def values_out(uid):
    vals = DB["attr_values"].get(uid, {})
    return [{"attributeId": a["id"], "name": a["name"], "type": a["type"],
             "value": copy.deepcopy(vals.get(a["id"], a["defaultValue"])), "isDefault": a["id"] not in vals}
            for _, a in sorted(DB["attributes"].items())]


@op("GET", "/api/v1/user-attribute-values/{userId}", "getUserAttributeValues", "Attribute values of a user", "users",
    resp=obj({"userId": I, "items": arr(ATTR_VALUE)}, ["userId", "items"]))
def get_values(req):
    with LOCK:
        u = get_user(req)
        return {"userId": u["id"], "items": values_out(u["id"])}


@op("PUT", "/api/v1/user-attribute-values/{userId}", "setUserAttributeValues",
    "Set attribute values of a user (value null resets to the default)", "users",
    body=obj({"values": arr(obj({"attributeId": I, "value": ANY_VAL}, ["attributeId", "value"]), minItems=1,
                            maxItems=100)}, ["values"]), body_required=True,
    resp=obj({"userId": I, "items": arr(ATTR_VALUE)}, ["userId", "items"]))
def set_values(req):
    from core import validate
    with LOCK:
        need_role(req.user, "ADMIN")
        u = get_user(req)
        for v in req.body["values"]:
            a = DB["attributes"].get(v["attributeId"])
            if a is None:
                raise ApiError(404, "attribute %d not found" % v["attributeId"], code="not_found")
            if v["value"] is not None:
                m = validate(TYPE_SCHEMA[a["type"]], v["value"], "body.values.%s" % a["name"])
                if m:
                    raise ApiError(422, m)
        cur = DB["attr_values"].setdefault(u["id"], {})
        for v in req.body["values"]:
            if v["value"] is None:
                cur.pop(v["attributeId"], None)
            else:
                cur[v["attributeId"]] = copy.deepcopy(v["value"])
        return {"userId": u["id"], "items": values_out(u["id"])}


# ------------------------------------------------------------------ tenant settings
TENANT = schema("TenantSettings", obj({
    "name": NAME, "plan": S, "auditLogEnabled": B, "sessionTimeoutMinutes": {"type": "integer", "minimum": 5, "maximum": 43200},
    "defaultRole": {"type": "string", "enum": ROLES}, "allowedEmailDomains": arr({"type": "string", "maxLength": 253}, maxItems=100),
    "enforceSso": B, "timezone": {"type": "string", "maxLength": 64}},
    ["name", "plan", "auditLogEnabled", "sessionTimeoutMinutes", "defaultRole", "allowedEmailDomains", "enforceSso",
     "timezone"]))
TENANT_UPDATE = obj({
    "name": NAME, "sessionTimeoutMinutes": {"type": "integer", "minimum": 5, "maximum": 43200},
    "defaultRole": {"type": "string", "enum": ROLES},
    "allowedEmailDomains": arr({"type": "string", "maxLength": 253}, maxItems=100), "enforceSso": B,
    "timezone": {"type": "string", "maxLength": 64}})


@op("GET", "/api/v1/tenant/settings", "getTenantSettings", "Tenant settings", "tenant", resp=TENANT)
def get_tenant(req):
    with LOCK:
        return copy.deepcopy(DB["tenant"])


@op("PUT", "/api/v1/tenant/settings", "updateTenantSettings", "Partially update tenant settings (plan and audit "
    "feature are read-only)", "tenant", body=TENANT_UPDATE, body_required=True, resp=TENANT)
def put_tenant(req):
    with LOCK:
        need_role(req.user, "ADMIN")
        DB["tenant"].update(copy.deepcopy(req.body))
        return copy.deepcopy(DB["tenant"])


# ------------------------------------------------------------------ oauth / oidc
collection("/api/v1/oauth-integrations", "integrationId", "oauth", "OAuthIntegration", "integrations",
           {"name": NAME, "provider": {"type": "string", "enum": ["google", "slack", "microsoft", "github", "custom"]},
            "clientId": {"type": "string", "minLength": 1, "maxLength": 300},
            "clientSecret": {"type": "string", "minLength": 1, "maxLength": 1000, "writeOnly": True},
            "scopes": arr({"type": "string", "maxLength": 200}, maxItems=50)},
           ["name", "provider", "clientId", "clientSecret"], ["name", "provider", "clientId", "scopes"],
           extra_out={"hasClientSecret": B}, seq="oauth",
           out_fn=lambda r: dict(out_of(r, ["id", "createdAt", "updatedAt", "name", "provider", "clientId", "scopes"]),
                                 hasClientSecret=bool(r.get("clientSecret"))),
           on_create=lambda req, r: r.setdefault("scopes", []))


def uot_valid(req, body, cur, c):
    if "integrationId" in body and body["integrationId"] not in DB["oauth"]:
        raise ApiError(404, "integration not found", code="not_found")


collection("/api/v1/user-oauth-tokens", "tokenId", "uotokens", "UserOAuthToken", "integrations",
           {"integrationId": I, "scopes": arr({"type": "string", "maxLength": 200}, maxItems=50),
            "accessToken": {"type": "string", "minLength": 1, "maxLength": 4000, "writeOnly": True},
            "expiresAt": nullable(DT)}, ["integrationId", "accessToken"], ["integrationId", "scopes", "expiresAt"],
           min_role="VIEWER", seq="uotok", validate_fn=uot_valid,
           list_filter=lambda req, r: r["userId"] == req.user["user"]["id"] or req.user["role"] == "ADMIN",
           extra_out={"userId": I},
           out_fn=lambda r: out_of(r, ["id", "createdAt", "updatedAt", "userId", "integrationId", "scopes", "expiresAt"]),
           on_create=lambda req, r: (r.__setitem__("userId", req.user["user"]["id"]), r.setdefault("scopes", []),
                                     r.setdefault("expiresAt", None)))
for t in DB["uotokens"].values():
    t.setdefault("updatedAt", t["createdAt"])

collection("/api/v1/oidc-token-configs", "configId", "oidc", "OidcTokenConfig", "integrations",
           {"name": NAME, "issuer": {"type": "string", "pattern": r"^https://", "maxLength": 500},
            "audience": {"type": "string", "minLength": 1, "maxLength": 500},
            "claimsMapping": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 200}}},
           ["name", "issuer", "audience"], ["name", "issuer", "audience", "claimsMapping"], seq="oidc",
           validate_fn=unique("name"), on_create=lambda req, r: r.setdefault("claimsMapping", {}))

# ------------------------------------------------------------------ github discovery
GH_STATUS = schema("GithubStatus", obj({"connected": B, "appInstalled": B, "account": nullable(S)},
                                       ["connected", "appInstalled", "account"]))
GH_INST = schema("GithubInstallation", obj({"id": I, "account": S, "accountType": S}, ["id", "account", "accountType"]))
GH_REPO = schema("GithubRepository", obj({"id": I, "owner": S, "name": S, "fullName": S, "private": B,
                                          "defaultBranch": S}, ["id", "owner", "name", "fullName", "private", "defaultBranch"]))
GH_BRANCH = schema("GithubBranch", obj({"name": S, "sha": S, "protected": B}, ["name", "sha", "protected"]))
GH = {7001: ("acme", "Organization", ["sales-analytics-model", "marketing-model", "dbt-core"]),
      7002: ("alice-dev", "User", ["playground"])}


@op("GET", "/api/v1/github/status", "getGithubStatus", "GitHub App connection status", "integrations", resp=GH_STATUS)
def gh_status(req):
    return {"connected": True, "appInstalled": True, "account": "acme"}


@op("GET", "/api/v1/github/installations", "listGithubInstallations", "GitHub App installations", "integrations",
    query=CURSOR_Q, resp=cursor_list_schema("GithubInstallationsResponse", GH_INST))
def gh_inst(req):
    return cursor_list([{"id": k, "account": v[0], "accountType": v[1]} for k, v in GH.items()], req.query)


def repo(iid, owner_, name, n):
    return {"id": iid * 100 + n, "owner": owner_, "name": name, "fullName": "%s/%s" % (owner_, name),
            "private": n != 2, "defaultBranch": "main"}


@op("GET", "/api/v1/github/installations/{installationId}/repositories", "listGithubRepositories",
    "Repositories of an installation", "integrations", query=CURSOR_Q,
    resp=cursor_list_schema("GithubRepositoriesResponse", GH_REPO))
def gh_repos(req):
    iid = int_param(req, "installationId")
    if iid not in GH:
        raise ApiError(404, "installation not found", code="not_found")
    o, _, names = GH[iid]
    return cursor_list([repo(iid, o, n, i) for i, n in enumerate(names)], req.query)


@op("GET", "/api/v1/github/repositories/{owner}/{repo}/branches", "listGithubBranches", "Branches of a repository",
    "integrations", query=CURSOR_Q, resp=cursor_list_schema("GithubBranchesResponse", GH_BRANCH))
def gh_branches(req):
    o, r = req.params["owner"], req.params["repo"]
    if not any(v[0] == o and r in v[2] for v in GH.values()):
        raise ApiError(404, "repository not found", code="not_found")
    import hashlib
    names = ["main", "develop", "feature/new-cubes"]
    return cursor_list([{"name": n, "sha": hashlib.sha1((o + r + n).encode()).hexdigest(), "protected": n == "main"}
                        for n in names], req.query)


# ------------------------------------------------------------------ embed tenants
def tenant_valid(req, body, cur, c):
    unique("name")(req, body, cur, c)


collection("/api/v1/embed-tenants", "tenantId", "tenants", "EmbedTenant", "embedding",
           {"name": NAME, "externalId": {"type": "string", "pattern": r"^[A-Za-z0-9_.-]{1,100}$"},
            "securityContext": {"type": "object", "additionalProperties": True}}, ["name"],
           ["name", "externalId", "securityContext"], update_method="PATCH", seq="tenant", validate_fn=tenant_valid,
           on_create=lambda req, r: (r.setdefault("externalId", None), r.setdefault("securityContext", {})))
for t in DB["tenants"].values():
    t.setdefault("updatedAt", t["createdAt"])
for t in DB["tenant_users"].values():
    t.setdefault("updatedAt", t["createdAt"])
for t in DB["tenant_groups"].values():
    t.setdefault("updatedAt", t["createdAt"])


def in_tenant(req, r):
    tid = req.params["tenantId"]
    return str(r["tenantId"]) == tid


def tenant_exists(req):
    tid = int_param(req, "tenantId")
    if tid not in DB["tenants"]:
        raise ApiError(404, "embed tenant not found", code="not_found")
    return tid


def tu_create(req, r):
    r["tenantId"] = tenant_exists(req)
    r.setdefault("email", None)


def tu_valid(req, body, cur, c):
    tenant_exists(req)
    if "externalId" in body:
        for r in c.values():
            if r is not cur and in_tenant(req, r) and r["externalId"] == body["externalId"]:
                raise ApiError(409, "externalId already exists in this tenant", code="duplicate")


collection("/api/v1/embed-tenants/{tenantId}/users", "userId", "tenant_users", "EmbedTenantUser", "embedding",
           {"externalId": {"type": "string", "minLength": 1, "maxLength": 200}, "email": nullable(EMAIL)},
           ["externalId"], ["externalId", "email"], extra_out={"tenantId": I}, seq="tuser",
           ops=("list", "create", "get", "delete"), list_filter=in_tenant, on_create=tu_create, validate_fn=tu_valid,
           out_fn=lambda r: out_of(r, ["id", "createdAt", "updatedAt", "tenantId", "externalId", "email"]))


def tg_create(req, r):
    r["tenantId"] = tenant_exists(req)
    r.setdefault("memberIds", [])


def tg_valid(req, body, cur, c):
    tenant_exists(req)
    for m in body.get("memberIds", []):
        u = DB["tenant_users"].get(m)
        if u is None or not in_tenant(req, u):
            raise ApiError(422, "user %d is not a user of this tenant" % m)


collection("/api/v1/embed-tenants/{tenantId}/groups", "groupId", "tenant_groups", "EmbedTenantGroup", "embedding",
           {"name": NAME, "memberIds": arr(I, maxItems=1000)}, ["name"], ["name", "memberIds"],
           extra_out={"tenantId": I}, seq="tgroup", update_method="PATCH", list_filter=in_tenant, on_create=tg_create,
           validate_fn=tg_valid,
           out_fn=lambda r: out_of(r, ["id", "createdAt", "updatedAt", "tenantId", "name", "memberIds"]))


def tgroup(req):
    tenant_exists(req)
    gid = int_param(req, "groupId")
    g = DB["tenant_groups"].get(gid)
    if g is None or not in_tenant(req, g):
        raise ApiError(404, "group not found", code="not_found")
    return g


MEMBER = schema("EmbedGroupMember", obj({"userId": I, "externalId": S}, ["userId", "externalId"]))


def members_out(g, q):
    rows = [{"userId": m, "externalId": DB["tenant_users"][m]["externalId"]} for m in g["memberIds"]
            if m in DB["tenant_users"]]
    return cursor_list(rows, q, default=10)


@op("GET", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members", "listEmbedGroupMembers", "Group members",
    "embedding", query=CURSOR_Q, resp=cursor_list_schema("EmbedGroupMembersResponse", MEMBER))
def list_members(req):
    with LOCK:
        return members_out(tgroup(req), req.query)


@op("POST", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members", "addEmbedGroupMembers",
    "Add tenant users to a group (idempotent)", "embedding",
    body=obj({"userIds": arr(I, minItems=1, maxItems=100)}, ["userIds"]), body_required=True,
    resp=cursor_list_schema("EmbedGroupMembersResponse2", MEMBER))
def add_members(req):
    with LOCK:
        need_role(req.user, "ADMIN")
        g = tgroup(req)
        for m in req.body["userIds"]:
            u = DB["tenant_users"].get(m)
            if u is None or not in_tenant(req, u):
                raise ApiError(404, "tenant user %d not found" % m, code="not_found")
        for m in req.body["userIds"]:
            if m not in g["memberIds"]:
                g["memberIds"].append(m)
        g["updatedAt"] = now()
        return members_out(g, {"first": 100})


@op("DELETE", "/api/v1/embed-tenants/{tenantId}/groups/{groupId}/members/{userId}", "removeEmbedGroupMember",
    "Remove a member from a group", "embedding", resp=DELETED_SCHEMA)
def rm_member(req):
    with LOCK:
        need_role(req.user, "ADMIN")
        g = tgroup(req)
        uid = int_param(req, "userId")
        if uid not in g["memberIds"]:
            raise ApiError(404, "not a member", code="not_found")
        g["memberIds"].remove(uid)
        return {"data": {"id": uid, "deleted": True}}


# ------------------------------------------------------------------ notifications
from e14 import DASH_FILTER  # noqa: E402


def notif_valid(req, body, cur, c):
    d = dep_of(req)
    if "workbookId" in body and get_item(d, body["workbookId"], "WORKBOOK") is None:
        raise ApiError(404, "workbook not found", code="not_found")
    for f in body.get("dashboardFilters", []):
        if f["operator"] in ("is_empty", "is_not_empty", "set", "notSet") and f.get("values"):
            raise ApiError(422, "operator %s takes no values" % f["operator"])


def notif_create(req, r):
    r["createdBy"] = req.user["user"]["id"]
    r.setdefault("dashboardFilters", [])
    r.setdefault("timeGrain", None)
    r.setdefault("enabled", True)


collection("/api/v1/deployments/{deploymentId}/notifications", "notificationId", "notifications", "Notification",
           "notifications",
           {"name": NAME, "workbookId": I,
            "schedule": obj({"cron": {"type": "string", "pattern": r"^\S+( \S+){4}$", "maxLength": 100},
                             "timezone": {"type": "string", "maxLength": 64}}, ["cron"]),
            "recipients": arr(EMAIL, minItems=1, maxItems=100), "dashboardFilters": arr(DASH_FILTER, maxItems=50),
            "timeGrain": nullable({"type": "string", "enum": ["hour", "day", "week", "month", "quarter", "year"]}),
            "enabled": B}, ["name", "workbookId", "schedule", "recipients"],
           ["name", "workbookId", "schedule", "recipients", "dashboardFilters", "timeGrain", "enabled"],
           min_role="AI_BI_USER", dep_scoped=True, seq="notif", validate_fn=notif_valid, on_create=notif_create,
           extra_out={"createdBy": I},
           out_fn=lambda r: out_of(r, ["id", "createdAt", "updatedAt", "createdBy", "name", "workbookId", "schedule",
                                       "recipients", "dashboardFilters", "timeGrain", "enabled"]))

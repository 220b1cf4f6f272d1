"""E1-E13 handlers plus shared helpers."""
import base64
import copy
import csv
import datetime as _dt
import hashlib
import hmac
import io
import json
import re
import time
import uuid

import core
from core import (ApiError, LOCK, op, qp, ts, now, nullable, obj, arr, S, I, N, B, DT, ANYOBJ, ref, schema,
                  cursor_list, cursor_page, offset_page, Raw, validate, FIRST, AFTER, OFFSET, LIMIT, CURSOR_Q)
from schemas import *  # noqa
from store import DB, ROLE_RANK, ROLE_PERMS, LEVELS, nid, rhash

JWT_SECRET = uuid.uuid4().hex.encode()
SECRET_WORDS = ("PASS", "SECRET", "TOKEN", "KEY", "CREDENTIAL")


# ------------------------------------------------------------------ auth
def authenticate(req):
    h = req.headers.get("Authorization")
    if not h or not h.strip():
        raise ApiError(401, "missing Authorization header", code="missing_credential")
    parts = h.strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() not in ("bearer", "api-key"):
        raise ApiError(401, "Authorization header must be 'Bearer <API_KEY>'", code="malformed_credential")
    key = parts[1].strip()
    with LOCK:
        k = DB["keys"].get(key)
        if not k:
            if key.count(".") == 2:
                raise ApiError(403, "metadata tokens are not accepted by the management API", code="token_scope")
            raise ApiError(403, "API key not recognised", code="invalid_credential")
        u = DB["users"].get(k["userId"])
        if not u or u["status"] != "ACTIVE":
            raise ApiError(403, "API key belongs to an inactive user", code="inactive_user")
        p = dict(k)
        p["user"] = u
        p["role"] = u["role"]
        p["groups"] = {g["id"] for g in DB["groups"].values() if u["id"] in g["memberIds"]}
        return p


core.AUTH_HOOK = authenticate


def need_role(p, role):
    if ROLE_RANK[p["role"]] < ROLE_RANK[role]:
        raise ApiError(403, "requires role %s or higher" % role, code="insufficient_role")


def need_perm(p, perm):
    if perm not in ROLE_PERMS[p["role"]]:
        raise ApiError(403, "missing permission %s" % perm, code="missing_permission")


def dep_of(req, did=None):
    did = did if did is not None else req.params.get("deploymentId", "")
    d = DB["deployments"].get(did) if re.fullmatch(r"\d{1,12}", did or "") else None
    if re.fullmatch(r"0*\d{1,12}", did or "") and d is None:
        d = DB["deployments"].get(str(int(did)))
    if d is None:
        raise ApiError(404, "deployment %s not found" % did[:40], code="deployment_not_found")
    if req.user["deployments"] is not None and d["id"] not in req.user["deployments"]:
        raise ApiError(403, "API key is not allowed for deployment %s" % d["id"], code="deployment_forbidden")
    return d


def int_param(req, name):
    v = req.params[name]
    if not re.fullmatch(r"\d{1,15}", v):
        raise ApiError(404, "%s %s not found" % (name, v[:40]))
    return int(v)


# ------------------------------------------------------------------ workspace access
def level(p, it):
    if it is None:
        return 0
    if p["role"] == "ADMIN" and not p["embed"]:
        return 3
    if it["createdBy"] == p["user"]["id"]:
        return 3
    if it.get("shared"):
        return 1 if p["embed"] or ROLE_RANK[p["role"]] >= 2 else 0
    node = it
    seen = 0
    while node is not None and seen < 50:
        pol = DB["policies"].get(node["id"])
        if pol:
            best = None
            for (kind, key), lv in pol.items():
                if (kind == "user" and key == p["user"]["id"]) or (kind == "group" and key in p["groups"]):
                    best = max(best or 0, LEVELS[lv])
            if best is not None:
                return best
            if ("all", None) in pol:
                return LEVELS[pol[("all", None)]]
        parent = node["folderId"] if node["type"] != "REPORT" or not node.get("workbookId") else node["workbookId"]
        node = DB["items"].get(parent) if parent else None
        seen += 1
    if p["embed"]:
        return 0
    return {"DEVELOPER": 2, "AI_BI_USER": 1, "VIEWER": 1, "ADMIN": 3}[p["role"]]


def root_edit(p):
    return ROLE_RANK[p["role"]] >= ROLE_RANK["AI_BI_USER"] and not (p["embed"] and not p["creatorMode"])


def folder_edit(p, fid):
    if fid is None:
        return root_edit(p)
    return level(p, DB["items"].get(fid)) >= 2 and ROLE_RANK[p["role"]] >= 2


def get_item(d, iid, typ=None, shared=False):
    it = DB["items"].get(iid)
    if it is None or str(it["deploymentId"]) != d["id"] or (typ and it["type"] != typ) or it["archived"]:
        return None
    if bool(it.get("shared")) != shared:
        return None
    return it


def folder_path(it):
    path = []
    f = DB["items"].get(it["folderId"]) if it["folderId"] else None
    f = DB["items"].get(f["folderId"]) if f and f["folderId"] else None
    guard = 0
    while f is not None and guard < 50:
        path.append({"id": f["id"], "name": f["name"]})
        f = DB["items"].get(f["folderId"]) if f["folderId"] else None
        guard += 1
    return list(reversed(path))


def owner(uid):
    u = DB["users"].get(uid)
    if not u:
        return None
    return {"id": u["id"], "email": u["email"], "firstName": u["firstName"], "picture": u["picture"]}


def dash_out(d):
    return copy.deepcopy(d)


def wb_out(it, p):
    dash = DB["dashboards"].get(it["dashboardId"]) if it.get("dashboardId") else None
    return {
        "id": it["id"], "deploymentId": it["deploymentId"], "name": it["name"], "type": it["type"],
        "meta": copy.deepcopy(it["meta"]), "calculatedFields": copy.deepcopy(it["calculatedFields"]),
        "createdAt": ts(it["createdAt"]), "updatedAt": ts(it["updatedAt"]), "createdBy": it["createdBy"],
        "userId": it["createdBy"], "user": owner(it["createdBy"]), "folderId": it["folderId"],
        "folderPath": folder_path(it), "isFavorite": (p["user"]["id"], it["id"]) in DB["favorites"],
        "slug": it["slug"], "dashboardDraft": copy.deepcopy(it["dashboardDraft"]),
        "dashboardPublished": copy.deepcopy(dash["config"]) if dash else None,
        "publishedDashboard": dash_out(dash) if dash else None,
        "workbookId": it.get("workbookId"), "archived": it["archived"],
    }


def touch(it):
    it["updatedAt"] = now()


def audit(p, event, d=None, **attrs):
    DB["audit"].insert(0, {"id": nid("audit"), "at": now(), "event": event, "email": p["user"]["email"],
                           "deployment": d["name"] if d else "", "ip": "127.0.0.1", "attributes": attrs})


# ------------------------------------------------------------------ E1
@op("GET", "/api/v1/deployments", "listDeployments", "List deployments accessible to the caller (newest id first)",
    "deployments", query=[OFFSET, LIMIT], resp=DEPLOYMENTS_LIST)
def list_deployments(req):
    with LOCK:
        deps = [d for d in DB["deployments"].values()
                if req.user["deployments"] is None or d["id"] in req.user["deployments"]]
        deps.sort(key=lambda d: int(d["id"]), reverse=True)
        page, pg = offset_page(deps, req.query)
        return {"data": {"deployments": [dep_item(d) for d in page]}, "pagination": pg}


def dep_item(d):
    return {"id": d["id"], "name": d["name"], "created_at": ts(d["created_at"]), "region": d["region"],
            "cloudProvider": d["cloudProvider"], "status": d["status"],
            "deploymentUrl": "https://%s.platform.acme.example" % d["id"], "creationStep": d["creationStep"]}


def version_entry(v, d):
    return {"releaseChannelVersion": v["releaseChannelVersion"], "version": v["version"],
            "releaseChannel": v["releaseChannel"], "isLatestInChannel": v["isLatestInChannel"],
            "isCurrent": v["version"] == d["version"]}


def dep_full(d):
    v = next((x for x in DB["versions"] if x["version"] == d["version"]), None)
    return {"id": d["id"], "name": d["name"], "created_at": ts(d["created_at"]), "updated_at": ts(d["updated_at"]),
            "status": d["status"], "deploymentUrl": "https://%s.platform.acme.example" % d["id"],
            "cloudProvider": d["cloudProvider"], "region": d["region"], "releaseChannel": d["releaseChannel"],
            "releaseChannelVersion": v["releaseChannelVersion"] if v else "cubejs/cube:v" + d["version"],
            "version": d["version"], "releaseChannelVersionHold": d["releaseChannelVersionHold"],
            "image": "registry.platform.acme.example/cube:v%s-r1" % d["version"], "template": d["template"],
            "templateVariables": dict(d["templateVariables"]), "defaultLaunchpadViewGroup": d["defaultLaunchpadViewGroup"],
            "launchpadTabs": list(d["launchpadTabs"]), "creationMethod": d["creationMethod"],
            "deployMode": d["deployMode"], "creationStep": d["creationStep"], "githubRepository": d["githubRepository"]}


# ------------------------------------------------------------------ E2
def env_out(d, e):
    host = "%s-%s.platform.acme.example" % (d["id"], e["id"].split("-")[-1])
    return {"id": e["id"], "name": e["name"], "type": e["type"], "branch": e["branch"], "user": e["user"],
            "api_credentials": [
                {"type": "rest", "version": 1, "database": "", "host": host, "port": 443,
                 "url": "https://%s/cubejs-api/v1" % host},
                {"type": "sql", "version": 1, "database": "db@%s" % e["branch"], "host": "sql." + host, "port": 5432,
                 "url": "postgres://sql.%s:5432/db" % host}],
            "createdAt": ts(e["createdAt"])}


def envs_of(d):
    out = []
    for b in DB["branches"][d["id"]]:
        if b["kind"] == "personal":
            out.append({"id": "env-%s-dev-%d" % (d["id"], b["id"]), "name": "Development (%s)" % b["name"],
                        "type": "development", "branch": b["name"], "user": b["owner"] or "",
                        "createdAt": b["createdAt"]})
    for b in DB["branches"][d["id"]]:
        if b["staging"]:
            out.append({"id": "env-%s-stg-%d" % (d["id"], b["id"]), "name": "Staging (%s)" % b["name"],
                        "type": "staging", "branch": b["name"], "user": "alice@acme.example",
                        "createdAt": b["createdAt"]})
    out.extend(DB["envs"][d["id"]])
    return out


@op("GET", "/api/v1/deployments/{deploymentId}/environments", "listEnvironments",
    "List environments (development, then staging, then production). `items` is the whole list unless `first` "
    "is given; legacy `data` is sliced by offset/limit.", "deployments",
    query=[qp("type", {"type": "string", "enum": ["production", "staging", "development"]}),
           OFFSET, qp("limit", {"type": "integer", "minimum": 0, "default": 20}),
           FIRST, AFTER], resp=ENV_LIST)
def list_envs(req):
    with LOCK:
        d = dep_of(req)
        envs = [env_out(d, e) for e in envs_of(d)]
    if req.query.get("type"):
        envs = [e for e in envs if e["type"] == req.query["type"]]
    page, info = cursor_page(envs, req.query.get("first"), req.query.get("after"), all_if_missing=True)
    data, pg = offset_page(envs, req.query)
    return {"items": page, "pageInfo": info, "data": data, "pagination": pg}


# ------------------------------------------------------------------ E3
def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def make_jwt(payload):
    h = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = hmac.new(JWT_SECRET, (h + "." + p).encode(), hashlib.sha256).digest()
    return h + "." + p + "." + b64u(sig)


@op("POST", "/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync",
    "createMetaSyncToken", "Issue a metadata-only JWT scoped by a security context", "deployments",
    body=META_TOKEN_REQ, body_required=True, resp=META_TOKEN_RESP)
def meta_token(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        env = next((e for e in envs_of(d) if e["id"] == req.params["environmentId"]), None)
        if env is None:
            raise ApiError(404, "environment not found in this deployment", code="environment_not_found")
        exp_in = req.body.get("expires_in", 86400)
        created = now()
        expires = created + _dt.timedelta(seconds=exp_in)
        sc = req.body["security_context"]
        tok = make_jwt({"sub": "meta-sync", "deploymentId": d["id"], "environmentId": env["id"],
                        "securityContext": sc, "scope": ["meta"], "iat": int(created.timestamp()),
                        "exp": int(expires.timestamp()), "jti": uuid.uuid4().hex})
        audit(req.user, "Metadata token created", d, environment=env["id"])
        return {"data": {"token": tok, "created_at": ts(created), "expires_at": ts(expires), "expires_in": exp_in,
                         "security_context": sc, "scopes": ["meta"]}}


# ------------------------------------------------------------------ E4
def branch_out(b):
    return {"id": b["id"], "name": b["name"], "parentBranch": b["parentBranch"], "lastHash": b["lastHash"],
            "isStagingEnvironmentEnabled": b["staging"], "kind": b["kind"], "owner": b["owner"],
            "createdAt": ts(b["createdAt"])}


def find_branch(d, name=None, bid=None, required=True):
    for b in DB["branches"][d["id"]]:
        if (name is not None and b["name"] == name) or (bid is not None and b["id"] == bid):
            return b
    if required:
        raise ApiError(404, "branch not found", code="branch_not_found")
    return None


@op("PUT", "/build/api/v1/deployments/{deploymentId}/branches/staging-environment", "setStagingEnvironment",
    "Enable or disable the always-on staging environment of a shared branch", "branches",
    body=STAGING_REQ, body_required=True, resp=BRANCH_RESP)
def staging(req):
    b = req.body
    if "branchName" not in b and "branchId" not in b:
        raise ApiError(422, "one of branchName or branchId is required")
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        br = find_branch(d, name=b.get("branchName"), bid=b.get("branchId"))
        if "branchName" in b and "branchId" in b and (br["name"] != b["branchName"] or br["id"] != b["branchId"]):
            raise ApiError(422, "branchName and branchId name different branches")
        if b["enabled"]:
            if br["kind"] != "shared":
                raise ApiError(422, "only shared branches can have an always-on staging environment "
                                    "(this is a %s branch)" % br["kind"], code="branch_not_shared")
            br["staging"] = True
        else:
            br["staging"] = False
        return {"data": branch_out(br)}


# ------------------------------------------------------------------ E5 / E6
def versions_for(d):
    hist = set(DB["version_history"][d["id"]]) | {d["version"]}
    return [v for v in DB["versions"] if v["isLatestInChannel"] or v["version"] in hist]


@op("GET", "/api/v1/deployments/{deploymentId}/versions", "listDeploymentVersions",
    "Versions the deployment can switch to (channel heads plus versions run before)", "deployments",
    resp=VERSIONS_RESP)
def versions(req):
    with LOCK:
        d = dep_of(req)
        return {"data": [version_entry(v, d) for v in versions_for(d)]}


@op("PUT", "/api/v1/deployments/{deploymentId}", "updateDeployment",
    "Partial update of deployment settings (templateVariables merged key by key; null removes a key)",
    "deployments", body=DEPLOYMENT_UPDATE, body_required=True, resp=DEPLOYMENT_RESP)
def update_deployment(req):
    b = req.body
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        vs = versions_for(d)
        new_version, hold = None, None
        if "releaseChannelVersion" in b:
            raw = b["releaseChannelVersion"].strip()
            m = re.fullmatch(r"(?:.+:)?v?(\d+\.\d+\.\d+)", raw)
            cand = None
            if m:
                cand = next((v for v in vs if v["version"] == m.group(1) and
                             raw in (v["version"], "v" + v["version"], v["releaseChannelVersion"])), None)
            if cand is None:
                raise ApiError(400, "releaseChannelVersion %r is not one of the listed versions" % raw[:60],
                               code="invalid_release_channel_version")
            new_version = cand
            hold = not cand["isLatestInChannel"]
        if "releaseChannel" in b:
            chans = {v["releaseChannel"] for v in DB["versions"]}
            if b["releaseChannel"] not in chans:
                raise ApiError(422, "unknown releaseChannel; known: %s" % ", ".join(sorted(chans)))
            if new_version is None:
                new_version = next(v for v in DB["versions"] if v["releaseChannel"] == b["releaseChannel"]
                                   and v["isLatestInChannel"])
                hold = False
        changed = []
        for k in ("name", "cloudProvider", "region", "template", "defaultLaunchpadViewGroup", "launchpadTabs",
                  "creationMethod", "deployMode", "releaseChannelVersionHold"):
            if k in b and d[k] != b[k]:
                d[k] = b[k]
                changed.append(k)
        if new_version is not None:
            if d["version"] != new_version["version"]:
                DB["version_history"][d["id"]].append(d["version"])
                changed.append("releaseChannelVersion")
            d["version"] = new_version["version"]
            d["releaseChannel"] = b.get("releaseChannel", new_version["releaseChannel"])
            if "releaseChannelVersionHold" not in b:
                d["releaseChannelVersionHold"] = hold
        if "templateVariables" in b:
            for k, v in b["templateVariables"].items():
                if v is None:
                    d["templateVariables"].pop(k, None)
                else:
                    d["templateVariables"][k] = v
            changed.append("templateVariables")
        if changed:
            d["updated_at"] = now()
            audit(req.user, "Deployment updated", d, fields=changed)
        return {"data": dep_full(d)}


# ------------------------------------------------------------------ E7
AUDIT_COLS = ["Time (UTC)", "Event", "User Email", "Deployment", "IP Address", "Details"]


def _date_q(name, v, end=False):
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
            x = _dt.datetime.fromisoformat(v).replace(tzinfo=_dt.timezone.utc)
            return x + _dt.timedelta(days=1) if end else x
        x = _dt.datetime.fromisoformat(v.replace("Z", "+00:00"))
        if x.tzinfo is None:
            x = x.replace(tzinfo=_dt.timezone.utc)
        return x
    except ValueError:
        raise ApiError(422, "query parameter %s: expected an ISO 8601 date" % name)


@op("GET", "/api/v1/audit-logs/export", "exportAuditLog",
    "Export audit events (newest first) as a CSV attachment, streamed with chunked transfer encoding", "audit",
    query=[qp("start", {"type": "string", "maxLength": 40}, desc="ISO 8601 date (inclusive)"),
           qp("end", {"type": "string", "maxLength": 40}, desc="ISO 8601 date (inclusive, whole day)"),
           qp("search", {"type": "string", "maxLength": 500}), qp("eventName", {"type": "string", "maxLength": 200}),
           qp("userEmail", {"type": "string", "maxLength": 320})],
    content="text/csv")
def export_audit(req):
    q = req.query
    start = _date_q("start", q["start"]) if q.get("start") else None
    end = _date_q("end", q["end"], end=True) if q.get("end") else None
    if start and end and start >= end:
        raise ApiError(422, "start must not be after end")
    with LOCK:
        if not DB["tenant"]["auditLogEnabled"]:
            raise ApiError(403, "the audit log feature is not enabled for this plan", code="feature_disabled")
        need_perm(req.user, "AuditLogManage")
        rows = []
        for e in DB["audit"]:
            if start and e["at"] < start:
                continue
            if end and e["at"] >= end:
                continue
            if q.get("eventName") and e["event"].lower() != q["eventName"].lower():
                continue
            if q.get("userEmail") and e["email"].lower() != q["userEmail"].strip().lower():
                continue
            details = json.dumps(e["attributes"], sort_keys=True)
            if q.get("search"):
                hay = " ".join([e["event"], e["email"], e["deployment"], e["ip"], details]).lower()
                if q["search"].lower() not in hay:
                    continue
            rows.append([ts(e["at"]), e["event"], e["email"], e["deployment"], e["ip"], details])
        rows.sort(key=lambda r: r[0], reverse=True)

    def gen():
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\r\n")
        w.writerow(AUDIT_COLS)
        yield buf.getvalue()
        for i in range(0, len(rows), 25):
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator="\r\n")
            w.writerows(rows[i:i + 25])
            yield buf.getvalue()
    fname = "audit-log-%s.csv" % now().strftime("%Y%m%d-%H%M%S")
    return Raw(200, "text/csv; charset=utf-8", gen(), {"content-disposition": 'attachment; filename="%s"' % fname,
                                                       "x-total-rows": str(len(rows))})


# ------------------------------------------------------------------ E8 / E9
@op("GET", "/api/v1/deployments/{deploymentId}/workbooks", "listWorkbooks",
    "List workbooks readable by the caller, newest id first. folderId=0 or folderId=null lists the root only; "
    "default page size 10, max 100", "workbooks",
    query=[qp("folderId", {"type": ["integer", "null"], "minimum": 0}), AFTER, FIRST], resp=WORKBOOKS_LIST)
def list_workbooks(req):
    with LOCK:
        d = dep_of(req)
        items = [it for it in DB["items"].values() if it["type"] == "WORKBOOK" and str(it["deploymentId"]) == d["id"]
                 and not it["archived"] and not it.get("shared") and level(req.user, it) >= 1]
        if "folderId" in req.query:
            f = req.query["folderId"] or None
            items = [it for it in items if it["folderId"] == f]
        items.sort(key=lambda it: it["id"], reverse=True)
        out = cursor_list(items, req.query, default=10)
        out["items"] = [wb_out(it, req.user) for it in out["items"]]
        out["data"] = list(out["items"])
        return out


def load_wb(req, d, typ="WORKBOOK", param="workbookId", need=1):
    iid = int_param(req, param)
    it = get_item(d, iid, typ)
    if it is None:
        raise ApiError(404, "%s %d not found in deployment %s" % (typ.lower(), iid, d["id"]), code="not_found")
    if level(req.user, it) < need:
        raise ApiError(403, "no %s access to %s %d" % (["", "read", "edit", "manage"][need], typ.lower(), iid),
                       code="access_denied")
    return it


@op("GET", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", "getWorkbook", "Get a workbook",
    "workbooks", resp=WORKBOOK)
def get_workbook(req):
    with LOCK:
        d = dep_of(req)
        return wb_out(load_wb(req, d), req.user)


# ------------------------------------------------------------------ E10
def copy_report(rep, new_wb, p, folder):
    r = new_item_like(rep)
    r.update({"workbookId": new_wb["id"], "folderId": folder, "createdBy": p["user"]["id"], "shared": False,
              "publicId": str(uuid.uuid4()), "externalWorkbookIds": [], "lastViewedAt": None})
    return r


def new_item_like(src):
    it = copy.deepcopy(src)
    it["id"] = nid("item")
    it["createdAt"] = it["updatedAt"] = now()
    it["slug"] = None
    DB["items"][it["id"]] = it
    return it


def remap_cfg(cfg, mapping):
    cfg = copy.deepcopy(cfg)
    if cfg and cfg.get("widgets"):
        for w in cfg["widgets"]:
            c = w.get("config")
            if isinstance(c, dict) and c.get("reportId") in mapping:
                c["reportId"] = mapping[c["reportId"]]
    return cfg


def wb_limit_check(d):
    lim = d.get("workbookLimit")
    if lim is not None:
        n = sum(1 for it in DB["items"].values() if it["type"] == "WORKBOOK" and str(it["deploymentId"]) == d["id"]
                and not it.get("shared") and not it["archived"])
        if n >= lim:
            raise ApiError(400, "workbook limit of the plan reached (%d)" % lim, code="workbook_limit_reached")


@op("POST", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate", "duplicateWorkbook",
    "Clone a workbook with its reports and published dashboard", "workbooks", body=DUP_REQ, resp=WORKBOOK)
def duplicate(req):
    shared = bool((req.body or {}).get("shared", False))
    with LOCK:
        d = dep_of(req)
        p = req.user
        if shared:
            if not p["creatorMode"]:
                raise ApiError(403, "shared clone is only available to creator-mode embed sessions",
                               code="creator_mode_required")
            iid = int_param(req, "workbookId")
            src = get_item(d, iid, "WORKBOOK", shared=True)
            if src is None:
                raise ApiError(404, "workbook %d not found in the shared workspace" % iid, code="not_found")
            dash = DB["dashboards"].get(src["dashboardId"]) if src["dashboardId"] else None
            if dash is None:
                raise ApiError(400, "source workbook has no published dashboard", code="no_published_dashboard")
            need_role(p, "AI_BI_USER")
            wb_limit_check(d)
            wb = new_item_like(src)
            wb.update({"name": "Copy of " + src["name"], "createdBy": p["user"]["id"], "folderId": None,
                       "shared": False, "dashboardId": None})
            mapping = {}
            snaps = []
            for s in dash["reportSnapshots"]:
                rid = nid("item")
                rep = {"id": rid, "deploymentId": wb["deploymentId"], "type": "REPORT", "name": s.get("name") or "Report",
                       "meta": copy.deepcopy(s.get("meta") or {}), "calculatedFields": {}, "createdAt": now(),
                       "updatedAt": now(), "createdBy": p["user"]["id"], "folderId": None, "slug": None,
                       "dashboardDraft": None, "dashboardId": None, "workbookId": wb["id"], "shared": False,
                       "position": 0, "archived": False, "publicId": str(uuid.uuid4()), "kind": s.get("kind") or "table",
                       "title": s.get("title"), "sqlQuery": s.get("sqlQuery"), "spec": copy.deepcopy(s.get("spec")),
                       "pythonCode": s.get("pythonCode"), "externalWorkbookIds": [], "lastViewedAt": None}
                DB["items"][rid] = rep
                mapping[s["reportId"]] = rid
                ns = copy.deepcopy(s)
                ns.update({"id": nid("snap"), "reportId": rid, "versionNumber": 1})
                snaps.append(ns)
            cfg = remap_cfg(dash["config"], mapping)
            nd = copy.deepcopy(dash)
            nd.update({"id": nid("dash"), "publicId": str(uuid.uuid4()), "workbookId": wb["id"], "allowEmbed": False,
                       "config": cfg, "versionNumber": 1, "versionId": nid("dashver"), "reportSnapshots": snaps,
                       "createdBy": p["user"]["id"], "fromSharedWorkspace": True, "status": "published"})
            DB["dashboards"][nd["id"]] = nd
            wb["dashboardId"] = nd["id"]
            wb["dashboardDraft"] = copy.deepcopy(cfg)
            audit(p, "Workbook cloned", d, source=src["id"], clone=wb["id"], shared=True)
            return wb_out(wb, p)
        src = load_wb(req, d, need=1)
        need_role(p, "AI_BI_USER")
        if p["embed"] and not p["creatorMode"]:
            raise ApiError(403, "embed viewers cannot clone workbooks", code="insufficient_role")
        wb_limit_check(d)
        folder = src["folderId"] if src["folderId"] and folder_edit(p, src["folderId"]) else None
        wb = new_item_like(src)
        wb.update({"name": "Copy of " + src["name"], "createdBy": p["user"]["id"], "folderId": folder,
                   "dashboardId": None})
        mapping = {}
        for rep in [i for i in list(DB["items"].values()) if i["type"] == "REPORT" and i.get("workbookId") == src["id"]
                    and not i["archived"]]:
            mapping[rep["id"]] = copy_report(rep, wb, p, folder)["id"]
        wb["dashboardDraft"] = remap_cfg(src["dashboardDraft"], mapping) if src["dashboardDraft"] else None
        wb["meta"] = remap_meta(wb["meta"], mapping)
        dash = DB["dashboards"].get(src["dashboardId"]) if src["dashboardId"] else None
        if dash:
            nd = copy.deepcopy(dash)
            snaps = []
            for s in nd["reportSnapshots"]:
                s["id"] = nid("snap")
                s["reportId"] = mapping.get(s["reportId"], s["reportId"])
                snaps.append(s)
            nd.update({"id": nid("dash"), "publicId": str(uuid.uuid4()), "workbookId": wb["id"], "allowEmbed": False,
                       "config": remap_cfg(dash["config"], mapping), "reportSnapshots": snaps,
                       "versionId": nid("dashver"), "createdBy": p["user"]["id"]})
            DB["dashboards"][nd["id"]] = nd
            wb["dashboardId"] = nd["id"]
        audit(p, "Workbook cloned", d, source=src["id"], clone=wb["id"])
        return wb_out(wb, p)


def remap_meta(meta, mapping):
    meta = copy.deepcopy(meta)
    if isinstance(meta.get("dashboardDraft"), dict):
        meta["dashboardDraft"] = remap_cfg(meta["dashboardDraft"], mapping)
    return meta


# ------------------------------------------------------------------ E11
def convert_tabs(cfg):
    if isinstance(cfg, dict) and isinstance(cfg.get("widgets"), list):
        for w in cfg["widgets"]:
            if isinstance(w, dict) and w.get("type") == "TABS_CONTAINER":
                w["type"] = "CONTAINER"
                c = w.get("config") if isinstance(w.get("config"), dict) else {}
                c["layout"] = "tabs"
                w["config"] = c
    return cfg


def pre_upsert(body):
    if isinstance(body, dict) and isinstance(body.get("meta"), dict):
        convert_tabs(body["meta"].get("dashboardDraft"))
    return body


def normalize_dash(cfg, path="meta.dashboardDraft"):
    """Validate a DashboardConfig; TABS_CONTAINER widgets are converted to CONTAINER with config.layout=tabs."""
    if cfg is None:
        return None
    cfg = copy.deepcopy(cfg)
    if isinstance(cfg, dict) and isinstance(cfg.get("widgets"), list):
        for w in cfg["widgets"]:
            if isinstance(w, dict) and w.get("type") == "TABS_CONTAINER":
                w["type"] = "CONTAINER"
                c = w.get("config") if isinstance(w.get("config"), dict) else {}
                c["layout"] = "tabs"
                w["config"] = c
    msg = validate(DASH_CONFIG, cfg, path)
    if msg:
        raise ApiError(422, msg)
    return cfg


def _meta_merge(old, new):
    out = copy.deepcopy(old)
    for k, v in new.items():
        out[k] = copy.deepcopy(v)
    return out


@op("PUT", "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}", "upsertWorkbookBySlug",
    "Create or update a workbook identified by slug (trimmed, lowercased). On create, name defaults to the slug.",
    "workbooks", body=UPSERT_REQ, body_required=True, resp=WORKBOOK,
    extra_statuses={409: ("create/update decision changed concurrently (code upsert_branch_changed)", ERROR)},
    errors=(400, 401, 403, 404, 409, 422), pre=pre_upsert)
def upsert(req):
    b = req.body
    slug = req.params["slug"].strip().lower()
    if not slug or len(slug) > 200 or any(ord(c) < 32 or c == "\x7f" for c in slug):
        raise ApiError(422, "slug must be 1..200 printable characters")
    meta = b.get("meta")
    if meta is not None and "dashboardDraft" in meta:
        meta = dict(meta)
        meta["dashboardDraft"] = normalize_dash(meta["dashboardDraft"])
    p = req.user
    # phase 1: decide + access check
    with LOCK:
        d = dep_of(req)
        cur = next((it for it in DB["items"].values() if it["type"] == "WORKBOOK" and it["slug"] == slug
                    and str(it["deploymentId"]) == d["id"] and not it["archived"]), None)
        decided = cur["id"] if cur else None
        if cur:
            if level(p, cur) < 2:
                raise ApiError(403, "no edit access to the workbook holding slug %r" % slug, code="access_denied")
            if "folderId" in b:
                if level(p, cur) < 3:
                    raise ApiError(403, "moving requires manage access", code="access_denied")
        else:
            need_role(p, "AI_BI_USER")
            if p["embed"] and not p["creatorMode"]:
                raise ApiError(403, "embed viewers cannot create workbooks", code="insufficient_role")
        if b.get("folderId") is not None:
            f = get_item(d, b["folderId"], "FOLDER")
            if f is None:
                raise ApiError(404, "folder %d not found" % b["folderId"], code="folder_not_found")
        if "folderId" in b and not folder_edit(p, b.get("folderId")):
            raise ApiError(403, "no edit access to the destination folder", code="access_denied")
        if not cur:
            wb_limit_check(d)
    time.sleep(0.01)
    # phase 2: apply, provided the decision still holds
    with LOCK:
        d = dep_of(req)
        cur = next((it for it in DB["items"].values() if it["type"] == "WORKBOOK" and it["slug"] == slug
                    and str(it["deploymentId"]) == d["id"] and not it["archived"]), None)
        if (cur["id"] if cur else None) != decided:
            raise ApiError(409, "the workbook holding slug %r was created or deleted concurrently; retry" % slug,
                           code="upsert_branch_changed")
        if b.get("folderId") is not None and get_item(d, b["folderId"], "FOLDER") is None:
            raise ApiError(409, "destination folder changed concurrently; retry", code="upsert_branch_changed")
        if cur is None:
            from store import new_item
            cur = new_item(d["id"], "WORKBOOK", b.get("name", slug), p["user"]["id"], folder=b.get("folderId"),
                           created=now(), slug=slug, meta=copy.deepcopy(meta or {}))
            if meta and meta.get("dashboardDraft") is not None:
                cur["dashboardDraft"] = copy.deepcopy(meta["dashboardDraft"])
            audit(p, "Workbook created", d, workbook=cur["id"], slug=slug)
            return wb_out(cur, p)
        changed = False
        if "name" in b and cur["name"] != b["name"]:
            cur["name"] = b["name"]
            changed = True
        if "folderId" in b and cur["folderId"] != b["folderId"]:
            cur["folderId"] = b["folderId"]
            for r in DB["items"].values():
                if r["type"] == "REPORT" and r.get("workbookId") == cur["id"]:
                    r["folderId"] = b["folderId"]
            changed = True
        if meta:
            merged = _meta_merge(cur["meta"], meta)
            if merged != cur["meta"]:
                cur["meta"] = merged
                changed = True
            if "dashboardDraft" in meta and cur["dashboardDraft"] != meta["dashboardDraft"]:
                cur["dashboardDraft"] = copy.deepcopy(meta["dashboardDraft"])
                changed = True
        if changed:
            touch(cur)
        return wb_out(cur, p)


# ------------------------------------------------------------------ E12
def descendants_contains(folder_id, target_id):
    """True when target_id is folder_id itself or lies beneath it."""
    node = DB["items"].get(target_id)
    guard = 0
    while node is not None and guard < 100:
        if node["id"] == folder_id:
            return True
        node = DB["items"].get(node["folderId"]) if node["folderId"] else None
        guard += 1
    return False


def collapse(items):
    seen, out = set(), []
    for x in items:
        k = (x["type"], x["id"])
        if k not in seen:
            seen.add(k)
            out.append(x)
    if len(out) > 100:
        raise ApiError(422, "at most 100 distinct items per request (got %d)" % len(out), code="too_many_items")
    return out


def move_one(p, d, typ, iid, dest):
    it = get_item(d, iid, typ)
    if it is None or (typ == "REPORT" and False):
        return None, (404, "%s %d not found in deployment %s" % (typ.lower(), iid, d["id"]))
    if level(p, it) < 3:
        return None, (403, "no manage access to %s %d" % (typ.lower(), iid))
    if dest is not None:
        f = get_item(d, dest, "FOLDER")
        if f is None:
            return None, (400, "destination folder %d does not exist" % dest)
    if not folder_edit(p, dest):
        return None, (403, "no edit access to the destination folder")
    if typ == "FOLDER" and dest is not None and descendants_contains(iid, dest):
        return None, (400, "cannot move a folder into itself or one of its descendants")
    if typ == "REPORT" and it.get("workbookId"):
        it["workbookId"] = None
    if it["folderId"] != dest:
        it["folderId"] = dest
        touch(it)
        if typ == "WORKBOOK":
            for r in DB["items"].values():
                if r["type"] == "REPORT" and r.get("workbookId") == it["id"]:
                    r["folderId"] = dest
    return it, None


@op("POST", "/api/v1/deployments/{deploymentId}/workspace/bulk-move", "bulkMoveWorkspaceItems",
    "Move up to 100 distinct workspace items; per-item failures are reported, earlier moves are kept",
    "workspace", body=BULK_MOVE_REQ, body_required=True, resp=BULK_MOVE_RESP)
def bulk_move(req):
    items = collapse(req.body["items"])
    dest = req.body["folderId"]
    with LOCK:
        d = dep_of(req)
    moved, failed = [], []
    for x in items:
        with LOCK:
            it, err = move_one(req.user, d, x["type"], x["id"], dest)
            if err:
                failed.append({"type": x["type"], "id": x["id"], "error": {"message": err[1], "status": err[0]}})
            else:
                moved.append(wb_out(it, req.user))
    if moved:
        with LOCK:
            audit(req.user, "Workspace items moved", d, count=len(moved))
    return {"moved": moved, "failed": failed}


# ------------------------------------------------------------------ E13
def mask(name, value):
    up = name.upper()
    return "[ENCRYPTED]" if any(w in up for w in SECRET_WORDS) else value


def env_var_list(d, q):
    vs = [{"name": k, "value": mask(k, v)} for k, v in DB["env_vars"][d["id"]].items()]
    page, info = cursor_page(vs, q.get("first"), q.get("after"), default=10)
    return {"items": page, "data": list(page), "pageInfo": info}


@op("GET", "/api/v1/deployments/{deploymentId}/env-vars", "listEnvVars",
    "List environment variables in creation order (secret-named values masked); default page size 10",
    "deployments", query=CURSOR_Q, resp=ENV_VARS_LIST)
def list_env_vars(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        return env_var_list(d, req.query)


@op("PUT", "/api/v1/deployments/{deploymentId}/env-vars", "setEnvVars",
    "Add or update environment variables by name (others keep their values); answers the first page of the list",
    "deployments", query=CURSOR_Q, body=ENV_VARS_PUT, body_required=True, resp=ENV_VARS_LIST)
def set_env_vars(req):
    for v in req.body["env_variables"]:
        if v["value"] == "[ENCRYPTED]":
            raise ApiError(422, "value of %s is the [ENCRYPTED] placeholder; send the real value" % v["name"],
                           code="placeholder_value")
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        for v in req.body["env_variables"]:
            DB["env_vars"][d["id"]][v["name"]] = v["value"]
        audit(req.user, "Environment variables updated", d, names=[v["name"] for v in req.body["env_variables"]],
              value="[HIDDEN]")
        return env_var_list(d, req.query)

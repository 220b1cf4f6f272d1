"""E14 operation families."""
import copy
import datetime as _dt
import hashlib
import re
import uuid

from core import (op, ApiError, LOCK, build_openapi, ANYOBJ, qp, ts, now, nullable, obj, arr, S, I, N, B, DT,
                  schema, ref, cursor_list, FIRST, AFTER, CURSOR_Q, validate)
from schemas import *  # noqa
from api import (dep_of, need_role, need_perm, int_param, get_item, level, folder_edit, wb_out, load_wb, audit,
                 branch_out, find_branch, dep_full, touch, owner, env_var_list, collapse, normalize_dash,
                 convert_tabs, wb_limit_check)
import store
from store import DB, nid, rhash, ROLE_RANK

BASE_URL = ["http://127.0.0.1"]
OK = schema("OkResponse", obj({"ok": B, "id": {"type": ["integer", "string"]}}, ["ok"]))


def ok(id_=None):
    out = {"ok": True}
    if id_ is not None:
        out["id"] = id_
    return out


@op("GET", "/api/v1/spec", "getOpenApiSpec", "The OpenAPI 3.1 document of this server", "meta",
    resp={"type": "object", "additionalProperties": True}, errors=(401, 403))
def spec(req):
    return build_openapi(BASE_URL[0])


APP_CONFIG = schema("AppConfig", obj({"appTheme": ANYOBJ, "applyThemeGlobally": B, "creatorMode": ANYOBJ,
                                      "embedding": ANYOBJ, "sheetsUi": ANYOBJ, "timezoneSettings": ANYOBJ},
                                     ["appTheme", "applyThemeGlobally", "creatorMode", "embedding", "sheetsUi",
                                      "timezoneSettings"]))


@op("GET", "/api/v1/app-config", "getAppConfig", "App configuration", "meta", resp=APP_CONFIG, errors=(401, 403))
def app_config(req):
    with LOCK:
        return copy.deepcopy(DB["app_config"])


# ------------------------------------------------------------------ deployment management
SETTINGS = data_of("DeploymentSettingsResponse", obj({
    "deployment": DEPLOYMENT, "envVarNames": arr(S), "branches": arr(S), "workbookLimit": nullable(I),
    "auditLogEnabled": B}, ["deployment", "envVarNames", "branches", "workbookLimit", "auditLogEnabled"]))


@op("GET", "/api/v1/deployments/{deploymentId}/settings", "getDeploymentSettings",
    "All deployment settings; secret values are never included", "deployments", resp=SETTINGS)
def dep_settings(req):
    with LOCK:
        d = dep_of(req)
        return {"data": {"deployment": dep_full(d), "envVarNames": list(DB["env_vars"][d["id"]]),
                         "branches": [b["name"] for b in DB["branches"][d["id"]]],
                         "workbookLimit": d["workbookLimit"], "auditLogEnabled": DB["tenant"]["auditLogEnabled"]}}


DELETED = schema("DeletedResponse", obj({"data": obj({"id": {"type": ["integer", "string"]}, "deleted": B},
                                                     ["id", "deleted"])}, ["data"]))


@op("DELETE", "/api/v1/deployments/{deploymentId}", "deleteDeployment", "Delete a deployment (admin)",
    "deployments", resp=DELETED)
def delete_deployment(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "ADMIN")
        del DB["deployments"][d["id"]]
        audit(req.user, "Deployment deleted", d)
        return {"data": {"id": d["id"], "deleted": True}}


BUILD_STATUS = data_of("BuildStatusResponse", obj({
    "branchName": S, "status": {"type": "string", "enum": ["queued", "building", "deployed", "failed"]},
    "lastHash": S, "updatedAt": DT, "buildId": I}, ["branchName", "status", "lastHash", "updatedAt", "buildId"]))


def build_state(b):
    age = (now() - b["buildUpdatedAt"]).total_seconds()
    st = b["buildStatus"]
    if st == "queued" and age > 1:
        st = "building"
    if st in ("queued", "building") and age > 3:
        st = "deployed"
        b["buildStatus"] = st
    return st


@op("GET", "/api/v1/deployments/{deploymentId}/build-status", "getBuildStatus",
    "Build/deploy state of a branch (default: the production branch)", "deployments",
    query=[qp("branchName", {"type": "string", "minLength": 1, "maxLength": 200})], resp=BUILD_STATUS)
def build_status(req):
    with LOCK:
        d = dep_of(req)
        b = find_branch(d, name=req.query.get("branchName", "main"))
        return {"data": {"branchName": b["name"], "status": build_state(b), "lastHash": b["lastHash"],
                         "updatedAt": ts(b["buildUpdatedAt"]), "buildId": 1000 + b["id"] * 7 + d["buildSeq"]}}


LOG_ENTRY = schema("LogEntry", obj({"timestamp": DT, "source": S, "container": S, "level": S, "message": S},
                                   ["timestamp", "source", "container", "level", "message"]))
CONTAINERS = ["INIT", "MAIN", "vector", "api-proxy", "cube"]


@op("GET", "/api/v1/deployments/{deploymentId}/logs", "getDeploymentLogs", "Container logs (newest first)",
    "deployments", query=[qp("source", {"type": "string", "enum": ["production", "dev"]}),
                          qp("container", {"type": "string", "enum": CONTAINERS}), FIRST, AFTER],
    resp=cursor_list_schema("LogsListResponse", LOG_ENTRY, legacy=False))
def logs(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
    src = req.query.get("source")
    cont = req.query.get("container")
    base = now()
    rows = []
    for n in range(60):
        s = ["production", "dev"][n % 2]
        c = CONTAINERS[n % 5]
        if (src and s != src) or (cont and c != cont):
            continue
        rows.append({"timestamp": ts(base - _dt.timedelta(seconds=n * 37)), "source": s, "container": c,
                     "level": ["info", "info", "warn", "debug", "error"][n % 5],
                     "message": "[%s] %s" % (c, ["Query completed in 42ms", "Refresh scheduler tick",
                                                 "Slow query detected", "Cache hit", "Connection reset by peer"][n % 5])})
    return cursor_list(rows, req.query, default=20, legacy=False)


POD = schema("Pod", obj({"name": S, "status": S, "ready": B, "restarts": I, "startedAt": DT, "containers": arr(S),
                         "environment": S}, ["name", "status", "ready", "restarts", "startedAt", "containers",
                                             "environment"]))


@op("GET", "/api/v1/deployments/{deploymentId}/pods", "listPods", "Pods of the deployment", "deployments",
    resp=obj({"items": arr(POD)}, ["items"]))
def pods(req):
    with LOCK:
        d = dep_of(req)
        out = []
        for n, name in enumerate(["api", "api", "refresh-worker", "cubestore-router"]):
            out.append({"name": "%s-%s-%s" % (name, d["id"], hashlib.md5(("%s%d" % (name, n)).encode()).hexdigest()[:5]),
                        "status": "Running", "ready": True, "restarts": n % 2,
                        "startedAt": ts(d["podsStarted"]), "containers": ["MAIN", "vector", "api-proxy"],
                        "environment": "production"})
        return {"items": out}


STEPS = ["select-provider", "connect-source", "configure-database", "generate-model", "done"]
STEP_RESP = data_of("CreationStepResponse", obj({"deploymentId": S, "creationStep": {"type": "string", "enum": STEPS},
                                                 "steps": arr(S)}, ["deploymentId", "creationStep", "steps"]))


@op("POST", "/api/v1/deployments/{deploymentId}/creation-step/advance", "advanceCreationStep",
    "Advance the setup wizard one step (409 when already done)", "deployments", resp=STEP_RESP,
    errors=(401, 403, 404, 409))
def step_advance(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        i = STEPS.index(d["creationStep"])
        if i == len(STEPS) - 1:
            raise ApiError(409, "setup wizard already finished", code="wizard_finished")
        d["creationStep"] = STEPS[i + 1]
        return {"data": {"deploymentId": d["id"], "creationStep": d["creationStep"], "steps": STEPS}}


@op("POST", "/api/v1/deployments/{deploymentId}/creation-step/reset", "resetCreationStep",
    "Reset the setup wizard to its first step", "deployments", resp=STEP_RESP)
def step_reset(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        d["creationStep"] = STEPS[0]
        return {"data": {"deploymentId": d["id"], "creationStep": d["creationStep"], "steps": STEPS}}


REGION = schema("Region", obj({"id": S, "name": S, "cloudProvider": S, "available": B},
                              ["id", "name", "cloudProvider", "available"]))
REGIONS = [("us-east-1", "US East (N. Virginia)", "aws"), ("us-west-2", "US West (Oregon)", "aws"),
           ("eu-central-1", "Europe (Frankfurt)", "aws"), ("europe-west3", "Frankfurt", "gcp"),
           ("us-central1", "Iowa", "gcp"), ("hosted-eu", "Hosted EU", "hosted"), ("hosted-us", "Hosted US", "hosted")]


@op("GET", "/api/v1/regions/", "listRegions", "Regions available to the tenant", "deployments",
    query=[qp("cloudProvider", {"type": "string", "enum": ["hosted", "aws", "gcp"]}), FIRST, AFTER],
    resp=cursor_list_schema("RegionsListResponse", REGION))
def regions(req):
    rs = [{"id": a, "name": b, "cloudProvider": c, "available": a != "us-central1"} for a, b, c in REGIONS]
    if req.query.get("cloudProvider"):
        rs = [r for r in rs if r["cloudProvider"] == req.query["cloudProvider"]]
    return cursor_list(rs, req.query, default=10)


CREATE_DEP = schema("CreateDeploymentRequest", obj({
    "name": {"type": "string", "minLength": 1, "maxLength": 200},
    "cloudProvider": {"type": "string", "enum": ["hosted", "aws", "gcp"]},
    "region": {"type": "string", "minLength": 1, "maxLength": 100},
    "creationMethod": {"type": "string", "enum": ["upload", "hosted", "github", "ssh"]},
    "deployMode": {"type": "string", "enum": ["git", "cli"]},
    "releaseChannel": {"type": "string", "enum": ["latest", "release"]}}, ["name"]))


@op("POST", "/build/api/v1/deployments/", "createDeployment", "Create a deployment", "deployments",
    body=CREATE_DEP, body_required=True, resp=DEPLOYMENT_RESP)
def create_deployment(req):
    b = req.body
    with LOCK:
        need_role(req.user, "DEVELOPER")
        if req.user["deployments"] is not None:
            raise ApiError(403, "deployment-scoped keys cannot create deployments", code="deployment_forbidden")
        region = b.get("region", "hosted-eu")
        if region not in [r[0] for r in REGIONS]:
            raise ApiError(422, "unknown region %r" % region[:50])
        did = str(nid("deploy"))
        ch = b.get("releaseChannel", "latest")
        v = next(x for x in DB["versions"] if x["releaseChannel"] == ch and x["isLatestInChannel"])
        d = store.new_deployment(did, b["name"], b.get("cloudProvider", "hosted"), region, ch, v["version"], 0,
                                 b.get("creationMethod", "hosted"), b.get("deployMode", "git"), step=STEPS[0])
        d["created_at"] = d["updated_at"] = now()
        DB["envs"][did].append({"id": "env-%s-prod" % did, "name": "Production", "type": "production",
                                "branch": "main", "user": req.user["user"]["email"], "createdAt": now()})
        audit(req.user, "Deployment created", d)
        return {"data": dep_full(d)}


# ------------------------------------------------------------------ data model files
FILE_ITEM = schema("DataModelFile", obj({"path": S, "size": I, "hash": S, "content": S}, ["path", "size", "hash"]))
PATH_RX = r"^(?!/)(?!.*\.\.)[A-Za-z0-9_./-]{1,300}$"
BRANCH_Q = qp("branchName", {"type": "string", "minLength": 1, "maxLength": 200}, desc="branch (default main)")


def fhash(c):
    return hashlib.sha1(c.encode("utf-8")).hexdigest()


def fitem(p, c, content=False):
    x = {"path": p, "size": len(c.encode("utf-8")), "hash": fhash(c)}
    if content:
        x["content"] = c
    return x


@op("GET", "/build/api/v1/deployments/{deploymentId}/data-model/files", "listDataModelFiles",
    "List data-model files of a branch (path order); with `path`, only that file including its content",
    "data-model", query=[BRANCH_Q, qp("path", {"type": "string", "pattern": PATH_RX}), FIRST, AFTER],
    resp=cursor_list_schema("DataModelFilesListResponse", FILE_ITEM))
def list_files(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        b = find_branch(d, name=req.query.get("branchName", "main"))
        if "path" in req.query:
            c = b["files"].get(req.query["path"])
            if c is None:
                raise ApiError(404, "file not found", code="file_not_found")
            return cursor_list([fitem(req.query["path"], c, True)], {})
        rows = [fitem(p, c) for p, c in sorted(b["files"].items())]
        return cursor_list(rows, req.query, default=50)


def dev_branch(req, d, name):
    b = find_branch(d, name=name)
    if not b["devMode"]:
        raise ApiError(409, "branch %s is not in dev mode; writes are only allowed on dev-mode branches" % b["name"],
                       code="not_in_dev_mode")
    return b


WRITE_FILES = schema("WriteFilesRequest", obj({
    "branchName": {"type": "string", "minLength": 1, "maxLength": 200},
    "files": arr(obj({"path": {"type": "string", "pattern": PATH_RX}, "content": {"type": "string", "maxLength": 500000}},
                     ["path", "content"]), minItems=1, maxItems=200)}, ["branchName", "files"]))
FILES_RESULT = data_of("FilesWriteResponse", obj({"branchName": S, "files": arr(FILE_ITEM)}, ["branchName", "files"]))


@op("PUT", "/build/api/v1/deployments/{deploymentId}/data-model/files", "writeDataModelFiles",
    "Create or overwrite files on a dev-mode branch (409 otherwise)", "data-model", body=WRITE_FILES,
    body_required=True, resp=FILES_RESULT, errors=(400, 401, 403, 404, 409, 422))
def write_files(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        b = dev_branch(req, d, req.body["branchName"])
        for f in req.body["files"]:
            b["files"][f["path"]] = f["content"]
        return {"data": {"branchName": b["name"], "files": [fitem(f["path"], f["content"]) for f in req.body["files"]]}}


@op("DELETE", "/build/api/v1/deployments/{deploymentId}/data-model/files", "deleteDataModelFiles",
    "Remove files (repeat `path`) from a dev-mode branch", "data-model",
    query=[qp("branchName", {"type": "string", "minLength": 1, "maxLength": 200}, required=True),
           qp("path", arr({"type": "string", "pattern": PATH_RX}), required=True)],
    resp=data_of("FilesDeleteResponse", obj({"branchName": S, "deleted": arr(S)}, ["branchName", "deleted"])),
    errors=(400, 401, 403, 404, 409, 422))
def delete_files(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        b = dev_branch(req, d, req.query["branchName"])
        missing = [p for p in req.query["path"] if p not in b["files"]]
        if missing:
            raise ApiError(404, "file not found: %s" % missing[0], code="file_not_found")
        for p in req.query["path"]:
            b["files"].pop(p, None)
        return {"data": {"branchName": b["name"], "deleted": list(dict.fromkeys(req.query["path"]))}}


RENAME = schema("RenameFilesRequest", obj({
    "branchName": {"type": "string", "minLength": 1, "maxLength": 200},
    "renames": arr(obj({"from": {"type": "string", "pattern": PATH_RX}, "to": {"type": "string", "pattern": PATH_RX}},
                       ["from", "to"]), minItems=1, maxItems=100)}, ["branchName", "renames"]))


@op("POST", "/build/api/v1/deployments/{deploymentId}/data-model/files/rename", "renameDataModelFiles",
    "Rename files on a dev-mode branch (all or nothing)", "data-model", body=RENAME, body_required=True,
    resp=FILES_RESULT, errors=(400, 401, 403, 404, 409, 422))
def rename_files(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        b = dev_branch(req, d, req.body["branchName"])
        files = dict(b["files"])
        for r in req.body["renames"]:
            if r["from"] not in files:
                raise ApiError(404, "file not found: %s" % r["from"], code="file_not_found")
            if r["to"] in files and r["to"] != r["from"]:
                raise ApiError(409, "target exists: %s" % r["to"], code="file_exists")
            files[r["to"]] = files.pop(r["from"])
        b["files"] = files
        return {"data": {"branchName": b["name"], "files": [fitem(r["to"], files[r["to"]]) for r in req.body["renames"]]}}


COMPILE_ERR = schema("CompileError", obj({"file": S, "line": I, "message": S}, ["file", "line", "message"]))
VALIDATE_RESP = data_of("ValidateResponse", obj({"branchName": S, "valid": B, "errors": arr(COMPILE_ERR),
                                                 "cubes": I, "views": I}, ["branchName", "valid", "errors", "cubes", "views"]))


def compile_files(files):
    errs, cubes, views = [], 0, 0
    for p, c in sorted(files.items()):
        if p.endswith((".yml", ".yaml")):
            for n, line in enumerate(c.splitlines(), 1):
                if "\t" in line:
                    errs.append({"file": p, "line": n, "message": "tab characters are not allowed in YAML"})
                    break
            first = next((ln for ln in c.splitlines() if ln.strip() and not ln.strip().startswith("#")), "")
            if first.strip() not in ("cubes:", "views:"):
                errs.append({"file": p, "line": 1, "message": "top-level key must be 'cubes:' or 'views:'"})
            cubes += c.count("- name:") if first.strip() == "cubes:" else 0
            views += c.count("- name:") if first.strip() == "views:" else 0
        elif p.endswith(".js"):
            for a, z in ("()", "{}", "[]"):
                if c.count(a) != c.count(z):
                    errs.append({"file": p, "line": 1, "message": "unbalanced %s%s" % (a, z)})
    return errs, cubes, views


@op("GET", "/build/api/v1/deployments/{deploymentId}/data-model/validate", "validateDataModel",
    "Compile a branch; compilation errors come back with 200 and valid=false", "data-model", query=[BRANCH_Q],
    resp=VALIDATE_RESP)
def validate_model(req):
    with LOCK:
        d = dep_of(req)
        b = find_branch(d, name=req.query.get("branchName", "main"))
        errs, c, v = compile_files(b["files"])
        return {"data": {"branchName": b["name"], "valid": not errs, "errors": errs, "cubes": c, "views": v}}


@op("GET", "/build/api/v1/deployments/{deploymentId}/data-model/file-hashes", "getFileHashes",
    "SHA-1 of every file of a branch", "data-model", query=[BRANCH_Q],
    resp=data_of("FileHashesResponse", obj({"branchName": S, "hashes": {"type": "object", "additionalProperties": S}},
                                           ["branchName", "hashes"])))
def file_hashes(req):
    with LOCK:
        d = dep_of(req)
        b = find_branch(d, name=req.query.get("branchName", "main"))
        return {"data": {"branchName": b["name"], "hashes": {p: fhash(c) for p, c in sorted(b["files"].items())}}}


UPLOAD = schema("Upload", obj({"uploadId": S, "branchName": S, "files": arr(S), "status": S, "createdAt": DT},
                              ["uploadId", "branchName", "files", "status", "createdAt"]))


def upload_out(u):
    return {"uploadId": u["id"], "branchName": u["branchName"], "files": sorted(u["files"]), "status": u["status"],
            "createdAt": ts(u["createdAt"])}


@op("POST", "/build/api/v1/deployments/{deploymentId}/data-model/upload/start", "startUpload",
    "Start a chunked upload that will replace the branch's files on finish", "data-model",
    body=obj({"branchName": {"type": "string", "minLength": 1, "maxLength": 200}}), resp=data_of("UploadResponse", UPLOAD))
def upload_start(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        b = find_branch(d, name=(req.body or {}).get("branchName", "main"))
        uid = "upl_%d_%s" % (nid("upload"), uuid.uuid4().hex[:8])
        DB["uploads"][uid] = {"id": uid, "deployment": d["id"], "branchName": b["name"], "files": {},
                              "status": "open", "createdAt": now()}
        return {"data": upload_out(DB["uploads"][uid])}


def get_upload(d, uid):
    u = DB["uploads"].get(uid)
    if not u or u["deployment"] != d["id"]:
        raise ApiError(404, "upload not found", code="upload_not_found")
    if u["status"] != "open":
        raise ApiError(409, "upload already finished", code="upload_closed")
    return u


@op("POST", "/build/api/v1/deployments/{deploymentId}/data-model/upload/file", "uploadFile",
    "Add one file (or one more chunk of it, appended) to an open upload", "data-model",
    body=obj({"uploadId": {"type": "string", "maxLength": 100}, "path": {"type": "string", "pattern": PATH_RX},
              "content": {"type": "string", "maxLength": 1000000}, "append": B}, ["uploadId", "path", "content"]),
    body_required=True, resp=data_of("UploadResponse2", UPLOAD), errors=(400, 401, 403, 404, 409, 422))
def upload_file(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        u = get_upload(d, req.body["uploadId"])
        p = req.body["path"]
        if req.body.get("append") and p in u["files"]:
            u["files"][p] += req.body["content"]
        else:
            u["files"][p] = req.body["content"]
        return {"data": upload_out(u)}


@op("POST", "/build/api/v1/deployments/{deploymentId}/data-model/upload/finish", "finishUpload",
    "Finish an upload: the branch's files are replaced and a commit is made", "data-model",
    body=obj({"uploadId": {"type": "string", "maxLength": 100}}, ["uploadId"]), body_required=True,
    resp=data_of("UploadFinishResponse", obj({"upload": UPLOAD, "branch": BRANCH}, ["upload", "branch"])),
    errors=(400, 401, 403, 404, 409, 422))
def upload_finish(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        u = get_upload(d, req.body["uploadId"])
        if not u["files"]:
            raise ApiError(422, "upload has no files")
        b = find_branch(d, name=u["branchName"])
        b["files"] = dict(u["files"])
        b["lastHash"] = rhash()
        b["buildStatus"], b["buildUpdatedAt"] = "queued", now()
        u["status"] = "finished"
        return {"data": {"upload": upload_out(u), "branch": branch_out(b)}}


DEV_MODE = data_of("DevModeResponse", obj({"branchName": S, "devMode": B, "environmentId": nullable(S)},
                                          ["branchName", "devMode", "environmentId"]))


def personal_name(p):
    return "dev-" + re.sub(r"[^a-z0-9]+", "-", p["user"]["email"].split("@")[0].lower())


@op("POST", "/build/api/v1/deployments/{deploymentId}/dev-mode", "startDevMode",
    "Enter dev mode on the caller's personal branch (created from main when missing)", "dev-mode", resp=DEV_MODE)
def dev_on(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        name = personal_name(req.user)
        b = find_branch(d, name=name, required=False)
        if b is None:
            b = store.add_branch(d["id"], name, "main", "personal", owner=req.user["user"]["email"])
            b["createdAt"] = now()
        b["devMode"] = True
        return {"data": {"branchName": b["name"], "devMode": True, "environmentId": "env-%s-dev-%d" % (d["id"], b["id"])}}


@op("DELETE", "/build/api/v1/deployments/{deploymentId}/dev-mode", "stopDevMode", "Leave dev mode", "dev-mode",
    resp=DEV_MODE)
def dev_off(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        b = find_branch(d, name=personal_name(req.user), required=False)
        if b is None or not b["devMode"]:
            raise ApiError(404, "caller is not in dev mode", code="not_in_dev_mode")
        b["devMode"] = False
        return {"data": {"branchName": b["name"], "devMode": False, "environmentId": None}}


# ------------------------------------------------------------------ branches
BRANCH_NAME = {"type": "string", "minLength": 1, "maxLength": 200, "pattern": r"^[A-Za-z0-9][A-Za-z0-9._/-]*$"}


@op("GET", "/build/api/v1/deployments/{deploymentId}/branches", "listBranches", "List branches (creation order)",
    "branches", query=CURSOR_Q, resp=cursor_list_schema("BranchesListResponse", BRANCH))
def list_branches(req):
    with LOCK:
        d = dep_of(req)
        return cursor_list([branch_out(b) for b in DB["branches"][d["id"]]], req.query, default=10)


@op("POST", "/build/api/v1/deployments/{deploymentId}/branches", "createBranch",
    "Create a shared branch from `from` (default main)", "branches",
    body=obj({"name": BRANCH_NAME, "from": {"type": "string", "maxLength": 200}, "activate": B}, ["name"]),
    body_required=True, resp=BRANCH_RESP, errors=(400, 401, 403, 404, 409, 422))
def create_branch(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        if find_branch(d, name=req.body["name"], required=False):
            raise ApiError(409, "branch already exists", code="branch_exists")
        find_branch(d, name=req.body.get("from", "main"))
        b = store.add_branch(d["id"], req.body["name"], req.body.get("from", "main"), "shared")
        b["createdAt"] = now()
        b["devMode"] = bool(req.body.get("activate"))
        return {"data": branch_out(b)}


@op("DELETE", "/build/api/v1/deployments/{deploymentId}/branches", "deleteBranch",
    "Delete a branch; its children are re-parented to its parent", "branches",
    query=[qp("branchName", {"type": "string", "minLength": 1, "maxLength": 200}, required=True),
           qp("removeOnUpstream", B)],
    resp=data_of("BranchDeleteResponse", obj({"name": S, "deleted": B, "removedOnUpstream": B,
                                              "reparented": arr(S)}, ["name", "deleted", "removedOnUpstream", "reparented"])))
def delete_branch(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        b = find_branch(d, name=req.query["branchName"])
        if b["kind"] == "production":
            raise ApiError(422, "the production branch cannot be deleted", code="production_branch")
        rep = []
        for c in DB["branches"][d["id"]]:
            if c["parentBranch"] == b["name"]:
                c["parentBranch"] = b["parentBranch"]
                rep.append(c["name"])
        DB["branches"][d["id"]].remove(b)
        return {"data": {"name": b["name"], "deleted": True, "removedOnUpstream": bool(req.query.get("removeOnUpstream")),
                         "reparented": rep}}


GIT_RESULT = data_of("GitOperationResponse", obj({"operation": S, "branchName": S, "lastHash": S, "message": S,
                                                  "changedFiles": I}, ["operation", "branchName", "lastHash", "message",
                                                                       "changedFiles"]))
BR_BODY = {"type": "string", "minLength": 1, "maxLength": 200}


def git_result(opn, b, msg, n):
    return {"data": {"operation": opn, "branchName": b["name"], "lastHash": b["lastHash"], "message": msg,
                     "changedFiles": n}}


@op("POST", "/build/api/v1/deployments/{deploymentId}/commit", "commitBranch", "Commit a branch's changes",
    "branches", body=obj({"branchName": BR_BODY, "message": {"type": "string", "minLength": 1, "maxLength": 2000}},
                         ["branchName", "message"]), body_required=True, resp=GIT_RESULT)
def commit(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        b = find_branch(d, name=req.body["branchName"])
        b["lastHash"] = rhash()
        b["buildStatus"], b["buildUpdatedAt"] = "queued", now()
        return git_result("commit", b, req.body["message"], len(b["files"]))


@op("POST", "/build/api/v1/deployments/{deploymentId}/pull", "pullBranch", "Pull the remote into a branch",
    "branches", body=obj({"branchName": BR_BODY}, ["branchName"]), body_required=True, resp=GIT_RESULT)
def pull(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        b = find_branch(d, name=req.body["branchName"])
        return git_result("pull", b, "Already up to date.", 0)


def merge_into(d, src, dst):
    n = sum(1 for p, c in src["files"].items() if dst["files"].get(p) != c)
    dst["files"].update(src["files"])
    dst["lastHash"] = rhash()
    dst["buildStatus"], dst["buildUpdatedAt"] = "queued", now()
    return n


@op("POST", "/build/api/v1/deployments/{deploymentId}/merge", "mergeBranch",
    "Merge sourceBranch into targetBranch (default: the source's parent)", "branches",
    body=obj({"sourceBranch": BR_BODY, "targetBranch": BR_BODY}, ["sourceBranch"]), body_required=True,
    resp=GIT_RESULT, errors=(400, 401, 403, 404, 409, 422))
def merge(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        src = find_branch(d, name=req.body["sourceBranch"])
        tgt_name = req.body.get("targetBranch") or src["parentBranch"]
        if not tgt_name or tgt_name == src["name"]:
            raise ApiError(409, "no merge target", code="no_merge_target")
        dst = find_branch(d, name=tgt_name)
        n = merge_into(d, src, dst)
        return git_result("merge", dst, "Merged %s into %s" % (src["name"], dst["name"]), n)


@op("POST", "/build/api/v1/deployments/{deploymentId}/merge-to-default", "mergeToDefault",
    "Merge a branch into the production branch", "branches", body=obj({"branchName": BR_BODY}, ["branchName"]),
    body_required=True, resp=GIT_RESULT, errors=(400, 401, 403, 404, 409, 422))
def merge_default(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        src = find_branch(d, name=req.body["branchName"])
        if src["kind"] == "production":
            raise ApiError(409, "branch is the default branch", code="no_merge_target")
        dst = find_branch(d, name="main")
        n = merge_into(d, src, dst)
        return git_result("merge-to-default", dst, "Merged %s into main" % src["name"], n)


@op("POST", "/build/api/v1/deployments/{deploymentId}/github/connect", "connectGithub",
    "Connect the deployment to a GitHub repository", "integrations",
    body=obj({"repository": {"type": "string", "pattern": r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$", "maxLength": 200},
              "branch": {"type": "string", "minLength": 1, "maxLength": 200}, "installationId": I}, ["repository"]),
    body_required=True, resp=DEPLOYMENT_RESP)
def gh_connect(req):
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        d["githubRepository"] = req.body["repository"]
        d["creationMethod"], d["deployMode"] = "github", "git"
        d["updated_at"] = now()
        return {"data": dep_full(d)}


# ------------------------------------------------------------------ dbt sync
DBT_JOB = schema("DbtSyncJob", obj({
    "id": I, "status": {"type": "string", "enum": ["queued", "running", "succeeded", "failed", "cancelled"]},
    "trigger": {"type": "string", "enum": ["manual", "schedule", "api"]}, "branchName": S, "ref": nullable(S),
    "createdAt": DT, "startedAt": nullable(DT), "finishedAt": nullable(DT), "createdBy": nullable(I)},
    ["id", "status", "trigger", "branchName", "ref", "createdAt", "startedAt", "finishedAt", "createdBy"]))


def job_state(j):
    if j["fixed"]:
        return j
    age = (now() - j["createdAt"]).total_seconds()
    if j["cancelRequested"]:
        j["status"], j["fixed"] = "cancelled", True
        j["finishedAt"] = j["finishedAt"] or now()
    elif age >= 3:
        j["status"], j["fixed"] = "succeeded", True
        j["startedAt"] = j["startedAt"] or j["createdAt"] + _dt.timedelta(seconds=1)
        j["finishedAt"] = j["createdAt"] + _dt.timedelta(seconds=3)
    elif age >= 1:
        j["status"] = "running"
        j["startedAt"] = j["createdAt"] + _dt.timedelta(seconds=1)
    return j


def job_out(j):
    j = job_state(j)
    return {"id": j["id"], "status": j["status"], "trigger": j["trigger"], "branchName": j["branchName"],
            "ref": j["ref"], "createdAt": ts(j["createdAt"]), "startedAt": ts(j["startedAt"]),
            "finishedAt": ts(j["finishedAt"]), "createdBy": j["createdBy"]}


@op("POST", "/api/v1/deployments/{deploymentId}/dbt-sync", "startDbtSync",
    "Start a dbt sync (queued, running after ~1 s, succeeded after ~3 s)", "dbt",
    body=obj({"branchName": BR_BODY, "ref": {"type": "string", "minLength": 1, "maxLength": 200}}),
    resp=data_of("DbtSyncJobResponse", DBT_JOB))
def dbt_start(req):
    b = req.body or {}
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "DEVELOPER")
        br = find_branch(d, name=b.get("branchName", "main"))
        jid = nid("dbt")
        DB["dbt"][d["id"]][jid] = {"id": jid, "status": "queued", "trigger": "api", "branchName": br["name"],
                                   "ref": b.get("ref"), "createdAt": now(), "startedAt": None, "finishedAt": None,
                                   "fixed": False, "cancelRequested": False, "createdBy": req.user["user"]["id"]}
        return {"data": job_out(DB["dbt"][d["id"]][jid])}


@op("GET", "/api/v1/deployments/{deploymentId}/dbt-sync", "listDbtSyncs", "dbt sync run history, newest first",
    "dbt", query=[qp("status", {"type": "string", "enum": ["queued", "running", "succeeded", "failed", "cancelled"]}),
                  qp("trigger", {"type": "string", "enum": ["manual", "schedule", "api"]}), FIRST, AFTER],
    resp=cursor_list_schema("DbtSyncListResponse", DBT_JOB))
def dbt_list(req):
    with LOCK:
        d = dep_of(req)
        rows = [job_out(j) for j in sorted(DB["dbt"][d["id"]].values(), key=lambda j: j["id"], reverse=True)]
    if req.query.get("status"):
        rows = [r for r in rows if r["status"] == req.query["status"]]
    if req.query.get("trigger"):
        rows = [r for r in rows if r["trigger"] == req.query["trigger"]]
    return cursor_list(rows, req.query, default=10)


def get_job(req):
    d = dep_of(req)
    jid = int_param(req, "syncJobId")
    j = DB["dbt"][d["id"]].get(jid)
    if not j:
        raise ApiError(404, "sync job not found", code="not_found")
    return d, job_state(j)


@op("GET", "/api/v1/deployments/{deploymentId}/dbt-sync/{syncJobId}", "getDbtSync", "Poll a dbt sync", "dbt",
    resp=data_of("DbtSyncJobResponse2", DBT_JOB))
def dbt_get(req):
    with LOCK:
        d, j = get_job(req)
        return {"data": job_out(j)}


@op("DELETE", "/api/v1/deployments/{deploymentId}/dbt-sync/{syncJobId}", "cancelDbtSync",
    "Cancel a queued or running dbt sync (409 when already finished)", "dbt",
    resp=data_of("DbtSyncJobResponse3", DBT_JOB), errors=(401, 403, 404, 409))
def dbt_cancel(req):
    with LOCK:
        d, j = get_job(req)
        need_role(req.user, "DEVELOPER")
        if j["fixed"]:
            raise ApiError(409, "sync job already %s" % j["status"], code="job_finished")
        j["cancelRequested"] = True
        return {"data": job_out(j)}


DBT_RESULT = data_of("DbtSyncResultResponse", obj({"jobId": I, "status": S, "modelsSynced": I, "cubesCreated": arr(S),
                                                   "warnings": arr(S)}, ["jobId", "status", "modelsSynced",
                                                                         "cubesCreated", "warnings"]))


@op("GET", "/api/v1/deployments/{deploymentId}/dbt-sync/{syncJobId}/result", "getDbtSyncResult",
    "Result of a finished dbt sync (409 while still queued/running)", "dbt", resp=DBT_RESULT,
    errors=(401, 403, 404, 409))
def dbt_result(req):
    with LOCK:
        d, j = get_job(req)
        if not j["fixed"]:
            raise ApiError(409, "sync job still %s" % j["status"], code="job_not_finished")
        ok_ = j["status"] == "succeeded"
        return {"data": {"jobId": j["id"], "status": j["status"], "modelsSynced": 12 if ok_ else 0,
                         "cubesCreated": ["orders", "customers", "line_items"] if ok_ else [],
                         "warnings": [] if ok_ else ["sync did not complete"]}}


DBT_LOG = schema("DbtLogEntry", obj({"timestamp": DT, "level": S, "message": S}, ["timestamp", "level", "message"]))


@op("GET", "/api/v1/deployments/{deploymentId}/dbt-sync/{syncJobId}/logs", "getDbtSyncLogs", "Log entries of a sync",
    "dbt", query=CURSOR_Q, resp=cursor_list_schema("DbtLogsResponse", DBT_LOG, legacy=False))
def dbt_logs(req):
    with LOCK:
        d, j = get_job(req)
        msgs = ["Job queued", "Fetching manifest for %s" % (j["ref"] or j["branchName"]), "Parsed 12 models",
                "Generated 3 cubes"]
        if j["status"] == "failed":
            msgs.append("Error: manifest.json not found")
        if j["status"] == "cancelled":
            msgs.append("Job cancelled")
        if j["status"] == "succeeded":
            msgs.append("Sync finished")
        rows = [{"timestamp": ts(j["createdAt"] + _dt.timedelta(milliseconds=400 * n)),
                 "level": "error" if m.startswith("Error") else "info", "message": m} for n, m in enumerate(msgs)]
    return cursor_list(rows, req.query, default=50, legacy=False)


# ------------------------------------------------------------------ workspace: bulk delete, folders, reports
@op("POST", "/api/v1/deployments/{deploymentId}/workspace/bulk-delete", "bulkDeleteWorkspaceItems",
    "Delete up to 100 distinct items; per-item failures; a deleted folder's direct contents move to the root",
    "workspace", body=BULK_DELETE_REQ, body_required=True, resp=BULK_DELETE_RESP)
def bulk_delete(req):
    items = collapse(req.body["items"])
    with LOCK:
        d = dep_of(req)
    deleted, failed = [], []
    for x in items:
        with LOCK:
            it = get_item(d, x["id"], x["type"])
            err = None
            if it is None:
                err = (404, "%s %d not found in deployment %s" % (x["type"].lower(), x["id"], d["id"]))
            elif level(req.user, it) < (3 if x["type"] != "REPORT" else 2):
                err = (403, "no access to delete %s %d" % (x["type"].lower(), x["id"]))
            elif x["type"] == "FOLDER" and any(c["type"] == "FOLDER" and c["folderId"] == it["id"] and not c["archived"]
                                               for c in DB["items"].values()):
                err = (400, "folder %d still has sub-folders" % x["id"])
            if err:
                failed.append({"type": x["type"], "id": x["id"], "error": {"status": err[0], "message": err[1]}})
                continue
            it["archived"] = True
            if x["type"] == "FOLDER":
                for c in DB["items"].values():
                    if c["folderId"] == it["id"]:
                        c["folderId"] = None
            if x["type"] == "WORKBOOK":
                for c in DB["items"].values():
                    if c["type"] == "REPORT" and c.get("workbookId") == it["id"]:
                        c["archived"] = True
            deleted.append({"type": x["type"], "id": x["id"]})
    return {"deleted": deleted, "failed": failed}


FOLDER = schema("Folder", obj({
    "id": I, "name": S, "position": I, "deploymentId": I, "createdAt": DT, "updatedAt": DT,
    "type": {"type": "string", "const": "FOLDER"}, "parentId": nullable(I), "createdBy": I, "updatedBy": nullable(I),
    "user": nullable(RESOURCE_OWNER), "folderPath": arr(obj({"id": I, "name": S}, ["id", "name"]))},
    ["id", "name", "position", "deploymentId", "createdAt", "updatedAt", "type", "parentId", "createdBy", "user",
     "folderPath"]))
MAX_DEPTH = 5


def full_path(f):
    path, node, g = [], f, 0
    while node is not None and g < 60:
        path.append({"id": node["id"], "name": node["name"]})
        node = DB["items"].get(node["folderId"]) if node["folderId"] else None
        g += 1
    return list(reversed(path))


def folder_out(f):
    return {"id": f["id"], "name": f["name"], "position": f["position"], "deploymentId": f["deploymentId"],
            "createdAt": ts(f["createdAt"]) if not isinstance(f["createdAt"], str) else f["createdAt"],
            "updatedAt": ts(f["updatedAt"]), "type": "FOLDER", "parentId": f["folderId"], "createdBy": f["createdBy"],
            "updatedBy": f.get("updatedBy"), "user": owner(f["createdBy"]), "folderPath": full_path(f)[:-1]}


@op("GET", "/api/v1/deployments/{deploymentId}/folders", "listFolders",
    "List one level of folders (root, or children of parentId), by position then id", "workspace",
    query=[qp("parentId", {"type": ["integer", "null"], "minimum": 0}), FIRST, AFTER],
    resp=cursor_list_schema("FoldersListResponse", FOLDER))
def list_folders(req):
    with LOCK:
        d = dep_of(req)
        parent = req.query.get("parentId") or None
        fs = [f for f in DB["items"].values() if f["type"] == "FOLDER" and str(f["deploymentId"]) == d["id"]
              and not f["archived"] and f["folderId"] == parent and level(req.user, f) >= 1]
        fs.sort(key=lambda f: (f["position"], f["id"]))
        return cursor_list([folder_out(f) for f in fs], req.query, default=10)


@op("POST", "/api/v1/deployments/{deploymentId}/folders", "createFolder",
    "Create a folder (max depth %d)" % MAX_DEPTH, "workspace",
    body=obj({"name": {"type": "string", "minLength": 1, "maxLength": 255}, "parentId": nullable(I),
              "position": {"type": "integer", "minimum": 0, "maximum": 1000000}}, ["name"]),
    body_required=True, resp=FOLDER)
def create_folder(req):
    b = req.body
    with LOCK:
        d = dep_of(req)
        need_role(req.user, "AI_BI_USER")
        parent = b.get("parentId")
        if parent is not None:
            pf = get_item(d, parent, "FOLDER")
            if pf is None:
                raise ApiError(404, "parent folder not found", code="folder_not_found")
            if len(full_path(pf)) >= MAX_DEPTH:
                raise ApiError(400, "maximum folder depth (%d) reached" % MAX_DEPTH, code="max_depth")
        if not folder_edit(req.user, parent):
            raise ApiError(403, "no edit access to the parent folder", code="access_denied")
        f = store.new_item(d["id"], "FOLDER", b["name"], req.user["user"]["id"], folder=parent, created=now(),
                           position=b.get("position", 0))
        return folder_out(f)


@op("DELETE", "/api/v1/deployments/{deploymentId}/folders/{folderId}", "deleteFolder",
    "Delete a folder without sub-folders; its contents move to the root", "workspace", resp=DELETED)
def delete_folder(req):
    with LOCK:
        d = dep_of(req)
        f = load_wb(req, d, typ="FOLDER", param="folderId", need=3)
        if any(c["type"] == "FOLDER" and c["folderId"] == f["id"] and not c["archived"] for c in DB["items"].values()):
            raise ApiError(400, "folder still has sub-folders", code="folder_not_empty")
        f["archived"] = True
        for c in DB["items"].values():
            if c["folderId"] == f["id"]:
                c["folderId"] = None
        return {"data": {"id": f["id"], "deleted": True}}


PLACEMENT = schema("ReportPlacement", obj({
    "placementId": I, "reportId": I, "externalWorkbookId": S, "sheetName": S, "anchorCell": S, "createdAt": DT,
    "lastRefreshedAt": nullable(DT)}, ["placementId", "reportId", "externalWorkbookId", "sheetName", "anchorCell",
                                       "createdAt", "lastRefreshedAt"]))
REPORT = schema("Report", obj({
    "id": I, "publicId": S, "deploymentId": I, "name": S, "title": nullable(S),
    "kind": nullable({"type": "string", "enum": ["vega", "table", "kpi", "html", "map"]}), "workbookId": nullable(I),
    "folderId": nullable(I), "sqlQuery": nullable(S), "pythonCode": nullable(S), "spec": {"type": ["string", "object", "null"]},
    "createdBy": I, "createdAt": {"type": "string"}, "updatedAt": DT, "lastViewedAt": nullable(DT),
    "placements": arr(PLACEMENT)},
    ["id", "publicId", "deploymentId", "name", "title", "kind", "workbookId", "folderId", "sqlQuery", "pythonCode",
     "spec", "createdBy", "createdAt", "updatedAt", "lastViewedAt", "placements"]))


def report_out(r):
    return {"id": r["id"], "publicId": r["publicId"], "deploymentId": r["deploymentId"], "name": r["name"],
            "title": r.get("title"), "kind": r.get("kind"), "workbookId": r.get("workbookId"), "folderId": r["folderId"],
            "sqlQuery": r.get("sqlQuery"), "pythonCode": r.get("pythonCode"), "spec": copy.deepcopy(r.get("spec")),
            "createdBy": r["createdBy"], "createdAt": ts(r["createdAt"]), "updatedAt": ts(r["updatedAt"]),
            "lastViewedAt": ts(r.get("lastViewedAt")),
            "placements": [placement_out(p) for p in DB["placements"].values() if p["reportId"] == r["id"]]}


def placement_out(p):
    return {"placementId": p["id"], "reportId": p["reportId"], "externalWorkbookId": p["externalWorkbookId"],
            "sheetName": p["sheetName"], "anchorCell": p["anchorCell"], "createdAt": ts(p["createdAt"]),
            "lastRefreshedAt": ts(p["lastRefreshedAt"])}


@op("GET", "/api/v1/deployments/{deploymentId}/reports", "listReports",
    "List reports. Cursor pagination is unavailable with sortBy=lastViewedAt (then `after` is rejected and cursors "
    "are null)", "workspace",
    query=[qp("folderId", {"type": ["integer", "null"], "minimum": 0}),
           qp("externalWorkbookId", {"type": "string", "maxLength": 300}), qp("search", {"type": "string", "maxLength": 300}),
           qp("sortBy", {"type": "string", "enum": ["createdAt", "updatedAt", "lastViewedAt", "name"]}),
           qp("sortOrder", {"type": "string", "enum": ["asc", "desc"]}), FIRST, AFTER],
    resp=cursor_list_schema("ReportsListResponse", REPORT))
def list_reports(req):
    q = req.query
    if q.get("sortBy") == "lastViewedAt" and "after" in q:
        raise ApiError(422, "cursor pagination is not available when sorting by lastViewedAt", code="cursor_unavailable")
    with LOCK:
        d = dep_of(req)
        rs = [r for r in DB["items"].values() if r["type"] == "REPORT" and str(r["deploymentId"]) == d["id"]
              and not r["archived"] and not r.get("shared") and level(req.user, r) >= 1]
        if "folderId" in q:
            rs = [r for r in rs if r["folderId"] == (q["folderId"] or None)]
        if q.get("externalWorkbookId"):
            ids_ = {p["reportId"] for p in DB["placements"].values() if p["externalWorkbookId"] == q["externalWorkbookId"]}
            rs = [r for r in rs if r["id"] in ids_]
        if q.get("search"):
            s = q["search"].lower()
            rs = [r for r in rs if s in r["name"].lower() or s in (r.get("title") or "").lower()]
        sb = q.get("sortBy", "updatedAt")
        desc = q.get("sortOrder", "asc" if sb == "name" else "desc") == "desc"

        def key(r):
            v = r.get(sb)
            if sb == "name":
                return (v.lower(), r["id"])
            if isinstance(v, _dt.datetime):
                return (v.timestamp(), r["id"])
            if isinstance(v, _dt.date):
                return (_dt.datetime(v.year, v.month, v.day, tzinfo=_dt.timezone.utc).timestamp(), r["id"])
            return (0, r["id"])
        rs.sort(key=key, reverse=desc)
        out = cursor_list([report_out(r) for r in rs], q, default=10)
        if sb == "lastViewedAt":
            out["pageInfo"]["startCursor"] = out["pageInfo"]["endCursor"] = None
        return out


REPORT_UPSERT = schema("UpsertReportRequest", obj({
    "name": {"type": "string", "minLength": 1, "maxLength": 255}, "title": nullable({"type": "string", "maxLength": 500}),
    "kind": {"type": "string", "enum": ["vega", "table", "kpi", "html", "map"]},
    "sqlQuery": nullable({"type": "string", "maxLength": 100000}), "pythonCode": nullable({"type": "string", "maxLength": 100000}),
    "spec": {"type": ["string", "object", "null"]}, "workbookId": nullable(I), "folderId": nullable(I)}))


@op("PUT", "/api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}", "upsertReportByPublicId",
    "Create or update a report by public id (name required on create)", "workspace", body=REPORT_UPSERT,
    body_required=True, resp=REPORT)
def upsert_report(req):
    b = req.body
    pid = req.params["publicId"].strip()
    if not pid or len(pid) > 128 or not re.fullmatch(r"[A-Za-z0-9_.:-]+", pid):
        raise ApiError(422, "publicId must be 1..128 of [A-Za-z0-9_.:-]")
    with LOCK:
        d = dep_of(req)
        r = next((x for x in DB["items"].values() if x["type"] == "REPORT" and x.get("publicId") == pid
                  and str(x["deploymentId"]) == d["id"] and not x["archived"]), None)
        if b.get("workbookId") is not None:
            wb = get_item(d, b["workbookId"], "WORKBOOK")
            if wb is None:
                raise ApiError(404, "workbook not found", code="not_found")
            if level(req.user, wb) < 2:
                raise ApiError(403, "no edit access to the workbook", code="access_denied")
        if b.get("folderId") is not None and get_item(d, b["folderId"], "FOLDER") is None:
            raise ApiError(404, "folder not found", code="folder_not_found")
        if r is None:
            need_role(req.user, "AI_BI_USER")
            if "name" not in b:
                raise ApiError(422, "body.name: required when creating a report")
            r = store.new_item(d["id"], "REPORT", b["name"], req.user["user"]["id"], folder=b.get("folderId"),
                               created=now(), publicId=pid, kind=b.get("kind", "table"), title=b.get("title"),
                               sqlQuery=b.get("sqlQuery"), pythonCode=b.get("pythonCode"), spec=b.get("spec"),
                               workbookId=b.get("workbookId"), lastViewedAt=None)
            return report_out(r)
        if level(req.user, r) < 2:
            raise ApiError(403, "no edit access to the report", code="access_denied")
        changed = False
        for k in ("name", "title", "kind", "sqlQuery", "pythonCode", "spec", "workbookId", "folderId"):
            if k in b and r.get(k) != b[k]:
                r[k] = copy.deepcopy(b[k])
                changed = True
        if changed:
            touch(r)
        return report_out(r)


PLACE_ADDR = {"placementId": I, "externalWorkbookId": {"type": "string", "minLength": 1, "maxLength": 300},
              "sheetName": {"type": "string", "minLength": 1, "maxLength": 100},
              "anchorCell": {"type": "string", "pattern": r"^[A-Za-z]{1,3}[1-9][0-9]{0,6}$"}}
PLACE_REQ = schema("PlacementAddress", obj(PLACE_ADDR))


def find_placement(rep, b, create=False):
    if "placementId" in b:
        p = DB["placements"].get(b["placementId"])
        if p is None or p["reportId"] != rep["id"]:
            raise ApiError(404, "placement not found", code="placement_not_found")
        return p
    if not all(k in b for k in ("externalWorkbookId", "sheetName", "anchorCell")):
        raise ApiError(422, "address a placement by placementId, or externalWorkbookId + sheetName + anchorCell")
    cell = b["anchorCell"].upper()
    for p in DB["placements"].values():
        if (p["reportId"], p["externalWorkbookId"], p["sheetName"], p["anchorCell"]) == \
                (rep["id"], b["externalWorkbookId"], b["sheetName"], cell):
            return p
    if not create:
        raise ApiError(404, "placement not found", code="placement_not_found")
    pid = nid("placement")
    DB["placements"][pid] = {"id": pid, "reportId": rep["id"], "externalWorkbookId": b["externalWorkbookId"],
                             "sheetName": b["sheetName"], "anchorCell": cell, "createdAt": now(), "lastRefreshedAt": None}
    return DB["placements"][pid]


@op("PUT", "/api/v1/deployments/{deploymentId}/reports/{reportId}/connect-workbook", "connectReportToSpreadsheet",
    "Place a report in a spreadsheet (idempotent per address); needs read access to the report", "workspace",
    body=PLACE_REQ, body_required=True, resp=PLACEMENT)
def connect_wb(req):
    with LOCK:
        d = dep_of(req)
        rep = load_wb(req, d, typ="REPORT", param="reportId", need=1)
        return placement_out(find_placement(rep, req.body, create=True))


@op("DELETE", "/api/v1/deployments/{deploymentId}/reports/{reportId}/connect-workbook", "disconnectReportPlacement",
    "Remove a placement (body or query addresses it)", "workspace", body=PLACE_REQ,
    query=[qp(k, v) for k, v in PLACE_ADDR.items()], resp=DELETED)
def disconnect_wb(req):
    with LOCK:
        d = dep_of(req)
        rep = load_wb(req, d, typ="REPORT", param="reportId", need=1)
        addr = dict(req.query)
        addr.update(req.body or {})
        p = find_placement(rep, addr)
        del DB["placements"][p["id"]]
        return {"data": {"id": p["id"], "deleted": True}}


@op("PUT", "/api/v1/deployments/{deploymentId}/reports/{reportId}/refresh", "refreshReportPlacement",
    "Refresh a placement", "workspace", body=PLACE_REQ, body_required=True, resp=PLACEMENT)
def refresh_wb(req):
    with LOCK:
        d = dep_of(req)
        rep = load_wb(req, d, typ="REPORT", param="reportId", need=1)
        p = find_placement(rep, req.body)
        p["lastRefreshedAt"] = now()
        return placement_out(p)


# ------------------------------------------------------------------ embedding
EMBED_ACCESS = schema("EmbedAccess", obj({
    "workbookId": I, "allEmbedUsers": {"type": "string", "enum": ["read", "none"]},
    "tenants": arr(obj({"tenantId": I, "action": {"type": "string", "enum": ["read", "none"]}}, ["tenantId", "action"]))},
    ["workbookId", "allEmbedUsers", "tenants"]))


def ea_out(wid):
    ea = DB["embed_access"].setdefault(wid, {"all": "none", "tenants": {}})
    return {"workbookId": wid, "allEmbedUsers": ea["all"],
            "tenants": [{"tenantId": t, "action": a} for t, a in sorted(ea["tenants"].items())]}


@op("GET", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access", "getEmbedAccess",
    "Dashboard access of embed users", "embedding", resp=EMBED_ACCESS)
def get_ea(req):
    with LOCK:
        d = dep_of(req)
        wb = load_wb(req, d)
        return ea_out(wb["id"])


@op("PUT", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access", "setEmbedAccess",
    "Set dashboard access for one embed tenant (tenantId) or for all embed users (tenantId omitted/null)",
    "embedding", body=obj({"tenantId": nullable(I), "action": {"type": "string", "enum": ["read", "none"]}}, ["action"]),
    body_required=True, resp=EMBED_ACCESS)
def set_ea(req):
    with LOCK:
        d = dep_of(req)
        wb = load_wb(req, d, need=3)
        ea = DB["embed_access"].setdefault(wb["id"], {"all": "none", "tenants": {}})
        t = req.body.get("tenantId")
        if t is None:
            ea["all"] = req.body["action"]
        else:
            if t not in DB["tenants"]:
                raise ApiError(404, "embed tenant not found", code="not_found")
            ea["tenants"][t] = req.body["action"]
        return ea_out(wb["id"])


def dash_by_public(req):
    d = next((x for x in DB["dashboards"].values() if x["publicId"] == req.params["publicId"]), None)
    if d is None or str(d["deploymentId"]) not in DB["deployments"]:
        raise ApiError(404, "dashboard not found", code="not_found")
    dep_of(req, str(d["deploymentId"]))
    wb = DB["items"].get(d["workbookId"])
    if wb is None or wb["archived"]:
        raise ApiError(404, "dashboard not found", code="not_found")
    return d, wb


@op("PATCH", "/api/v1/embed/dashboard/{publicId}", "setSignedEmbedding", "Enable or disable signed embedding",
    "embedding", body=obj({"allowEmbed": B}, ["allowEmbed"]), body_required=True, resp=DASHBOARD)
def patch_embed(req):
    with LOCK:
        d, wb = dash_by_public(req)
        if level(req.user, wb) < 3:
            raise ApiError(403, "manage access to the workbook required", code="access_denied")
        d["allowEmbed"] = req.body["allowEmbed"]
        return copy.deepcopy(d)


PYRUN = data_of("PythonRunResponse", obj({"reportId": I, "columns": arr(S), "rows": arr(arr({})), "durationMs": I,
                                          "appliedFilters": arr(ANYOBJ)},
                                         ["reportId", "columns", "rows", "durationMs", "appliedFilters"]))
FILTER_OPS = ["equals", "notEquals", "contains", "notContains", "gt", "gte", "lt", "lte", "set", "notSet",
              "inDateRange", "is_empty", "is_not_empty"]
DASH_FILTER = schema("DashboardFilter", obj({"member": {"type": "string", "minLength": 1, "maxLength": 300},
                                             "operator": {"type": "string", "enum": FILTER_OPS},
                                             "values": arr({"type": ["string", "number", "boolean"]}, maxItems=1000)},
                                            ["member", "operator"]))


@op("POST", "/api/v1/embed/dashboard/{publicId}/python-run", "runDashboardPython",
    "Run a Python report of a dashboard with dashboard filters applied", "embedding",
    body=obj({"reportId": I, "filters": arr(DASH_FILTER, maxItems=100)}, ["reportId"]), body_required=True, resp=PYRUN)
def python_run(req):
    with LOCK:
        d, wb = dash_by_public(req)
        if level(req.user, wb) < 1:
            raise ApiError(403, "no read access", code="access_denied")
        if req.body["reportId"] not in {s["reportId"] for s in d["reportSnapshots"]}:
            raise ApiError(404, "report is not part of this dashboard", code="not_found")
        f = req.body.get("filters", [])
        return {"data": {"reportId": req.body["reportId"], "columns": ["status", "count"],
                         "rows": [["completed", 1204 - 10 * len(f)], ["shipped", 311], ["returned", 17]],
                         "durationMs": 42, "appliedFilters": copy.deepcopy(f)}}

import { createHash } from "node:crypto";
import { type App, HttpError, ok, type Req, type Route } from "../../http.js";
import { cursorPage } from "../../paging.js";
import { branchFiles, devModeOf, e14, newId } from "../../e14/state.js";
import type { BranchRecord, DeploymentRecord } from "../../store.js";
import { deploymentOf } from "../common.js";

/**
 * E14 data-model authoring on /build/api/v1: files (list, write, remove, rename), validation,
 * chunked upload, file hashes and dev mode. Writes land only on a branch in dev mode (E14); a
 * branch that does not compile validates as 200 with valid=false (Errors 4).
 */
const hash = (content: string) => createHash("sha1").update(content).digest("hex").slice(0, 12);

export function branchNamed(dep: DeploymentRecord, name: string): BranchRecord {
  const b = dep.branches.find((x) => x.name === name);
  if (!b) throw new HttpError(404, `branch ${name} not found`);
  return b;
}

/** The branch a request names (query or body `branchName`), else the caller's dev-mode branch, else production. */
export function branchOf(app: App, dep: DeploymentRecord, req: Req): BranchRecord {
  const named = req.query.get("branchName") ?? (typeof req.body?.branchName === "string" ? req.body.branchName : undefined);
  if (named !== undefined && named !== null) return branchNamed(dep, named);
  const dev = [...devModeOf(e14(app.store), dep.id)].filter(([, user]) => user === req.user.id).pop()?.[0];
  return branchNamed(dep, dev ?? dep.branches.find((b) => b.kind === "production")!.name);
}

export const inDevMode = (app: App, dep: DeploymentRecord, branch: string) => devModeOf(e14(app.store), dep.id).has(branch);

/** The branch a write goes to, refused unless it is in dev mode. */
function writableBranch(app: App, dep: DeploymentRecord, req: Req): BranchRecord {
  const b = branchOf(app, dep, req);
  if (!app.b.fileWriteAllowed(inDevMode(app, dep, b.name)))
    throw new HttpError(400, `branch ${b.name} is not in dev mode: data-model files are written only on a dev-mode branch`);
  return b;
}

const FILE_NAME = /^[A-Za-z0-9_./-]+\.(ya?ml|js|jinja|py)$/;

function fileName(v: unknown, what = "fileName"): string {
  if (typeof v !== "string" || !FILE_NAME.test(v) || v.includes(".."))
    throw new HttpError(400, `${what} must be a relative .yml, .yaml, .js, .jinja or .py path`);
  return v;
}

/** What compiling the model reports: unbalanced brackets or quotes, or a YAML file that defines no cubes or views. */
export function compileErrors(files: Map<string, string>): { fileName: string; message: string }[] {
  const errors: { fileName: string; message: string }[] = [];
  for (const [name, content] of files) {
    const stack: string[] = [];
    const pairs: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
    for (const ch of content.replace(/"[^"\n]*"|'[^'\n]*'/g, "")) {
      if ("([{".includes(ch)) stack.push(ch);
      else if (ch in pairs && stack.pop() !== pairs[ch]) stack.push("!");
    }
    const quotes = (content.replace(/\\./g, "").match(/"/g) ?? []).length;
    if (stack.length || quotes % 2) errors.push({ fileName: name, message: "syntax error: unbalanced brackets or quotes" });
    else if (/\.ya?ml$/.test(name) && !/^\s*(cubes|views)\s*:/m.test(content)) errors.push({ fileName: name, message: "a model file defines cubes or views" });
  }
  return errors;
}

export const dataModelRoutes: Route[] = [
  {
    operation: "listDataModelFiles",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const b = branchOf(app, dep, req);
      const list = [...branchFiles(e14(app.store), dep, b.name)]
        .sort(([a], [c]) => a.localeCompare(c))
        .map(([name, content]) => ({ fileName: name, content, hash: hash(content) }));
      // 0.4.0: the files list is cursor-paginated (honours `first`).
      const page = cursorPage(app.b, list, req.query, 50);
      return ok({ branchName: b.name, items: page.items, data: page.items, pageInfo: page.pageInfo });
    },
  },
  {
    operation: "writeDataModelFiles",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const sent = req.body?.files;
      if (!Array.isArray(sent) || sent.length === 0) throw new HttpError(400, "files must be a non-empty array of {fileName, content}");
      for (const f of sent) if (typeof f?.content !== "string") throw new HttpError(400, "each file's content must be a string");
      const names = sent.map((f: any) => fileName(f.fileName));
      const b = writableBranch(app, dep, req);
      const files = branchFiles(e14(app.store), dep, b.name);
      sent.forEach((f: any, i: number) => files.set(names[i], f.content));
      return ok({ branchName: b.name, files: names.map((n: string) => ({ fileName: n, hash: hash(files.get(n)!) })) });
    },
  },
  {
    operation: "deleteDataModelFiles",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const name = fileName(req.query.get("fileName"));
      const b = writableBranch(app, dep, req);
      const files = branchFiles(e14(app.store), dep, b.name);
      if (!files.delete(name)) throw new HttpError(404, `file ${name} not found on ${b.name}`);
      return ok({ branchName: b.name, deleted: [name] });
    },
  },
  {
    operation: "renameDataModelFiles",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const from = fileName(req.body?.from, "from");
      const to = fileName(req.body?.to, "to");
      const b = writableBranch(app, dep, req);
      const files = branchFiles(e14(app.store), dep, b.name);
      if (!files.has(from)) throw new HttpError(404, `file ${from} not found on ${b.name}`);
      if (files.has(to)) throw new HttpError(409, `file ${to} exists on ${b.name}`);
      files.set(to, files.get(from)!);
      files.delete(from);
      return ok({ branchName: b.name, from, to });
    },
  },
  {
    operation: "validateDataModel",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const b = branchOf(app, dep, req);
      const errors = compileErrors(branchFiles(e14(app.store), dep, b.name));
      // Errors 4: compile errors are a 200 with valid=false, never a request error.
      return ok({ branchName: b.name, valid: errors.length === 0, errors });
    },
  },
  {
    operation: "getFileHashes",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const b = branchOf(app, dep, req);
      const items = [...branchFiles(e14(app.store), dep, b.name)].map(([n, c]) => ({ fileName: n, hash: hash(c) }));
      return ok({ branchName: b.name, items });
    },
  },
  {
    operation: "startUpload",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const b = writableBranch(app, dep, req);
      const uploadId = `upl-${newId(e14(app.store))}`;
      e14(app.store).uploads.set(uploadId, { deploymentId: dep.id, branchName: b.name, files: new Map() });
      return ok({ uploadId, branchName: b.name });
    },
  },
  {
    operation: "uploadFile",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const upload = uploadOf(app, dep, req.body?.uploadId);
      const name = fileName(req.body?.fileName);
      if (typeof req.body?.content !== "string") throw new HttpError(400, "content must be a string");
      upload.files.set(name, (upload.files.get(name) ?? "") + req.body.content);
      return ok({ uploadId: req.body.uploadId, fileName: name, size: upload.files.get(name)!.length });
    },
  },
  {
    operation: "finishUpload",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const upload = uploadOf(app, dep, req.body?.uploadId);
      // The finish is what writes the files: refused once the upload's branch has left dev mode (E14).
      if (!app.b.fileWriteAllowed(inDevMode(app, dep, upload.branchName)))
        throw new HttpError(400, `branch ${upload.branchName} is not in dev mode: data-model files are written only on a dev-mode branch`);
      const files = branchFiles(e14(app.store), dep, upload.branchName);
      for (const [n, c] of upload.files) files.set(n, c);
      e14(app.store).uploads.delete(req.body.uploadId);
      return ok({ uploadId: req.body.uploadId, branchName: upload.branchName, files: [...upload.files.keys()] });
    },
  },
  {
    operation: "startDevMode",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const named = req.body?.branchName;
      if (named !== undefined && typeof named !== "string") throw new HttpError(400, "branchName must be a string");
      const b = named === undefined ? branchOf(app, dep, req) : branchNamed(dep, named);
      if (b.kind === "production") throw new HttpError(400, "dev mode needs a branch other than the production branch");
      const dev = devModeOf(e14(app.store), dep.id);
      // The latest one started is the caller's default branch.
      dev.delete(b.name);
      dev.set(b.name, req.user.id);
      return ok({ branchName: b.name, active: true });
    },
  },
  {
    operation: "stopDevMode",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const b = branchOf(app, dep, req);
      if (!devModeOf(e14(app.store), dep.id).delete(b.name)) throw new HttpError(400, `branch ${b.name} is not in dev mode`);
      return ok({ branchName: b.name, active: false });
    },
  },
];

function uploadOf(app: App, dep: DeploymentRecord, id: unknown) {
  const u = typeof id === "string" ? e14(app.store).uploads.get(id) : undefined;
  if (!u || u.deploymentId !== dep.id) throw new HttpError(404, `upload ${String(id)} not found`);
  return u;
}

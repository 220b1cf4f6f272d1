// Data-model files: list, write, delete, rename (writes only on the caller's dev-mode branch), validate, hashes.
import { createHash, randomBytes } from "node:crypto";
import { deploymentFor, requireApiKey, requireRole } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { conflict, fStr, invalid, isObj, notFound, objBody, ok, wrap } from "./http.js";
import type { Json, Reply } from "./http.js";
import { cursorPage, noOffset } from "./paging.js";
import type { Branch, Deployment } from "./store.js";

const FILE_NAME = /^(?!\/)[A-Za-z0-9_\-./]{1,255}$/;

function hash(s: string): string {
  return createHash("sha1").update(s).digest("hex");
}

function checkName(n: unknown, at: string): string {
  if (typeof n !== "string") throw invalid(`${at} must be a string`);
  if (!FILE_NAME.test(n) || n.split("/").includes("..")) throw invalid(`${at} must be a relative path of letters, digits, _ - . /`);
  return n;
}

function readBranch(c: Call, d: Deployment): Branch {
  const name = c.q.get("branchName") ?? c.store.devSessions.get(c.store.devKey(c.p.user.id, d.id))?.branchName ?? c.store.productionBranch(d.id)?.name;
  const b = name !== undefined ? c.store.findBranch(d.id, name) : undefined;
  if (!b) throw notFound(`branch ${name ?? ""} not found`);
  return b;
}

/** Writes need the caller to be in dev mode on the target branch. */
function writeBranch(c: Call, d: Deployment, body: Json): Branch {
  requireRole(c.p, "DEVELOPER", "writing data-model files");
  const sess = c.store.devSessions.get(c.store.devKey(c.p.user.id, d.id));
  const name = fStr(body, "branchName", false) ?? sess?.branchName;
  if (name === undefined) throw conflict("start dev mode before writing data-model files", "dev_mode_required");
  const b = c.store.findBranch(d.id, name);
  if (!b) throw notFound(`branch ${name} not found`);
  if (!sess || sess.branchName !== b.name)
    throw conflict(`writes are only allowed on your dev-mode branch; you are not in dev mode on ${name}`, "dev_mode_required");
  return b;
}

function touch(b: Branch): void {
  b.lastHash = randomBytes(20).toString("hex");
  b.buildStatus = "queued";
}

function listFiles(c: Call): Reply {
  requireApiKey(c.p);
  noOffset(c.q);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const b = readBranch(c, d);
  const all = [...b.files.entries()]
    .sort((x, y) => (x[0] < y[0] ? 1 : -1))
    .map(([fileName, f]) => ({ fileName, size: Buffer.byteLength(f.content), hash: hash(f.content), updatedAt: f.updatedAt, content: f.content }));
  const page = cursorPage(all, c.q, `files:${d.id}:${b.name}`);
  return ok({ items: page.rows, pageInfo: page.pageInfo, data: page.rows, count: all.length, branchName: b.name });
}

function writeFiles(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const body = objBody(c.body);
  const files = body["files"];
  if (!Array.isArray(files) || files.length === 0 || files.length > 100) throw invalid("files must be an array of 1..100 {fileName, content}");
  const parsed = files.map((f: unknown, i: number) => {
    if (!isObj(f)) throw invalid(`files[${i}] must be an object`);
    const name = checkName(f["fileName"], `files[${i}].fileName`);
    if (typeof f["content"] !== "string") throw invalid(`files[${i}].content must be a string`);
    return [name, f["content"]] as const;
  });
  const b = writeBranch(c, d, body);
  const at = new Date().toISOString();
  for (const [n, content] of parsed) b.files.set(n, { content, updatedAt: at });
  touch(b);
  return wrap({ branchName: b.name, written: parsed.map(([n]) => n), lastHash: b.lastHash });
}

function deleteFiles(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const body = objBody(c.body);
  const names = body["fileNames"];
  if (!Array.isArray(names) || names.length === 0) throw invalid("fileNames must be a non-empty array of strings");
  const list = names.map((n: unknown, i: number) => checkName(n, `fileNames[${i}]`));
  const b = writeBranch(c, d, body);
  const deleted = list.filter((n) => b.files.delete(n));
  if (deleted.length) touch(b);
  return wrap({ branchName: b.name, deleted, missing: list.filter((n) => !deleted.includes(n)) });
}

function renameFiles(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const body = objBody(c.body);
  const renames = body["renames"];
  if (!Array.isArray(renames) || renames.length === 0) throw invalid("renames must be a non-empty array of {from, to}");
  const pairs = renames.map((r: unknown, i: number) => {
    if (!isObj(r)) throw invalid(`renames[${i}] must be an object {from, to}`);
    return [checkName(r["from"], `renames[${i}].from`), checkName(r["to"], `renames[${i}].to`)] as const;
  });
  const b = writeBranch(c, d, body);
  for (const [from, to] of pairs) {
    if (!b.files.has(from)) throw notFound(`file ${from} not found on branch ${b.name}`);
    if (from !== to && b.files.has(to) && !pairs.some(([f]) => f === to)) throw conflict(`file ${to} already exists on branch ${b.name}`, "file_exists");
  }
  const moved = pairs.map(([from, to]) => [from, to, b.files.get(from)!] as const);
  for (const [from] of moved) b.files.delete(from);
  for (const [, to, f] of moved) b.files.set(to, { ...f, updatedAt: new Date().toISOString() });
  touch(b);
  return wrap({ branchName: b.name, renamed: pairs.map(([from, to]) => ({ from, to })) });
}

function compile(name: string, content: string): Json[] {
  const errors: Json[] = [];
  if (/\.ya?ml$/.test(name)) {
    content.split("\n").forEach((line, i) => {
      if (line.includes("\t")) errors.push({ fileName: name, line: i + 1, message: "YAML does not allow tab characters for indentation" });
    });
    const first = content.split("\n").find((l) => l.trim() !== "" && !l.trim().startsWith("#"));
    if (first !== undefined && !/^(cubes|views):\s*$/.test(first))
      errors.push({ fileName: name, line: 1, message: "a model file must start with a top-level cubes: or views: key" });
  } else if (/\.js$/.test(name)) {
    let depth = 0;
    for (const ch of content) {
      if (ch === "{") depth++;
      if (ch === "}") depth--;
      if (depth < 0) break;
    }
    if (depth !== 0) errors.push({ fileName: name, message: "unbalanced braces" });
  }
  return errors;
}

function validate(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const b = readBranch(c, d);
  const errors = [...b.files.entries()].flatMap(([n, f]) => compile(n, f.content));
  return wrap({ branchName: b.name, valid: errors.length === 0, errors, fileCount: b.files.size });
}

function fileHashes(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const b = readBranch(c, d);
  const hashes: Record<string, string> = {};
  for (const [n, f] of b.files) hashes[n] = hash(f.content);
  return wrap({ branchName: b.name, hashes });
}

export function registerDataModel(r: AppRouter): void {
  const base = "/build/api/v1/deployments/{deploymentId}/data-model";
  r.add("GET", `${base}/files`, listFiles);
  r.add("PUT", `${base}/files`, writeFiles);
  r.add("DELETE", `${base}/files`, deleteFiles);
  r.add("POST", `${base}/files/rename`, renameFiles);
  r.add("GET", `${base}/validate`, validate);
  r.add("GET", `${base}/file-hashes`, fileHashes);
}

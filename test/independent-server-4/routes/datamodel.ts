import type { FastifyInstance } from "fastify";
import type { RouteOpts } from "../app.js";
import type { Deployment } from "../types.js";
import type { Store } from "../store.js";
import { caller, deployment, requireRole } from "../access.js";
import { cursorEnvelope, paginate } from "../pagination.js";
import { STD_ERRORS, cursorListResponse, cursorQuery as cq, dataOf, errorResponses, params } from "../schemas.js";
import { HttpError, badRequest, iso, notFound, sha, uuid } from "../util.js";
import { findBranch } from "./build.js";

const P = "/build/api/v1/deployments/:deploymentId/data-model";
const dp = params(["deploymentId"]);
const branchQ = { branchName: { type: "string", minLength: 1, default: "main", description: "Default: main" } };
const filePath = { type: "string", minLength: 1, maxLength: 500, pattern: "^(?!/)(?!.*\\.\\.)[A-Za-z0-9_./ -]+$" };
const fileItem = {
  type: "object",
  required: ["path", "hash", "size"],
  properties: {
    path: { type: "string" },
    hash: { type: "string" },
    size: { type: "integer" },
    content: { type: "string" },
  },
};

function filesOf(s: Store, d: Deployment, branch: string): Map<string, string> {
  findBranch(s, d, branch);
  let m = s.files.get(`${d.id}:${branch}`);
  if (!m) {
    m = new Map();
    s.files.set(`${d.id}:${branch}`, m);
  }
  return m;
}
function writable(d: Deployment, branch: string): void {
  if (!d.devModeBranches.includes(branch))
    throw badRequest(`Branch ${branch} is not in dev mode; files can only be written on dev-mode branches`, "not_in_dev_mode");
}

export function compile(files: Map<string, string>): Array<{ file: string; line: number; message: string }> {
  const errors: Array<{ file: string; line: number; message: string }> = [];
  for (const [path, content] of files) {
    if (/\.ya?ml$/.test(path)) {
      content.split("\n").forEach((l, i) => {
        if (l.includes("\t")) errors.push({ file: path, line: i + 1, message: "Tabs are not allowed in YAML indentation" });
      });
      const first = content.split("\n").find((l) => l.trim() && !l.trim().startsWith("#"));
      if (first && !/^(cubes|views):\s*$/.test(first.trim())) errors.push({ file: path, line: 1, message: 'Expected a top-level "cubes:" or "views:" key' });
    } else if (/\.js$/.test(path)) {
      let depth = 0;
      for (const ch of content) {
        if (ch === "{") depth++;
        if (ch === "}") depth--;
        if (depth < 0) break;
      }
      if (depth !== 0) errors.push({ file: path, line: content.split("\n").length, message: "Unbalanced braces" });
    }
  }
  return errors;
}

export async function dataModelRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  const uploads = new Map<string, { deploymentId: number; branchName: string; files: Map<string, string>; expiresAt: number }>();

  app.get(
    `${P}/files`,
    {
      schema: {
        tags: ["data-model"],
        summary: "List data-model files",
        params: dp,
        querystring: { type: "object", properties: { ...branchQ, includeContent: { type: "boolean", default: false }, ...cq } },
        response: { 200: cursorListResponse(fileItem), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const q = req.query as { branchName: string; includeContent: boolean; first?: number; after?: string };
      const list = [...filesOf(s, d, q.branchName)]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([path, content]) => ({ path, hash: sha(content), size: Buffer.byteLength(content), ...(q.includeContent ? { content } : {}) }));
      return cursorEnvelope(paginate(list, q, `files:${d.id}:${q.branchName}`, true));
    },
  );

  app.put(
    `${P}/files`,
    {
      schema: {
        tags: ["data-model"],
        summary: "Write data-model files (dev-mode branches only)",
        params: dp,
        body: {
          type: "object",
          required: ["branchName", "files"],
          properties: {
            branchName: { type: "string", minLength: 1 },
            files: {
              type: "array",
              minItems: 1,
              maxItems: 200,
              items: { type: "object", required: ["path", "content"], properties: { path: filePath, content: { type: "string" } } },
            },
          },
        },
        response: { 200: dataOf({ type: "array", items: fileItem }), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "developer", "Writing data-model files");
      const b = req.body as { branchName: string; files: Array<{ path: string; content: string }> };
      const m = filesOf(s, d, b.branchName);
      writable(d, b.branchName);
      for (const f of b.files) m.set(f.path, f.content);
      return { data: b.files.map((f) => ({ path: f.path, hash: sha(f.content), size: Buffer.byteLength(f.content) })) };
    },
  );

  app.delete(
    `${P}/files`,
    {
      schema: {
        tags: ["data-model"],
        summary: "Remove data-model files (dev-mode branches only)",
        params: dp,
        querystring: {
          type: "object",
          required: ["branchName", "path"],
          properties: {
            branchName: { type: "string", minLength: 1 },
            path: { type: "array", items: { type: "string" }, minItems: 1, description: "Repeatable" },
          },
        },
        response: { 204: { type: "null", description: "Removed" }, ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "developer", "Removing data-model files");
      const q = req.query as { branchName: string; path: string[] };
      const m = filesOf(s, d, q.branchName);
      writable(d, q.branchName);
      const missing = q.path.filter((p) => !m.has(p));
      if (missing.length) throw notFound(`File ${missing.join(", ")}`);
      for (const p of q.path) m.delete(p);
      return reply.code(204).send();
    },
  );

  app.post(
    `${P}/files/rename`,
    {
      schema: {
        tags: ["data-model"],
        summary: "Rename data-model files (dev-mode branches only)",
        params: dp,
        body: {
          type: "object",
          required: ["branchName", "renames"],
          properties: {
            branchName: { type: "string", minLength: 1 },
            renames: { type: "array", minItems: 1, items: { type: "object", required: ["from", "to"], properties: { from: filePath, to: filePath } } },
          },
        },
        response: {
          200: dataOf({ type: "array", items: { type: "object", properties: { from: { type: "string" }, to: { type: "string" } } } }),
          ...errorResponses(400, 404, 409, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "developer", "Renaming data-model files");
      const b = req.body as { branchName: string; renames: Array<{ from: string; to: string }> };
      const m = filesOf(s, d, b.branchName);
      writable(d, b.branchName);
      for (const r of b.renames) {
        if (!m.has(r.from)) throw notFound(`File ${r.from}`);
        if (m.has(r.to) && r.to !== r.from) throw new HttpError(409, `File ${r.to} already exists`, "conflict");
      }
      for (const r of b.renames) {
        const c = m.get(r.from)!;
        m.delete(r.from);
        m.set(r.to, c);
      }
      return { data: b.renames };
    },
  );

  app.get(
    `${P}/validate`,
    {
      schema: {
        tags: ["data-model"],
        summary: "Compile a branch (compilation errors are a 200 with valid=false)",
        params: dp,
        querystring: { type: "object", properties: branchQ },
        response: {
          200: dataOf({
            type: "object",
            required: ["valid", "errors"],
            properties: {
              valid: { type: "boolean" },
              branchName: { type: "string" },
              errors: {
                type: "array",
                items: { type: "object", properties: { file: { type: "string" }, line: { type: "integer" }, message: { type: "string" } } },
              },
              compiledAt: { type: "string" },
            },
          }),
          ...errorResponses(404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const name = (req.query as { branchName: string }).branchName;
      const errors = compile(filesOf(s, d, name));
      return { data: { valid: errors.length === 0, branchName: name, errors, compiledAt: iso() } };
    },
  );

  app.get(
    `${P}/file-hashes`,
    {
      schema: {
        tags: ["data-model"],
        summary: "SHA-1 hashes of the files of a branch",
        params: dp,
        querystring: { type: "object", properties: branchQ },
        response: { 200: dataOf({ type: "object", additionalProperties: { type: "string" } }), ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const m = filesOf(s, d, (req.query as { branchName: string }).branchName);
      return { data: Object.fromEntries([...m].map(([p, c]) => [p, sha(c)])) };
    },
  );

  const uploadState = {
    type: "object",
    properties: {
      uploadId: { type: "string" },
      branchName: { type: "string" },
      files: { type: "integer" },
      expiresAt: { type: "string" },
      path: { type: "string" },
      size: { type: "integer" },
    },
  };
  const getUpload = (d: Deployment, id: string) => {
    const u = uploads.get(id);
    if (!u || u.deploymentId !== d.id) throw notFound(`Upload ${id}`);
    if (u.expiresAt < Date.now()) {
      uploads.delete(id);
      throw new HttpError(410, "Upload session expired", "upload_expired");
    }
    return u;
  };
  app.post(
    `${P}/upload/start`,
    {
      schema: {
        tags: ["data-model"],
        summary: "Start a chunked upload (replaces the branch files on finish)",
        params: dp,
        body: { type: "object", properties: { branchName: { type: "string", default: "main" } } },
        response: { 201: dataOf(uploadState), ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "developer", "Uploading a data model");
      const branchName = (req.body as { branchName: string }).branchName;
      findBranch(s, d, branchName);
      const uploadId = uuid();
      const expiresAt = Date.now() + 3_600_000;
      uploads.set(uploadId, { deploymentId: d.id, branchName, files: new Map(), expiresAt });
      return reply.code(201).send({ data: { uploadId, branchName, files: 0, expiresAt: iso(expiresAt) } });
    },
  );
  app.post(
    `${P}/upload/file`,
    {
      schema: {
        tags: ["data-model"],
        summary: "Add one file (or chunk, appended) to an upload",
        params: dp,
        body: {
          type: "object",
          required: ["uploadId", "path", "content"],
          properties: {
            uploadId: { type: "string" },
            path: filePath,
            content: { type: "string" },
            encoding: { type: "string", enum: ["utf8", "base64"], default: "utf8" },
          },
        },
        response: { 200: dataOf(uploadState), ...errorResponses(404, 410, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const b = req.body as { uploadId: string; path: string; content: string; encoding: "utf8" | "base64" };
      const u = getUpload(d, b.uploadId);
      const text = b.encoding === "base64" ? Buffer.from(b.content, "base64").toString("utf8") : b.content;
      u.files.set(b.path, (u.files.get(b.path) ?? "") + text);
      return { data: { uploadId: b.uploadId, path: b.path, size: Buffer.byteLength(u.files.get(b.path)!), files: u.files.size } };
    },
  );
  app.post(
    `${P}/upload/finish`,
    {
      schema: {
        tags: ["data-model"],
        summary: "Finish an upload; the branch files are replaced",
        params: dp,
        body: { type: "object", required: ["uploadId"], properties: { uploadId: { type: "string" } } },
        response: { 200: dataOf(uploadState), ...errorResponses(400, 404, 410, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const id = (req.body as { uploadId: string }).uploadId;
      const u = getUpload(d, id);
      if (!u.files.size) throw badRequest("Upload contains no files", "empty_upload");
      s.files.set(`${d.id}:${u.branchName}`, new Map(u.files));
      uploads.delete(id);
      return { data: { uploadId: id, branchName: u.branchName, files: u.files.size } };
    },
  );
}

import { e14 } from "./e14/state.js";
import { itemsOf, deploymentOf } from "./routes/common.js";
import { HttpError, type Req } from "./http.js";
import type { Variant } from "./variant.js";

/*
 * Spellings of E14 (shapes not shown) that the blind servers chose (test/blind-servers), each a
 * variant: the suite must judge such a server, not skip it.
 */

/** The served document with one component schema rewritten (the document is the reference's own, shared: copied, never changed). */
function withSchema(body: any, name: string, rewrite: (schema: any) => any): any {
  const schemas = body?.components?.schemas;
  if (!schemas?.[name]) return body;
  return { ...body, components: { ...body.components, schemas: { ...schemas, [name]: rewrite(schemas[name]) } } };
}

/**
 * Data-model authoring as the blind Python server chose it (the spec shows no shape of E14):
 * - starting dev mode names no branch, and enters dev mode on the caller's personal branch; a branch
 *   of one's own enters it when created with `activate` (facts: creating a branch takes
 *   {name, from?, activate?});
 * - a chunked upload's file step replaces the file unless the chunk says `append: true`.
 */
export const devModeCallerBranch: Variant = {
  name: "dev-mode-caller-branch",
  description:
    "Starting dev mode names no branch (its body documents none) and enters it on the caller's personal branch, a new branch enters it when created with activate (facts); a chunked upload's file step replaces the file unless the chunk says append: true",
  routes: ["E14"],
  request: (req: Req, app) => {
    if (req.operation === "startDevMode") {
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      const own = dep?.branches.find((b) => b.kind === "personal" && b.owner === req.user.email);
      if (!own) throw new HttpError(400, "the caller has no personal branch to start dev mode on");
      req.body = { branchName: own.name };
    }
    if (req.operation === "uploadFile" && req.body?.append !== true) e14(app.store).uploads.get(req.body?.uploadId)?.files.delete(req.body?.fileName);
  },
  respond: (body, req) => {
    if (req.operation !== "getSpec") return body;
    const noBranch = withSchema(body, "DevModeRequest", (s) => ({ ...s, properties: {}, description: "No fields: dev mode is the caller's own branch." }));
    return withSchema(noBranch, "UploadFileRequest", (s) => ({
      ...s,
      properties: { ...s.properties, append: { type: "boolean", description: "Continue the file." } },
    }));
  },
};

/** Per store, the branches (`<deployment>/<branch>`) with a change not yet committed. */
const uncommitted = new WeakMap<object, Set<string>>();

/**
 * E14 as the blind Rust server chose it (the spec shows no shape of E14):
 * - a chunked upload's file step carries `chunkIndex`: index 0, or none, starts the file over, a later one continues it;
 * - a commit of a branch with nothing written since it was made or last committed is refused (400): nothing to commit;
 * - only a Python report runs: a dashboard's report whose snapshot has no pythonCode is refused (400);
 * - connecting a repository takes its full name, `{repository: "owner/name", branch?}`.
 */
export const rustSpellings: Variant = {
  name: "rust-e14-spellings",
  description:
    "E14 as the blind Rust server spells it: an upload chunk's chunkIndex (0 starts the file over), a commit with nothing to commit refused, a Python run of a report without pythonCode refused, a repository connected by its full name owner/name",
  routes: ["E14"],
  request: (req: Req, app) => {
    if (req.operation === "uploadFile" && !(Number.isSafeInteger(req.body?.chunkIndex) && req.body.chunkIndex > 0))
      e14(app.store).uploads.get(req.body?.uploadId)?.files.delete(req.body?.fileName);
    const changed = uncommitted.get(app.store) ?? new Set<string>();
    uncommitted.set(app.store, changed);
    const branch = `${req.params.deploymentId}/${req.body?.branchName}`;
    if (req.operation === "writeDataModelFiles") changed.add(branch);
    if (req.operation === "commitBranch") {
      if (!changed.has(branch)) throw new HttpError(400, "there are no uncommitted changes on this branch");
      changed.delete(branch);
    }
    if (req.operation === "runDashboardPython")
      for (const wb of app.store.items.values())
        if (wb.publishedDashboard?.publicId === req.params.publicId) {
          const snapshot = wb.publishedDashboard.reportSnapshots.find((r: any) => r.reportId === req.body?.reportId);
          if (snapshot && !snapshot.pythonCode) throw new HttpError(400, "the report is not a Python report");
        }
    if (req.operation === "connectGithub") {
      const [owner, repo, ...rest] = typeof req.body?.repository === "string" ? req.body.repository.split("/") : [];
      if (!owner || !repo || rest.length) throw new HttpError(400, "repository must be the repository's full name, owner/name");
      req.body = { owner, repo, ...(req.body.branch === undefined ? {} : { branch: req.body.branch }) };
    }
  },
  respond: (body, req) => {
    if (req.operation !== "getSpec") return body;
    const indexed = withSchema(body, "UploadFileRequest", (s) => ({
      ...s,
      properties: {
        ...s.properties,
        chunkIndex: { type: "integer", minimum: 0, description: "The chunk's place in the file, from 0: 0 starts the file over." },
      },
    }));
    return withSchema(indexed, "GithubConnectRequest", (s) => ({
      ...s,
      properties: { repository: { type: "string", description: "owner/name" }, branch: { type: "string" } },
      required: ["repository"],
    }));
  },
};

/**
 * A report created by public id belongs to a workbook: `workbookId` is "required on create" in its
 * document's prose only, not in the schema's required list (the blind Perl server's choice; the spec
 * shows no shape of E14). A create without it is refused with 400 naming the field.
 */
export const reportWorkbookInProse: Variant = {
  name: "report-workbook-in-prose",
  description:
    "Creating a report by public id takes workbookId, required on create in the document's prose only: a create without it is refused with 400 naming workbookId",
  routes: ["E14"],
  request: (req: Req, app) => {
    if (req.operation !== "upsertReportByPublicId" || !req.body || typeof req.body !== "object") return;
    const dep = deploymentOf(app, req);
    const exists = itemsOf(app, dep, "REPORT").some((r) => e14(app.store).reportExtras.get(r.id)?.publicId === req.params.publicId);
    const { workbookId } = req.body as { workbookId?: unknown };
    if (!exists && workbookId === undefined) throw new HttpError(400, "field 'workbookId' is required to create a report");
  },
  respond: (body, req) =>
    req.operation === "getSpec"
      ? withSchema(body, "ReportUpsertRequest", (s) => ({
          ...s,
          properties: { ...s.properties, workbookId: { type: "integer", description: "required on create" } },
        }))
      : body,
};

const PLACEMENT_ADDRESS = ["placementId", "externalWorkbookId", "sheetName", "anchorCell"];

/**
 * Removing a report's placement takes its address in a JSON body, not the query (the blind Java
 * server's choice; the spec names the addresses, not where they go).
 */
export const placementRemovalInBody: Variant = {
  name: "placement-removal-in-body",
  description:
    "DELETE connect-workbook takes the placement's address (placementId, or externalWorkbookId, sheetName and anchorCell) in a JSON body, not the query",
  routes: ["E14"],
  request: (req: Req) => {
    if (req.operation !== "disconnectReportWorkbook") return;
    for (const k of PLACEMENT_ADDRESS) req.query.delete(k);
    const body = (req.body ?? {}) as Record<string, unknown>;
    for (const k of PLACEMENT_ADDRESS) if (typeof body[k] === "string") req.query.set(k, body[k] as string);
  },
  respond: (body, req) => {
    if (req.operation !== "getSpec" || !body?.paths) return body;
    const paths = Object.fromEntries(
      Object.entries<any>(body.paths).map(([p, item]) => {
        if (!p.endsWith("/connect-workbook") || !item.delete) return [p, item];
        const removal = {
          ...item.delete,
          parameters: (item.delete.parameters ?? []).filter((x: any) => x.in !== "query"),
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { type: "object", properties: Object.fromEntries(PLACEMENT_ADDRESS.map((k) => [k, { type: "string" }])) } },
            },
          },
        };
        return [p, { ...item, delete: removal }];
      }),
    );
    return { ...body, paths };
  },
};

/**
 * A deployment's create answers `{data: {deployment: {...}}}`, its document marking `data` required
 * and not `deployment`, with no link and no Location (the blind Go server's choice; the spec shows
 * no shape of E14).
 */
export const createdDeploymentNested: Variant = {
  name: "created-deployment-nested",
  description: "Creating a deployment answers {data: {deployment: {...}}} (deployment not marked required), with no link to its delete",
  routes: ["E14"],
  respond: (body, req) => {
    if (req.operation === "createDeployment") return { data: { deployment: body } };
    if (req.operation !== "getSpec" || !body?.paths) return body;
    const paths = Object.fromEntries(
      Object.entries<any>(body.paths).map(([p, item]) => {
        const created = item.post?.responses?.["201"];
        if (item.post?.operationId !== "createDeployment" || !created) return [p, item];
        const { links: _links, ...rest } = created;
        const schema = {
          type: "object",
          required: ["data"],
          properties: { data: { type: "object", properties: { deployment: rest.content["application/json"].schema } } },
        };
        return [p, { ...item, post: { ...item.post, responses: { ...item.post.responses, "201": { ...rest, content: { "application/json": { schema } } } } } }];
      }),
    );
    return { ...body, paths };
  },
};

/**
 * A deleted user's id is given to the next user made (the blind Go server hands out the highest id
 * plus one, as SQLite does: the id of the user deleted last when it was the highest), and another
 * administrator invites a colleague at once after each bulk DELETE, who takes each freed id. A run
 * must never act on that colleague: an id the run deleted names someone else's user now.
 */
export const userIdsReused: Variant = {
  name: "user-ids-reused",
  description:
    "A deleted user's id is given to the next user made, and a colleague is invited at once after each bulk DELETE, taking each freed id: the run must leave the colleagues as they are",
  routes: ["E14"],
  respond: (body, req, app) => {
    if (req.operation !== "bulkUserAction" || req.body?.action !== "DELETE") return body;
    const { users } = app.store;
    const admin = e14(app.store).users;
    for (const [i, u] of users.entries()) {
      // A colleague deleted stays so: the run's harm shows in the users it leaves.
      if (!admin.get(u.id)?.deleted || u.email.startsWith(COLLEAGUE)) continue;
      users[i] = {
        id: u.id,
        email: `${COLLEAGUE}${u.id}@tenant.example`,
        firstName: "Colleague",
        aiBiUser: true,
        permissions: new Set(),
        creatorMode: false,
        defaultAccess: "read",
      };
      admin.set(u.id, { status: "active", role: "VIEWER", deleted: false, lastName: null });
    }
    return body;
  },
};

/** The e-mail addresses of the colleagues user-ids-reused invites begin so. */
export const COLLEAGUE = "colleague-";

/**
 * A data-model rename takes `{branchName, files: [{path, newPath}]}`: the file's present name is its
 * `path` (the blind Go server's choice; the spec names the operation, not its body).
 */
export const renamePathNewPath: Variant = {
  name: "rename-path-newpath",
  description: "Renaming data-model files takes {branchName, files: [{path, newPath}]}: the file's name now is its path",
  routes: ["E14"],
  request: (req: Req) => {
    if (req.operation !== "renameDataModelFiles") return;
    const { files, ...rest } = (req.body ?? {}) as { files?: unknown };
    const [one] = Array.isArray(files) ? files : [];
    if (!one || typeof one !== "object") throw new HttpError(400, "files must list {path, newPath}");
    const { path, newPath } = one as { path?: unknown; newPath?: unknown };
    req.body = { ...rest, from: path, to: newPath };
  },
  respond: (body, req) =>
    req.operation === "getSpec"
      ? withSchema(body, "FileRenameRequest", (s) => ({
          ...s,
          properties: {
            branchName: s.properties.branchName,
            files: {
              type: "array",
              items: { type: "object", properties: { path: { type: "string" }, newPath: { type: "string" } }, required: ["path", "newPath"] },
            },
          },
          required: ["files"],
        }))
      : body,
};

/**
 * A report created by public id documents no folderId and is made at the root; E12 moves it (the
 * blind Go server's choice; the spec shows no shape of E14).
 */
export const reportCreateAtRoot: Variant = {
  name: "report-create-at-root",
  description: "Creating a report by public id documents no folderId (one sent is ignored): a report is made at the workspace root, and moved by E12",
  routes: ["E14"],
  request: (req: Req) => {
    if (req.operation !== "upsertReportByPublicId" || !req.body || typeof req.body !== "object") return;
    const { folderId: _ignored, ...rest } = req.body as { folderId?: unknown };
    req.body = rest;
  },
  respond: (body, req) => {
    if (req.operation !== "getSpec") return body;
    return withSchema(body, "ReportUpsertRequest", (s) => {
      const { folderId: _gone, ...properties } = s.properties;
      return { ...s, properties, required: (s.required ?? []).filter((r: string) => r !== "folderId") };
    });
  },
};

/**
 * A finished sync's cancel refused with 422 (the blind Go server; Rust answers 400), not the 409
 * of the reference: the run's own syncs, ended by cleanup time, are read back as ended
 * (core/ledger/door-entries.ts), never left over. Syncs end on their own here at once.
 */
export const finishedSyncCancel422: Variant = {
  name: "finished-sync-cancel-422",
  description: "Cancelling a dbt sync that has finished is refused with 422 (job_finished), and every sync finishes as soon as it starts",
  routes: ["E14"],
  request: (req: Req, app) => {
    const jobs = e14(app.store).dbtJobs;
    for (const j of jobs) if (j.status === "queued" || j.status === "running") j.status = "succeeded";
    if (req.operation !== "cancelDbtSync") return;
    const job = jobs.find((j) => String(j.id) === req.params.syncJobId);
    if (job) throw new HttpError(422, `the sync job ${job.id} has already finished (${job.status})`);
  },
};

/** The blind servers' spellings, in the order the variants list them. */
export const blindSpellings: Variant[] = [
  devModeCallerBranch,
  rustSpellings,
  reportWorkbookInProse,
  placementRemovalInBody,
  createdDeploymentNested,
  userIdsReused,
  renamePathNewPath,
  reportCreateAtRoot,
  finishedSyncCancel422,
];

import { type Fault, HttpError, ok } from "../http.js";
import { branchFiles, e14 } from "../e14/state.js";
import { deploymentOf } from "../routes/common.js";

/**
 * The E14 rules that live in named parameters (checks in suites/branches/, suites/data-model/parameters.ts,
 * suites/dbt-sync/, suites/reports/placement.ts, suites/policies/, suites/embed-tenants/), each broken
 * by a policy around its endpoint's handler: the request refused, or applied only in part.
 */

export const e14ParameterFaults: Fault[] = [
  {
    name: "branch-delete-remove-on-upstream-refused",
    breaks: "E14 rule 4 (removeOnUpstream)",
    description: "a branch delete that names removeOnUpstream is refused with 400",
    because: { "branches.delete.remove-on-upstream": "remove-on-upstream-accepted" },
    operations: ["deleteBranch"],
    handle: ({ req, next }) => {
      if (req.query.has("removeOnUpstream")) throw new HttpError(400, "removeOnUpstream is not supported");
      return next();
    },
  },
  {
    name: "rename-copies",
    breaks: "E14 rule 14 (rename)",
    description: "renaming a data-model file copies it: the old name stays",
    because: { "data-model.files.rename": "source-gone" },
    operations: ["renameDataModelFiles"],
    handle: async ({ req, app, next }) => {
      const reply = await next();
      const renamed = reply.body as { branchName: string; from: string; to: string };
      if (reply.status === 200) {
        const files = branchFiles(e14(app.store), deploymentOf(app, req), renamed.branchName);
        files.set(renamed.from, files.get(renamed.to)!);
      }
      return reply;
    },
  },
  {
    name: "upload-keeps-first-chunk",
    breaks: "E14 rule 14 (chunked upload)",
    description: "a second chunk of the same file in an upload is acknowledged and dropped",
    because: { "data-model.upload.chunks-joined": "chunks-joined" },
    operations: ["uploadFile"],
    handle: ({ req, app, next }) => {
      const upload = e14(app.store).uploads.get(req.body?.uploadId);
      if (upload?.files.has(req.body.fileName))
        return ok({ uploadId: req.body.uploadId, fileName: req.body.fileName, size: upload.files.get(req.body.fileName)!.length });
      return next();
    },
  },
  {
    name: "dbt-sync-branch-ignored",
    breaks: "E14 rule 10 (optional branchName, ref)",
    description: "a dbt sync started with branchName and ref runs for the production branch",
    because: { "dbt-sync.start.branch-and-ref": "branch-kept" },
    operations: ["startDbtSync"],
    handle: ({ req, next }) => {
      if (req.body && typeof req.body === "object") {
        const { branchName: _branch, ref: _ref, ...rest } = req.body;
        req.body = rest;
      }
      return next();
    },
  },
  {
    name: "placement-refresh-by-address-missing",
    breaks: "E14 rule 13 (placement address)",
    description: "a refresh finds a placement by its placementId only; by externalWorkbookId, sheetName and anchorCell it answers 404",
    because: { "reports.placement.addressing": "refresh-by-address" },
    operations: ["refreshReport"],
    handle: ({ req, next }) => {
      if (!req.body?.placementId) throw new HttpError(404, "no such placement of this report");
      return next();
    },
  },
  {
    name: "placement-remove-by-id-ignored",
    breaks: "E14 rule 13 (placement removal)",
    description: "removing a placement by its placementId answers 200 and keeps it",
    because: { "reports.placement.addressing": "placement-removed" },
    operations: ["disconnectReportWorkbook"],
    handle: ({ req, next }) => {
      const id = req.query.get("placementId");
      if (id) return ok({ deleted: id });
      return next();
    },
  },
  {
    name: "policy-secrets-manage-refused",
    breaks: "Authentication 5",
    description: "a policy with the action SecretsManage is refused, though the document lists the action",
    because: { "policies.actions.named": "policy-action-accepted" },
    operations: ["createPolicy", "updatePolicy"],
    handle: ({ req, next }) => {
      if (req.body?.action === "SecretsManage") throw new HttpError(400, "action must be one of Read, Edit, Manage, DownloadData, AuditLogManage");
      return next();
    },
  },
  {
    name: "embed-member-removal-ignored",
    breaks: "E14 (embed tenants: group members)",
    description: "removing a member from an embed group answers 204 and keeps the member",
    because: { "embed-tenants.groups.members": "member-gone" },
    operations: ["removeEmbedGroupMember"],
    handle: () => ({ status: 204 }),
  },
];

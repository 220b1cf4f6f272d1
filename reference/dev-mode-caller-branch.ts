import { e14 } from "./e14/state.js";
import { itemOf, itemsOf, deploymentOf } from "./routes/common.js";
import { HttpError, type Req } from "./http.js";
import type { Variant } from "./variant.js";

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
    const { workbookId, ...rest } = req.body as { workbookId?: unknown };
    if (!exists && workbookId === undefined) throw new HttpError(400, "field 'workbookId' is required to create a report");
    if (workbookId !== undefined) itemOf(app, dep, String(workbookId), "WORKBOOK");
    req.body = rest;
  },
  respond: (body, req) =>
    req.operation === "getSpec"
      ? withSchema(body, "ReportUpsertRequest", (s) => ({
          ...s,
          properties: { ...s.properties, workbookId: { type: "integer", description: "required on create" } },
        }))
      : body,
};

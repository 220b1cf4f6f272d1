import { e14 } from "./e14/state.js";
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

import { operation } from "../../core/api/operations.js";
import type { Fault } from "../http.js";

/** Faults of the served document, GET /api/v1/spec (an E14 route; Versioning 1). */
export const specDocumentFaults: Fault[] = [
  {
    name: "spec-openapi-3-0",
    breaks: "Versioning 1",
    description: "the served document declares openapi 3.0.3",
    because: { "spec.document.openapi-3-1": "openapi-version" },
    routes: ["E14"],
    respond: servedSpec((doc) => (doc.openapi = "3.0.3")),
  },
  {
    name: "spec-version-0-4-0",
    breaks: "Versioning 1",
    description: "the served document carries info.version 0.4.0, its last revision's number",
    because: { "spec.document.version": "info-version" },
    routes: ["E14"],
    respond: servedSpec((doc) => (doc.info.version = "0.4.0")),
  },
  {
    name: "spec-untitled",
    breaks: "Versioning 1",
    description: "the served document's title does not name a platform API",
    because: { "spec.document.title": "title" },
    routes: ["E14"],
    respond: servedSpec((doc) => (doc.info.title = "Service")),
  },
  {
    name: "spec-dangling-ref",
    breaks: "Versioning 1; E14 (the full document)",
    description: "the E13 answer refers to a schema the document does not hold",
    because: { "spec.document.dereferences": "dangling-ref" },
    routes: ["E14"],
    respond: servedSpec(
      (doc) =>
        (doc.paths[operation("listEnvVars").path].get.responses["200"].content["application/json"].schema = {
          $ref: "#/components/schemas/EnvVarsListResponseV2",
        }),
    ),
  },
  {
    name: "spec-bulk-move-missing",
    breaks: "Versioning 1; E12",
    description: "the served document leaves out the E12 bulk-move operation",
    because: { "spec.operations.documented": "operation-missing" },
    routes: ["E14"],
    respond: servedSpec((doc) => delete doc.paths[operation("bulkMoveWorkspaceItems").path].post),
  },
];

/** Rewrites a copy of the OpenAPI document GET /api/v1/spec serves; other E14 answers pass untouched. */
export function servedSpec(edit: (doc: any) => unknown): NonNullable<Fault["respond"]> {
  return ({ body, req }) => {
    if (req.operation !== "getSpec") return body;
    // The served document is one shared object: never edit it in place.
    const doc = structuredClone(body);
    edit(doc);
    return doc;
  };
}

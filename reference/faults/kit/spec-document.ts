import type { Fault } from "../../http.js";

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

import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Schemas } from "../core/spec/schemas.js";
import { operationsOf } from "../core/served/served-document.js";
import { namesMadeUpValue, queryArbitrary, specQueryParameters } from "../suites/documented/requests.js";

/** A served document may type a spec'd parameter more loosely than the spec: the generated request obeys the spec. */
let schemas: Schemas;
beforeAll(async () => {
  schemas = await Schemas.load();
});

/** E8 as a published document may type it: folderId a number or null, and a oneOf with null besides. */
const served = {
  openapi: "3.1.0",
  paths: {
    "/api/v1/deployments/{deploymentId}/workbooks": {
      get: {
        parameters: [
          { name: "deploymentId", in: "path", required: true, schema: { type: "number" } },
          { name: "folderId", in: "query", required: false, schema: { oneOf: [{ type: "number" }, { type: "null" }] } },
          { name: "first", in: "query", required: false, schema: { type: "integer", minimum: 1, oneOf: [{ type: "integer" }, { type: "null" }] } },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
  },
};

describe("generated queries of a served document", () => {
  it("obey the types and bounds the spec states: folderId an integer of at least 0, never 33696975.32720433", () => {
    const [op] = operationsOf(served);
    const queries = fc.sample(queryArbitrary(op, specQueryParameters(schemas.document, op)), { numRuns: 300, seed: 5 });
    const folderIds = queries.map((q) => q.folderId).filter((v) => v !== undefined);
    expect(folderIds.length).toBeGreaterThan(0);
    for (const v of folderIds) expect(Number.isInteger(v) && (v as number) >= 0, String(v)).toBe(true);
    for (const q of queries) if (q.first !== undefined) expect(Number.isInteger(q.first) && (q.first as number) >= 1).toBe(true);
  });

  it("a query naming a made-up value is told from one that only pages", () => {
    expect(namesMadeUpValue({ folderId: 12, first: 5 })).toBe(true);
    expect(namesMadeUpValue({ first: 5, after: undefined, offset: 0, limit: 3 })).toBe(false);
  });
});

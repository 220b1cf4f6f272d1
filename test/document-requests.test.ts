import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Schemas } from "../core/api/schemas.js";
import { type Operation, operationsOf } from "../core/served/served-document.js";
import type { RunSettings } from "../core/api/settings.js";
import { mayWrite, namesMadeUpValue, optInOf, queryArbitrary, specQueryParameters } from "../suites/lib/documented-requests.js";
import { resourcesOf } from "../suites/lib/documented-resources.js";

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

  it("an id read from a record that the parameter does not take (a fractional folderId) is not sent as the filter (issue 28)", () => {
    const [op] = operationsOf(served);
    const spec = specQueryParameters(schemas.document, op);
    const fractional = fc.sample(queryArbitrary(op, spec, { folderId: "33696975.32720433" }), { numRuns: 200, seed: 5 });
    expect(fractional.map((q) => q.folderId).filter((v) => v !== undefined && !Number.isInteger(v))).toEqual([]);
    const whole = fc.sample(queryArbitrary(op, spec, { folderId: "7" }), { numRuns: 200, seed: 5 });
    expect(whole.some((q) => q.folderId === "7" || q.folderId === 7)).toBe(true);
  });

  it("a query naming a made-up value is told from one that only pages", () => {
    expect(namesMadeUpValue({ folderId: 12, first: 5 })).toBe(true);
    expect(namesMadeUpValue({ first: 5, after: undefined, offset: 0, limit: 3 })).toBe(false);
  });
});

describe("what a run may send, by opt-in (issue 21)", () => {
  const settings = (over: Partial<RunSettings> = {}): RunSettings => ({
    baseUrl: "http://x",
    tokens: {},
    fixtures: {},
    writes: true,
    unremovableWrites: false,
    timeoutMs: 1,
    runs: 1,
    seed: 1,
    strict: false,
    ...over,
  });
  const op = (method: Operation["method"], path: string) => ({ method, path });

  it("names the opt-in of a deployment's lifecycle and of the git operations, and no other", () => {
    expect(optInOf(op("POST", "/build/api/v1/deployments/"))).toBe("deployment-lifecycle");
    expect(optInOf(op("DELETE", "/api/v1/deployments/{deploymentId}"))).toBe("deployment-lifecycle");
    expect(optInOf(op("POST", "/api/v1/deployments/{deploymentId}/creation-step/reset"))).toBe("deployment-lifecycle");
    for (const git of ["commit", "pull", "merge", "merge-to-default", "github/connect"])
      expect(optInOf(op("POST", `/build/api/v1/deployments/{deploymentId}/${git}`))).toBe("git-operations");
    // E6 redeploys: its own opt-in (--allow-deployment-changes), never a chain's update.
    expect(optInOf(op("PUT", "/api/v1/deployments/{deploymentId}"))).toBeUndefined();
    expect(optInOf(op("DELETE", "/build/api/v1/deployments/{deploymentId}/branches"))).toBeUndefined();
  });

  it("sends an operation of class never only by a check under its opt-in, as the user granted it", () => {
    const create = op("POST", "/build/api/v1/deployments");
    expect(mayWrite(create, settings({ deploymentLifecycle: true }))).toBe(false);
    expect(mayWrite(create, settings({ deploymentLifecycle: true }), "git-operations")).toBe(false);
    expect(mayWrite(create, settings(), "deployment-lifecycle")).toBe(false);
    expect(mayWrite(create, settings({ deploymentLifecycle: true, writes: false }), "deployment-lifecycle")).toBe(false);
    expect(mayWrite(create, settings({ deploymentLifecycle: true }), "deployment-lifecycle")).toBe(true);
    expect(
      mayWrite(op("PUT", "/api/v1/deployments/{deploymentId}"), settings({ deploymentLifecycle: true, deploymentChanges: true }), "deployment-lifecycle"),
    ).toBe(false);
  });

  it("finds a deployment's delete and list under the other prefix, and leaves E6 out of its chain", () => {
    const doc = {
      openapi: "3.1.0",
      paths: {
        "/build/api/v1/deployments": {
          post: { requestBody: { content: { "application/json": { schema: { type: "object" } } } }, responses: { "201": { description: "made" } } },
        },
        "/api/v1/deployments": { get: { responses: { "200": { description: "list" } } } },
        "/api/v1/deployments/{deploymentId}": {
          put: { responses: { "200": { description: "E6" } } },
          delete: { responses: { "204": { description: "gone" } } },
        },
      },
    };
    const [r, ...rest] = resourcesOf(operationsOf(doc), settings({ deploymentLifecycle: true, deploymentChanges: true }), "deployment-lifecycle");
    expect(rest).toEqual([]);
    expect([r.create.path, r.remove?.method, r.remove?.path, r.list?.path, r.update]).toEqual([
      "/build/api/v1/deployments",
      "DELETE",
      "/api/v1/deployments/{deploymentId}",
      "/api/v1/deployments",
      undefined,
    ]);
    expect(resourcesOf(operationsOf(doc), settings({ deploymentLifecycle: true }))).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import type { Response } from "../core/transport/http.js";
import { ServedModel } from "../core/served/model.js";
import { dereference } from "../core/api/dereference.js";
// A body's required fields draw their values through the generators, registered here as the suites register them.
import "../suites/lib/served-draws.js";
import { gitSteps } from "../suites/documented/opt-ins.js";
import { bodyFor } from "../suites/lib/documented-resources.js";
import type { CheckContext } from "../core/check/context.js";

/** The served model reads what a server documents: its wrapper, where a create's id is, which operations address it. */
const folder = { type: "object", required: ["id", "name"], properties: { id: { type: "integer" }, name: { type: "string" } } };
const wrapped = { type: "object", required: ["data"], properties: { data: { $ref: "#/components/schemas/Folder" } } };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

async function model(paths: Record<string, unknown>): Promise<ServedModel> {
  const raw = { openapi: "3.1.0", info: { title: "t", version: "1" }, paths, components: { schemas: { Folder: folder } } };
  return new ServedModel(raw, await dereference(raw));
}

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  ({ status, body, isJson: true, headers, text: JSON.stringify(body) }) as unknown as Response;

describe("the served model", () => {
  it("reads a record under its documented wrapper, and the body as it is where none is documented", async () => {
    const m = await model({
      "/api/v1/folders": {
        post: { responses: { "201": json(wrapped) } },
        get: { responses: { "200": json({ type: "object", required: ["items"], properties: { items: { type: "array", items: folder } } }) } },
      },
      "/api/v1/plain": { post: { responses: { "200": json(folder) } } },
    });
    expect(m.require("POST", "/api/v1/folders", "").record(answer(201, { data: { id: 3, name: "a" } }))).toEqual({ id: 3, name: "a" });
    expect(m.require("POST", "/api/v1/plain", "").record(answer(200, { id: 3, name: "a" }))).toEqual({ id: 3, name: "a" });
    // A list's one array is no wrapper.
    const list = { items: [{ id: 1, name: "x" }] };
    expect(m.require("GET", "/api/v1/folders", "").record(answer(200, list))).toBe(list);
  });

  it("finds a create's id by its link's expression, then the record, then the Location header (typed as the schema's id)", async () => {
    const m = await model({
      "/api/v1/linked": {
        post: {
          responses: { "201": { ...json(wrapped), links: { read: { operationId: "getLinked", parameters: { linkedId: "$response.body#/data/id" } } } } },
        },
      },
      "/api/v1/linked/{linkedId}": {
        get: { operationId: "getLinked", responses: { "200": json(folder) } },
        delete: { responses: { "204": { description: "gone" } } },
      },
      "/api/v1/located": {
        post: {
          responses: {
            "201": {
              description: "made",
              headers: { Location: { schema: { type: "string" } } },
              ...json({ type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } }),
            },
          },
        },
      },
      "/api/v1/located/{id}": { patch: { responses: { "200": json(folder) } } },
    });
    const linked = m.require("POST", "/api/v1/linked", "");
    expect(linked.created(answer(201, { data: { id: 7, name: "a" } }))).toEqual({ id: 7, record: { id: 7, name: "a" } });
    const located = m.require("POST", "/api/v1/located", "");
    expect(located.created(answer(201, { name: "b" }, { location: "/api/v1/located/12" }))).toEqual({
      id: 12,
      record: { name: "b" },
      location: "/api/v1/located/12",
    });
    expect(located.created(answer(201, { name: "b" })).id).toBeUndefined();
    // Links first (only the GET is linked), then the paths for what the links do not name (the DELETE).
    const byLink = m.addressed(linked.op)!;
    expect([byLink.read?.path, byLink.remove?.path]).toEqual(["/api/v1/linked/{linkedId}", "/api/v1/linked/{linkedId}"]);
    expect(m.addressed(located.op)!.update?.method).toBe("PATCH");
  });

  it("matches a request path to one operation: a documented literal segment before a placeholder", async () => {
    const m = await model({ "/api/v1/users/{userId}": { post: { responses: {} } }, "/api/v1/users/bulk": { post: { responses: {} } } });
    expect(m.find("POST", "/api/v1/users/bulk/")?.path).toBe("/api/v1/users/bulk");
    expect(m.find("POST", "/api/v1/users/42")?.path).toBe("/api/v1/users/{userId}");
    expect(m.find("POST", "/api/v1/users/{id}")?.path).toBe("/api/v1/users/{userId}");
    expect(m.find("GET", "/api/v1/users/42")).toBeUndefined();
  });

  it("finds the served operation of a table row by its template, whatever the document names the placeholders", async () => {
    const m = await model({
      "/api/v1/embed-tenants/{id}/groups/{groupId}/members/": { get: { responses: { "200": json(folder) } } },
      "/api/v1/users/bulk": { post: { responses: { "200": json(folder) } } },
      "/api/v1/users/{userId}": { put: { responses: { "200": json(folder) } } },
    });
    expect(m.findNamed("listEmbedGroupMembers")?.path).toBe("/api/v1/embed-tenants/{id}/groups/{groupId}/members/");
    expect(m.findNamed("updateUser")?.path).toBe("/api/v1/users/{userId}");
    expect(m.findNamed("getUser")).toBeUndefined();
    expect(() => m.requireNamed("createPolicy", "creates a policy")).toThrow(/POST \/api\/v1\/policies, which creates a policy/);
  });
  it("spells a body as documented: alternatives by name, a list's items fitted, and hints the body holds only in a list of objects sent as a one-item list", async () => {
    const body = (schema: unknown) => ({ requestBody: { content: { "application/json": { schema } } }, responses: { "200": json(folder) } });
    const pair = { type: "object", required: ["from", "to"], properties: { from: { type: "string" }, to: { type: "string" } } };
    const m = await model({
      "/api/v1/flat": {
        post: body({
          type: "object",
          required: ["oldName", "newName"],
          properties: { branch: { type: "string" }, oldName: { type: "string" }, newName: { type: "string" } },
        }),
      },
      "/api/v1/listed": {
        post: body({ type: "object", required: ["renames"], properties: { branchName: { type: "string" }, renames: { type: "array", items: pair } } }),
      },
      "/api/v1/none": { post: body({ type: "object", properties: { branchName: { type: "string" } } }) },
    });
    const hints = { "branchName|branch?": "b", "from|oldName": "x", "to|newName": "y" };
    expect(m.require("POST", "/api/v1/flat", "").body(hints)).toEqual({ branch: "b", oldName: "x", newName: "y" });
    expect(m.require("POST", "/api/v1/listed", "").body(hints)).toEqual({ branchName: "b", renames: [{ from: "x", to: "y" }] });
    expect(() => m.require("POST", "/api/v1/none", "").body(hints)).toThrow(/documents no property from or oldName/);
  });

  it("names a merge's branch and its target by the names a document gives them (documented.operations.git)", async () => {
    const branchBody = (props: Record<string, unknown>, required: string[]) => ({
      post: { requestBody: json({ type: "object", additionalProperties: false, required, properties: props }), responses: { "200": json(folder) } },
    });
    const text = { type: "string", minLength: 1 };
    // A blind Python server's spelling (issue 30), and the one the reference documents.
    for (const [source, target] of [
      ["sourceBranch", "targetBranch"],
      ["branchName", "target"],
    ]) {
      const m = await model({ "/build/api/v1/deployments/{deploymentId}/merge": branchBody({ [source]: text, [target]: text }, [source]) });
      const [, hints] = gitSteps("cf-branch", "cf-parent", "cf commit").find(([name]) => name === "mergeBranch")!;
      expect(m.findNamed("mergeBranch")!.body(hints)).toEqual({ [source]: "cf-branch", [target]: "cf-parent" });
    }
  });

  it("a create's body carries the run's name in each field that takes it: an external id, an e-mail that is a string or null with a pattern (documented chains)", async () => {
    // A blind Python server's embed user (issue 30) names it by externalId; its e-mail is a string or null with a pattern.
    const m = await model({
      "/api/v1/people": {
        post: {
          requestBody: json({
            type: "object",
            required: ["externalId", "email"],
            additionalProperties: false,
            properties: {
              externalId: { type: "string", minLength: 1, maxLength: 200 },
              email: { type: ["string", "null"], pattern: "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", maxLength: 320 },
              slug: { type: "string", pattern: "^[0-9]+$" },
            },
          }),
          responses: { "201": json(folder) },
        },
      },
    });
    let n = 0;
    const ctx = { scratch: { name: (s: string) => `cf-1-ab-${s}-${++n}`, slug: (s: string) => `cf-1-ab-${s}-${++n}` } } as unknown as CheckContext;
    const body = bodyFor(ctx, m.operations.find((o) => o.method === "POST")!, 1) as Record<string, string>;
    expect(body.externalId).toMatch(/^cf-1-ab-doc-\d+$/);
    expect(body.email).toMatch(/^cf-1-ab-doc-\d+@example\.com$/);
    // A name-like field whose pattern the run's name does not fit is left out where it is optional.
    expect(body).not.toHaveProperty("slug");
  });
});

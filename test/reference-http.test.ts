import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReference, type RunningReference } from "../reference/server.js";

/**
 * Issue 29, section 5: the reference, the model server users compare theirs with, keeps the HTTP
 * rules the spec stands on and its own document, as a peer tool (Schemathesis) holds it to them:
 * a 405 names the allowed methods, every refusal it answers is declared, an empty required name
 * is refused on an update as on a create, an integer past 2^53 is read as an integer.
 */
let ref: RunningReference;
let base: string;
let token: string;
beforeAll(async () => {
  ref = await startReference();
  const c = ref.config() as any;
  [base, token] = [c.baseUrl, c.token];
});
afterAll(() => ref.close());

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

describe("the reference's HTTP answers", () => {
  it("a 405 names in Allow the methods the path takes (RFC 9110)", async () => {
    const res = await call("PATCH", "/api/v1/deployments");
    expect([res.status, res.headers.get("allow")]).toEqual([405, "GET"]);
    const groups = await call("PATCH", "/api/v1/groups");
    expect([groups.status, groups.headers.get("allow")]).toEqual([405, "GET, POST"]);
  });

  it("a concrete path is matched before a templated one (OpenAPI): PUT /users/bulk is a 405, not user 'bulk'", async () => {
    const bulk = await call("PUT", "/api/v1/users/bulk", { action: "DELETE", userIds: [0] });
    expect([bulk.status, bulk.headers.get("allow")]).toEqual([405, "POST"]);
    expect((await call("PUT", "/api/v1/users/1", { firstName: "Alice" })).status).toBe(200);
  });

  it("its served document declares the refusals it answers on every operation", async () => {
    const doc: any = await (await call("GET", "/api/v1/spec")).json();
    const undeclared: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths))
      for (const m of ["get", "put", "post", "delete", "patch"].filter((x) => item[x]))
        for (const s of ["400", "401", ...(path.includes("{") ? ["404"] : [])]) if (!item[m].responses[s]) undeclared.push(`${m} ${path} ${s}`);
    expect(undeclared).toEqual([]);
  });

  it("an update that sends a required name empty is refused, as a create is", async () => {
    const created: any = await (await call("POST", "/api/v1/groups", { name: "http rules" })).json();
    expect((await call("PUT", `/api/v1/groups/${created.id}`, { name: "" })).status).toBe(400);
    expect((await call("POST", "/api/v1/groups", { name: "" })).status).toBe(400);
  });

  it("an integer past 2^53 is an integer: taken where the document allows any integer", async () => {
    const res = await call("POST", "/api/v1/deployments/1/notifications", `{"name":"n","schedule":"daily","workbookId":9007199254740993}`);
    expect(res.status).toBeLessThan(300);
  });

  it("an integer query parameter sent empty is not an integer: refused as any other non-integer", async () => {
    expect((await call("GET", "/api/v1/user-oauth-tokens?first=")).status).toBe(400);
    expect((await call("GET", "/api/v1/deployments?limit=")).status).toBe(400);
    expect((await call("GET", "/api/v1/user-oauth-tokens?first=1")).status).toBe(200);
  });

  it("a bulk user action takes a user id past 2^53 and reports it per user, not as a malformed body", async () => {
    const res = await call("POST", "/api/v1/users/bulk", `{"action":"DEACTIVATE","userIds":[8141442157527695097]}`);
    const body: any = await res.json();
    expect([res.status, body.succeeded, body.failed.map((f: any) => f.error.status)]).toEqual([200, [], [404]]);
  });
});

describe("the reference's served document, as a peer tool (Schemathesis 4.9.5) reads it", () => {
  let doc: any;
  beforeAll(async () => {
    doc = await (await call("GET", "/api/v1/spec")).json();
  });
  const operations = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      ["get", "put", "post", "delete", "patch"].filter((m) => item[m]).map((m) => ({ path, m, op: item[m], item })),
    );

  it("a path parameter a string may fill is never empty (the empty value names another path)", async () => {
    const open = operations().flatMap(({ path, m, op, item }) =>
      [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .filter((p: any) => p.in === "path" && [p.schema?.type].flat().includes("string") && !(p.schema.minLength >= 1))
        .map((p: any) => `${m} ${path} ${p.name}`),
    );
    expect(open).toEqual([]);
    expect((await call("GET", "/api/v1/groups/")).status).toBe(200); // what an empty groupId would reach: the list
  });

  it("a create body is one object schema whose required fields are its own, not an allOf beside them", () => {
    const split = operations()
      .map(({ path, m, op }) => ({ key: `${m} ${path}`, s: op.requestBody?.content?.["application/json"]?.schema }))
      .filter(({ s }) => s?.allOf && s.required)
      .map(({ key }) => key);
    expect(split).toEqual([]);
    const users = doc.paths["/api/v1/users"].post.requestBody.content["application/json"].schema;
    expect([users.type, users.required, users.properties.email.minLength]).toEqual(["object", ["email"], 1]);
  });

  it("a branch name the branch create refuses is outside its documented pattern", async () => {
    const name = doc.paths["/build/api/v1/deployments/{deploymentId}/branches"].post.requestBody.content["application/json"].schema;
    const pattern = new RegExp((name.properties ?? doc.components.schemas.BranchCreateRequest.properties).name.pattern);
    expect(["", "-x", "a b"].map((n) => pattern.test(n))).toEqual([false, false, false]);
    expect(pattern.test("feature/x-1")).toBe(true);
  });

  it("an email the user create refuses empty is documented with minLength 1", async () => {
    expect((await call("POST", "/api/v1/users", { email: "" })).status).toBe(400);
  });
});

import { describe, expect, it } from "vitest";
import { fillPath, isMemberPath, matchOperation, matchPath, operationKey } from "../core/api/match.js";
import { OPERATIONS, SPECIFIED_OPERATIONS } from "../core/api/operations.js";
import { routes } from "../reference/routes/index.js";

describe("the operation table", () => {
  it("names each operation once, and each method and path once", () => {
    expect(new Set(OPERATIONS.map((o) => o.name)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((o) => `${o.method} ${o.path}`)).size).toBe(OPERATIONS.length);
  });

  it("holds E1-E13 once each, every path under its prefix", () => {
    expect(SPECIFIED_OPERATIONS.map((o) => o.section)).toEqual(["E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "E10", "E11", "E12", "E13"]);
    for (const o of OPERATIONS) expect(o.path.startsWith(o.prefix + "/")).toBe(true);
  });

  it("is what the reference routes by: each of its routes but the one it serves beyond the spec names a row, E1-E13 each", () => {
    for (const o of SPECIFIED_OPERATIONS) expect(routes.some((r) => r.operation === o.name)).toBe(true);
    expect(routes.filter((r) => r.unlisted).length).toBe(1);
  });
});

describe("the matcher and the filler", () => {
  it("bind placeholders, decoded, and ignore a trailing slash", () => {
    expect(matchPath("/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}", "/api/v1/deployments/7/workbooks/by-slug/a%2Fb/")).toEqual({
      deploymentId: "7",
      slug: "a/b",
    });
    expect(matchPath("/api/v1/deployments/{deploymentId}", "/api/v1/deployments/")).toBeUndefined();
    expect(matchPath("/api/v1/deployments/{deploymentId}", "/api/v1/deployments/7/x")).toBeUndefined();
  });

  it("fill each placeholder as one encoded segment, and refuse a missing one", () => {
    expect(fillPath("/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}", { deploymentId: 7, slug: "a/b c" })).toBe(
      "/api/v1/deployments/7/workbooks/by-slug/a%2Fb%20c",
    );
    expect(() => fillPath("/x/{id}", {})).toThrow(/\{id\}/);
  });

  it("find an operation by method and URL, a literal segment beating a placeholder", () => {
    expect(matchOperation(OPERATIONS, "PUT", "http://h/api/v1/deployments/3/workbooks/by-slug/s?x=1")?.operation.name).toBe("upsertWorkbookBySlug");
    expect(matchOperation(OPERATIONS, "GET", "/api/v1/deployments/3/workbooks/by-slug")?.operation.name).toBe("getWorkbook");
    expect(matchOperation(OPERATIONS, "GET", "/api/v1/users/bulk")?.operation.name).toBe("getUser");
    expect(matchOperation(OPERATIONS, "POST", "/api/v1/users/bulk")?.operation.name).toBe("bulkUserAction");
    expect(matchOperation(OPERATIONS, "PATCH", "/api/v1/deployments/3")).toBeUndefined();
  });

  it("read a template against templates: a placeholder of any name fits, a placeholder beats a literal for a placeholder", () => {
    const served = [
      { method: "PUT", path: "/api/v1/users/bulk" },
      { method: "PUT", path: "/api/v1/users/{userId}/" },
      { method: "GET", path: "/api/v1/deployments/{id}/logs" },
    ];
    expect(matchOperation(served, "put", "/api/v1/users/{id}")?.operation.path).toBe("/api/v1/users/{userId}/");
    expect(matchOperation(served, "PUT", "/api/v1/users/bulk")?.operation.path).toBe("/api/v1/users/bulk");
    expect(matchOperation(served, "GET", "/api/v1/deployments/{deploymentId}/logs")?.operation.path).toBe("/api/v1/deployments/{id}/logs");
    expect(matchOperation(served, "GET", "/api/v1/deployments/7/logs/")?.params).toEqual({ id: "7" });
    expect(matchOperation(served, "GET", "/api/v1/deployments/{deploymentId}/pods")).toBeUndefined();
  });

  it("key a template whatever its placeholders are named, a trailing slash dropped", () => {
    expect(operationKey("get", "/api/v1/deployments/{deploymentId}/")).toBe(operationKey("GET", "/api/v1/deployments/{id}"));
    expect(operationKey("GET", "/api/v1/users/{id}")).not.toBe(operationKey("GET", "/api/v1/users/bulk"));
  });

  it("tell a member's template of a collection's", () => {
    expect(isMemberPath("/api/v1/policies", "/api/v1/policies/{policyId}/")).toBe(true);
    expect(isMemberPath("/api/v1/policies/", "/api/v1/policies/{id}")).toBe(true);
    expect(isMemberPath("/api/v1/policies", "/api/v1/policies/bulk")).toBe(false);
    expect(isMemberPath("/api/v1/policies", "/api/v1/policies/{id}/rules")).toBe(false);
    expect(isMemberPath("/api/v1/t/{tenantId}/users", "/api/v1/t/{id}/users/{userId}")).toBe(false);
  });
});

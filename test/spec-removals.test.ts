import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../core/api/operations.js";
import { declaring, removedEndpoint } from "../suites/spec/removals.js";

/**
 * How the spec group tells the endpoints the revision history removed (suites/spec/removals.ts):
 * by the words their names give, never by a path the spec does not write. A false alarm is as bad
 * as a miss: no operation of the table, nor one near a removed name, is taken for a removed one.
 */
describe("the revision history's removals, told by name", () => {
  it("reads the old paths the names describe, however a server spelt them", () => {
    expect(removedEndpoint("PUT", "/api/v1/embed/dashboard/{publicId}/widgets/{widgetId}/ai-thread-id")).toMatch(/0\.4\.0/);
    expect(removedEndpoint("POST", "/api/v1/dashboards/{publicId}/widgetThread")).toMatch(/0\.4\.0/);
    expect(removedEndpoint("GET", "/api/v1/active-agent-region")).toMatch(/0\.3\.0/);
    expect(removedEndpoint("GET", "/api/v1/agents/active/region")).toMatch(/0\.3\.0/);
    expect(removedEndpoint("GET", "/api/v1/embed-tenants/{tenantId}/user-attributes")).toMatch(/0\.2\.0/);
    expect(removedEndpoint("DELETE", "/api/v1/embedTenants/{tenantId}/users/{userId}/attributes/{name}")).toMatch(/0\.2\.0/);
  });

  it("takes none of the spec's operations, nor their neighbours, for a removed one", () => {
    expect(OPERATIONS.filter((o) => removedEndpoint(o.method, o.path)).map((o) => `${o.method} ${o.path}`)).toEqual([]);
    for (const [method, path] of [
      ["GET", "/api/v1/regions/"],
      ["GET", "/api/v1/regions/{regionId}/agents"],
      ["GET", "/api/v1/ai/threads/{threadId}"],
      ["PUT", "/api/v1/embed-tenants/{tenantId}/users/{embedUserId}/attributes"],
      ["GET", "/api/v1/embed-tenants/{tenantId}/users"],
      ["DELETE", "/api/v1/user-attributes/{attributeId}"],
    ] as const)
      expect(removedEndpoint(method, path), `${method} ${path}`).toBeUndefined();
  });

  it("finds the removed session field in any schema's properties, and only there", () => {
    const doc = {
      components: { schemas: { Session: { type: "object", properties: { ephemeralTtlSeconds: { type: "integer" } } } } },
      paths: { "/x": { get: { responses: { "200": { content: { "application/json": { example: { ephemeralTtlSeconds: 5 } } } } } } } },
    };
    expect(declaring(doc, "ephemeralTtlSeconds")).toEqual(["#/components/schemas/Session/properties/ephemeralTtlSeconds"]);
  });
});

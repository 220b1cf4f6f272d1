import { describe, expect, it } from "vitest";
import { pathTo } from "../core/transport/client.js";
import type { OperationName } from "../core/api/operations.js";
import { KnownIds, ownId, unwrapped } from "../core/ledger/door-keyless.js";

/**
 * The keyless rule (issue 26, section 2) knows the kind of what the run made: an id the run made
 * of one kind does not license a keyless write to another kind's object that has the same number.
 */

const answer = (method: string, name: OperationName, params: Record<string, string>, body: unknown) => ({
  method,
  url: new URL(pathTo(name, params), "http://server.invalid"),
  status: 200,
  text: JSON.stringify(body),
  body,
  isJson: true,
});

describe("a keyless request's target", () => {
  it("is the run's own only as the kind the run made it: workbook 17 does not make deployment 17 the run's", () => {
    const ids = new KnownIds();
    // The server lists deployment 17 (found), and the run makes a workbook, a clone and a folder, each numbered 17.
    ids.see(answer("GET", "listDeployments", {}, { data: { deployments: [{ id: 17 }, { id: 3 }] } }));
    ids.see(answer("PUT", "upsertWorkbookBySlug", { deploymentId: "3", slug: "cf-x" }, { id: 17, name: "cf-x" }));
    const deleteDeployment = pathTo("deleteDeployment", { deploymentId: "17" });
    expect(ids.refuses("DELETE", deleteDeployment)).toMatch(/without a key to 17, an object the server showed and the run did not make as a deploymentId/);
    // The workbook itself, listed by the server too, is the run's: a keyless write to it goes.
    ids.see(answer("GET", "listWorkbooks", { deploymentId: "3" }, { items: [{ id: 17 }] }));
    expect(ids.refuses("PUT", pathTo("setEmbedAccess", { deploymentId: "3", workbookId: "17" }))).toBeUndefined();
    // A folder the run made with the same number is a folder, not a deployment either.
    ids.see(answer("POST", "createFolder", { deploymentId: "3" }, { data: { id: 17 } }));
    expect(ids.refuses("DELETE", pathTo("deleteFolder", { deploymentId: "3", folderId: "17" }))).toBeUndefined();
    expect(ids.refuses("DELETE", deleteDeployment)).toBeDefined();
  });

  it("is the run's own deployment where the run created it, under the build prefix", () => {
    const ids = new KnownIds();
    ids.see(answer("GET", "listDeployments", {}, { data: { deployments: [{ id: 21 }] } }));
    ids.see(answer("POST", "createDeployment", {}, { data: { id: 21 } }));
    expect(ids.refuses("DELETE", pathTo("deleteDeployment", { deploymentId: "21" }))).toBeUndefined();
  });
});

describe("the object a write's answer carries", () => {
  it("is found under the table's wrappers and under a server's own single wrapper, never inside a list", () => {
    expect(ownId({ id: 7, data: { id: 8 } })).toBe("7");
    expect(ownId({ data: { deployment: { id: "120" } } })).toBe("120");
    // E14 leaves the shape open: the blind PHP server answers a started dbt sync as {"syncJob": {...}}.
    expect(ownId({ syncJob: { id: "sync_fn52", status: "waiting" } })).toBe("sync_fn52");
    expect(unwrapped({ deployment: { id: "1", name: "cf-x" }, links: {} })).toEqual({ id: "1", name: "cf-x" });
    // Two keys, neither a known wrapper, or a list: no object of its own.
    expect(ownId({ job: { id: 1 }, other: { id: 2 } })).toBeUndefined();
    expect(ownId({ data: { deployments: [{ id: 1 }] } })).toBeUndefined();
    expect(ownId({ items: [{ id: 1 }] })).toBeUndefined();
  });
});

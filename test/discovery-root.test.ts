import { describe, expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { selectChecks } from "../core/run/select.js";
import { rootCauses } from "../core/run/verdict.js";
import { catalogue } from "../suites/index.js";
import { refusingProxy } from "./refusing-proxy.js";

/**
 * Issue 28: a mock of the published document answered 422 to the deployments list read as
 * discovery reads it (offset and limit) and 200 without them. The defect is the discovery's read:
 * one root named for what it discovers, every check that needed it blocked under it with the
 * server's answer, none charged to the first check that asked.
 */
const refusingPagedDeployments = () =>
  refusingProxy(
    (req, url) =>
      req.method === "GET" && url.pathname === "/api/v1/deployments" && url.searchParams.has("offset")
        ? { status: 422, body: { detail: "offset: extra inputs are not permitted" } }
        : undefined,
    { writes: false },
  );

describe("discovery is a root of its own (issue 28)", () => {
  it("a failed discovery read blocks the checks that needed it under 'discovery: the deployments list', with the server's answer; no check is charged", async () => {
    const proxy = await refusingPagedDeployments();
    try {
      const checks = selectChecks(catalogue, ["workbooks", "versions"]);
      const { results } = await runChecks(checks, proxy.settings, await Schemas.load());
      const blocked = results.filter((r) => r.status === "blocked");
      expect(blocked.length).toBeGreaterThan(0);
      for (const r of blocked) expect(r.blockedBy).toMatch(/^discovery: the deployments list: .* answered 422: {"detail":"offset: extra inputs/);
      expect(results.filter((r) => r.status === "failed").map((r) => `${r.id}: ${r.message}`)).toEqual([]);
      expect(rootCauses(results).map((c) => c.root.check)).toEqual(["discovery: the deployments list"]);
    } finally {
      await proxy.close();
    }
  });
});

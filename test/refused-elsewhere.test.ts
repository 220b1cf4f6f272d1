import { describe, expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { selectChecks } from "../core/run/select.js";
import { catalogue } from "../suites/index.js";
import { refusingProxy } from "./refusing-proxy.js";

/**
 * Issue 28: a notification create refused for a field the suite never sent (`workbookId`, which
 * that server requires) was charged to the filter operator under test. A refusal that names
 * another field makes the rule not verifiable, with the server's words.
 */
describe("a refusal naming a field other than the one under test (issue 28)", () => {
  it("leaves the rule not verifiable, quoting the server, never failed", async () => {
    const proxy = await refusingProxy((req, url) =>
      req.method === "POST" && /\/notifications$/.test(url.pathname)
        ? { status: 422, body: { detail: [{ loc: ["body", "workbookId"], msg: "Field required", type: "missing" }] } }
        : undefined,
    );
    try {
      const { results } = await runChecks(selectChecks(catalogue, undefined, ["notifications.filters.empty-operators"]), proxy.settings, await Schemas.load());
      expect(results.map((r) => [r.status, r.skipKind])).toEqual([["skipped", "not-verifiable"]]);
      expect(results[0].message).toMatch(/workbookId.*Field required/);
    } finally {
      await proxy.close();
    }
  });
});

/**
 * Issue 28: embed access ("dashboard access per embed tenant or for all embed users") was set on a
 * bare workbook with no dashboard; a server's 400 for that is reasonable. The rule runs on a
 * workbook of the run's own that has a published dashboard.
 */
describe("a rule runs on an object that has what the rule is about (issue 28)", () => {
  it("embed access is set on a workbook with a published dashboard", async () => {
    const proxy = await refusingProxy(async (req, url, upstream) => {
      if (req.method !== "PUT" || !url.pathname.endsWith("/embed-access")) return undefined;
      const workbook = await fetch(upstream + url.pathname.replace(/\/embed-access$/, ""), { headers: { authorization: String(req.headers.authorization) } });
      const body = (await workbook.json()) as { publishedDashboard?: unknown };
      return body.publishedDashboard ? undefined : { status: 400, body: { error: "this workbook has no published dashboard to give access to" } };
    });
    try {
      const { results } = await runChecks(selectChecks(catalogue, undefined, ["embed.access.actions"]), proxy.settings, await Schemas.load());
      expect(results.map((r) => `${r.status}: ${r.message}`)).toEqual(["passed: "]);
    } finally {
      await proxy.close();
    }
  });
});

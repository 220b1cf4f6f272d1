import { describe, expect, it } from "vitest";
import { group } from "../core/check/check.js";
import { checksNamed } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";

/**
 * A 404 is "endpoint missing" only where the route is shown missing (core/api/preconditions.ts): on
 * a route whose owner check passed, it is the server's answer to the request, and no check is
 * blocked by a root cause that passed.
 */
describe("never blocked by a root that passed", () => {
  const owner = checksNamed("workbooks.get.schema")[0];
  const unknownId = (dep: string) => `/api/v1/deployments/${dep}/workbooks/999999999`;
  const checks = [
    ...group("served", [
      {
        id: "served.precondition-404",
        spec: "test",
        level: "MUST",
        title: "builds its scenario on a workbook that is not there",
        needs: ["fixture:deployment"],
        async run(ctx) {
          ctx.require(await ctx.api.get(unknownId(ctx.fixture("deployment").id)), "E9", "reading a workbook");
        },
      },
      {
        id: "served.refusal-404",
        spec: "test",
        level: "MUST",
        title: "expects a refusal of an unknown workbook",
        needs: ["fixture:deployment"],
        async run(ctx) {
          const res = await ctx.api.get(unknownId(ctx.fixture("deployment").id));
          ctx.requireRoute(res, "E9", "reading an unknown workbook");
          ctx.expect.clientError(res);
        },
      },
    ]),
    owner,
  ];

  it("the owner passed: a 404 on its route fails the check that needed a 2xx, and answers the one that expected a refusal", async () => {
    const { results } = await runAgainstReference(checks, { settings: { concurrency: 1 } });
    expect(results.map((r) => [r.id, r.status, r.reason])).toEqual([
      ["served.precondition-404", "failed", "precondition"],
      ["served.refusal-404", "passed", undefined],
      ["workbooks.get.schema", "passed", undefined],
    ]);
    expect(results[0].message).toContain("its owner check workbooks.get.schema passed");
  });
});

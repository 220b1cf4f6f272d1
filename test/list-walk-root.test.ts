import { describe, expect, it } from "vitest";
import { selectChecks } from "../core/run/select.js";
import { rootCauses } from "../core/run/verdict.js";
import { catalogue } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";

/**
 * Issue 28, point 7: a list walk's defect belongs to the list rules. On a workbooks list whose later
 * pages answer the cursor they were asked with (a walk that never ends: the reference fault
 * end-cursor-repeats-on-every-list), E8's folder filter, whose rule is not about pagination, met the
 * broken walk and failed for it. It is blocked: under the list rule that failed on that list, or,
 * where no list rule ran, under a root named for the list's walk, with the server's answer.
 */
const FAULT = "end-cursor-repeats-on-every-list";
const FILTER = "workbooks.list.folder-filter-every-page";

describe("a list walk's defect belongs to the list rules (issue 28)", () => {
  it("a check that is not about the list is blocked under the list rule that failed on it", async () => {
    const { results } = await runAgainstReference(selectChecks(catalogue, undefined, [FILTER, "workbooks.list.cursor-walk"]), { faults: [FAULT] });
    expect(results.filter((r) => r.status === "failed").map((r) => `${r.id} ${r.reason}`)).toEqual(["workbooks.list.cursor-walk walk:repeated-cursor"]);
    const filter = results.find((r) => r.id === FILTER)!;
    expect([filter.status, filter.root?.check]).toEqual(["blocked", "workbooks.list.cursor-walk"]);
  });

  it("with no list rule in the run, it is blocked under a root named for the list's walk", async () => {
    const { results } = await runAgainstReference(selectChecks(catalogue, undefined, [FILTER]), { faults: [FAULT] });
    expect(results.map((r) => r.status)).toEqual(["blocked"]);
    expect(results[0].blockedBy).toMatch(
      /^list walk: GET \/api\/v1\/deployments\/\{deploymentId\}\/workbooks: GET .*after=.* answered 200 \(walk:repeated-cursor\)/,
    );
    expect(rootCauses(results).map((c) => c.root.check)).toEqual(["list walk: GET /api/v1/deployments/{deploymentId}/workbooks"]);
  });
});

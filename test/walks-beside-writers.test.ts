import { expect, it } from "vitest";
import { catalogue } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";

/**
 * The groups whose checks look for objects of their own in a list walked while other checks delete
 * theirs: branches (the parent and children of a delete), users (a user just made), the workspace
 * ledger's read-back before a bulk move (folders, reports), the data-model files' branches and the
 * reports a clone copied (the reports list).
 */
const GROUPS = ["branches", "users", "bulk-move", "data-model", "clone"];

/**
 * Under page-size-capped a cursor is a position and a page holds three items, so a delete beside a
 * walk skips an item on almost every walk; --repeat 4 runs four copies of each check side by side.
 * A walk that looks for an item of its own walks again before it calls it absent (walkAgainUntil):
 * no check fails for it, nor gives up as not verifiable. A property may still end at its request
 * budget, three items a page: that is said as such, not judged.
 */
it("checks that look for their own objects in a list walked beside other checks' deletes neither fail nor give up", async () => {
  for (const seed of [2, 3]) {
    const outcome = await runAgainstReference(
      catalogue.filter((c) => GROUPS.includes(c.group)),
      { variants: ["page-size-capped"], settings: { seed, runs: 5, repeat: 4 } },
    );
    const copies = outcome.results.filter((r) => r.id.includes("#"));
    expect(copies.length).toBeGreaterThan(40);
    const unjudged = outcome.results.filter(
      (r) => r.status === "failed" || r.status === "errored" || (r.status === "skipped" && !/budget/.test(r.message ?? "")),
    );
    expect(unjudged.map((r) => `${r.status} ${r.id}: ${r.message}`)).toEqual([]);
    expect(outcome.leftovers).toEqual([]);
  }
});

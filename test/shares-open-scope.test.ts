import { describe, expect, it } from "vitest";
import { conflict, sharesOf } from "../core/run/schedule.js";
import { catalogue } from "../suites/index.js";

/**
 * Issue 20 §1: checks that change server state whose scope the spec leaves open (dev mode per
 * caller, staging flags, deployment settings) never overlap with checks that read or change it.
 */
const byId = (id: string) => {
  const c = catalogue.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return sharesOf(c);
};

describe("state whose scope the spec leaves open is never changed by two checks at once", () => {
  it("the checks that start dev mode do not overlap (dev mode may be one branch at a time per caller)", () => {
    expect(conflict(byId("data-model.files.write-needs-dev-mode"), byId("data-model.validate.compile-errors-200"))).toBe(true);
  });

  it("staging toggles do not overlap the environment reads, nor deployment changes the deployment reads", () => {
    expect(conflict(byId("staging.negative.broken-body"), byId("environments.legacy.consistent"))).toBe(true);
    expect(conflict(byId("deployment-update.negative.unlisted-version"), byId("errors.negative.implied-rules"))).toBe(true);
  });

  it("a check that updates a deployment never overlaps one that walks E1 whole (a server may list by last update: the blind C++ one)", () => {
    const updaters = catalogue.filter((c) => c.needs.includes("deployment-changes"));
    const walkers = catalogue.filter((c) => sharesOf(c).includes("read:deployments"));
    expect(updaters.length).toBeGreaterThan(0);
    expect(walkers.map((c) => c.id)).toContain("deployments.list.total-consistent");
    const overlapping = updaters.flatMap((u) => walkers.filter((w) => !conflict(sharesOf(u), sharesOf(w))).map((w) => `${u.id} beside ${w.id}`));
    expect(overlapping).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { catalogue } from "../suites/index.js";

/**
 * The level cannot drift from the wording (graphql-http puts MUST or SHOULD into each audit's name
 * by type). Here a title states the rule as a fact, and the level says how strongly the spec states
 * it: a MUST title never hedges (should, ideally, preferably, recommended, "may" but for a
 * permission the caller lacks), and a SHOULD title never demands (must).
 */
const HEDGES = /\b(should|ideally|preferably|recommended|may(?! not\b))\b/i;
const DEMANDS = /\bmust\b/i;

/**
 * Rules no sentence of the spec states, only implies: each is judged at SHOULD (issue 28). A MUST
 * here is a level the text does not set.
 */
const IMPLIED_ONLY: Record<string, string> = {
  "versions.current.at-most-one": "no sentence limits isCurrent to one entry; a deployment running one version implies it",
  "versions.latest.at-most-one-per-channel": "no sentence limits isLatestInChannel to one entry per channel; 'the head of each update channel' implies it",
};

describe("levels follow the text", () => {
  it("a rule the spec only implies is a SHOULD", () => {
    for (const id of Object.keys(IMPLIED_ONLY)) expect(catalogue.find((c) => c.id === id)?.level, `${id}: ${IMPLIED_ONLY[id]}`).toBe("SHOULD");
  });
});

describe("every title reads as its level says", () => {
  it("a MUST title does not hedge", () => {
    expect(catalogue.filter((c) => c.level === "MUST" && HEDGES.test(c.title)).map((c) => `${c.id}: ${c.title}`)).toEqual([]);
  });
  it("a SHOULD title does not demand", () => {
    expect(catalogue.filter((c) => c.level === "SHOULD" && DEMANDS.test(c.title)).map((c) => `${c.id}: ${c.title}`)).toEqual([]);
  });
  it("the patterns catch what they are for", () => {
    expect(["The answer should be 200", "Ideally sorted", "A server may answer 404"].every((t) => HEDGES.test(t))).toBe(true);
    expect(HEDGES.test("An item the caller may not move is refused")).toBe(false);
    expect(DEMANDS.test("The id must be a string")).toBe(true);
  });
});

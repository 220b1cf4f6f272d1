import { expect, it } from "vitest";
import { asBothShow } from "../suites/lib/values.js";

/** Two answers compared as far as both show them (suites/lib/values.ts): null and absent alike, the rest must agree. */
it("leaves out a key either side leaves out or shows as null, at any depth, and keeps what both show", () => {
  const draft = {
    title: "A",
    widgets: [
      { id: "w1", responsiveLayouts: { md: { x: 0 } } },
      { id: "w2", style: null },
    ],
  };
  const published = {
    title: "A",
    description: null,
    widgets: [
      { id: "w1", responsiveLayouts: null },
      { id: "w2", style: { bg: "#fff" } },
    ],
  };
  expect(asBothShow(draft, published)).toEqual([
    { title: "A", widgets: [{ id: "w1" }, { id: "w2" }] },
    { title: "A", widgets: [{ id: "w1" }, { id: "w2" }] },
  ]);
  // What both show still differs: a title, or a widget one side has and the other has not.
  const [a, b] = asBothShow({ title: "A (draft)", widgets: [{ id: "w1" }] }, { title: "A", widgets: [{ id: "w1" }, { id: "w2" }] });
  expect(a).not.toEqual(b);
});

import { expect, it } from "vitest";
import { oneOfEachShape, shapeOf } from "../suites/lib/shape-sample.js";

const full = (id: number) => ({ id, calculatedFields: { margin: "a - b" }, publishedDashboard: { id } });

it("the sample of a list holds an item of each shape, however late in the list it is, then fills to the size asked", () => {
  const items = [full(1), full(2), full(3), full(4), full(5), full(6), { ...full(7), calculatedFields: {} }, { ...full(8), publishedDashboard: null }];
  expect(oneOfEachShape(items, 5).map((w) => w.id)).toEqual([1, 2, 3, 7, 8]);
  expect(oneOfEachShape(items, 3).map((w) => w.id)).toEqual([1, 7, 8]);
});

it("a shape tells null, empty and full values apart, and absent fields from present ones", () => {
  const shapes = [{ a: null }, { a: {} }, { a: [] }, { a: "" }, { a: "x" }, { a: [1] }, { a: { b: 1 } }, {}].map(shapeOf);
  expect(new Set(shapes).size).toBe(shapes.length);
  expect(shapeOf({ b: 1, a: "x" })).toBe(shapeOf({ a: "y", b: 2 }));
});

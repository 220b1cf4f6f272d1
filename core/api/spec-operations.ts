import { operationKey } from "./match.js";
import { E14_OPERATIONS, SPECIFIED_OPERATIONS } from "./operations.js";

/**
 * The spec's operations by section, method and path: a view of the operation table
 * (core/api/operations.ts) in the shape its older readers take.
 */
export interface SpecOperation {
  spec: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
}

const view = (o: { section: string; method: SpecOperation["method"]; path: string }): SpecOperation => ({ spec: o.section, method: o.method, path: o.path });

/** E1–E13: the operations whose rules the spec states. */
export const SPECIFIED: SpecOperation[] = SPECIFIED_OPERATIONS.map(view);

/**
 * E14's table where it names the method and the path. Probed to list what a server serves beyond
 * its document; never called with a valid key unless safe.
 */
export const NAMED_E14: SpecOperation[] = E14_OPERATIONS.map(view);

/** Each operation key's section, the first row of E1-E13 before E14's: keyed once, not per question (the documented layer asks per operation it reports). */
let sections: Map<string, string> | undefined;

/** The spec section of an operation key (`E9`), E14 for what only its table names, or undefined. */
export function specSectionOf(key: string): string | undefined {
  if (!sections) {
    sections = new Map();
    for (const o of [...SPECIFIED, ...NAMED_E14.map((e) => ({ ...e, spec: "E14" }))]) {
      const k = operationKey(o.method, o.path);
      if (!sections.has(k)) sections.set(k, o.spec);
    }
  }
  return sections.get(key);
}

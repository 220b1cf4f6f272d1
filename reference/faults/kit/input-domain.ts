import type { Fault } from "../../http.js";

/**
 * Pieces of the faults one step outside the inputs and answers the checks used to try (issue 29):
 * realistic server bugs in a class of an input or an answer that no check sent or judged.
 */

/** Rewrites the Workbook records of a workspace answer (a record, a list's items and data, a move's moved). */
export function eachRecord(f: (w: any) => any): NonNullable<Fault["respond"]> {
  return ({ status, body }) => {
    if (status !== 200 || typeof body !== "object" || body === null) return body;
    const lists = ["items", "data", "moved"].filter((k) => Array.isArray(body[k]));
    if (!lists.length) return typeof body.id === "number" ? f(body) : body;
    return { ...body, ...Object.fromEntries(lists.map((k) => [k, body[k].map(f)])) };
  };
}

/** Thirty days: a cap a server might set on token lifetimes without saying so. */
export const LIFETIME_CAP_SECONDS = 30 * 86_400;

/** The workbooks each server has cloned (clone-changes-source-once changes a source at its first clone only). */
export const clonedSources = new WeakMap<object, Set<number>>();

/**
 * Two strings PHP's == calls equal, being numeric strings of one number ("10" == "1e1", "1" == "01"):
 * what a server that writes a value only when it "changed" takes for no change.
 */
export function looselyEqualStrings(a: unknown, b: unknown): b is string {
  const numeric = (v: unknown): v is string => typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v));
  return numeric(a) && numeric(b) && Number(a) === Number(b);
}

/** Two values PHP's == calls equal as numeric strings: the strings themselves, or arrays of them element by element. */
export function looselyEqualValues(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => looselyEqualStrings(x, b[i]));
  return looselyEqualStrings(a, b);
}

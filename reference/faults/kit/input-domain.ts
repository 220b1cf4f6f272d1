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

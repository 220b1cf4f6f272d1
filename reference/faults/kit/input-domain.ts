import type { Fault } from "../../http.js";

/**
 * Faults one step outside the inputs and answers the checks used to try (issue 29): each is a
 * realistic server bug that sits in a class of an input (a number far beyond a plausible cap, an
 * empty string, a part of a stored value, a letter outside ASCII) or an answer (a later page, a
 * deeper folder, a second clone) that no check sent or judged.
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

import { invariant } from "../../core/run/invariants.js";
import { matchOperation } from "../../core/api/match.js";
import { OPERATIONS, pagedByCursor } from "../../core/api/operations.js";
import { isObject } from "../../core/ledger/records.js";

/** The deprecated fields of the cursor lists (Pagination styles 2; Versioning 2). */
const LEGACY = ["data", "count", "pagination"] as const;

/**
 * Versioning 2: the legacy fields of the cursor lists are "kept for backward compatibility". A server
 * may not send one at all, but tolerance is decided per server, not answer by answer: once it sent a
 * field in an answer of one list, every later 200 answer of that list keeps it (a null counts as
 * kept). A copy sent on the first page and missing on the next is a finding.
 * Which answers: every one of E2, E8 and E13, whose shapes the spec shows; of an E14 list (shapes
 * not shown), each answer that supports cursors (Pagination styles 2: "responses that support
 * cursors also keep the legacy fields"), told by its pageInfo object, whether the spec names the list
 * (E14 rule 11: branches, files, regions, user attributes, folders, reports) or the server pages it
 * so (users, groups, "and others"). Sorted by lastViewedAt the reports list has no cursor (E14 rule 5).
 */
export const legacyFieldsKept = invariant({
  id: "pagination.legacy.kept-per-server",
  spec: "Versioning 2; Pagination styles 2; E2; E8; E13; E14 rule 11",
  level: "MUST",
  title:
    "A deprecated field (data, count, pagination) a server sent in one answer of a cursor list is in every later answer of that list, on every page: E2, E8, E13 and every E14 list it answers with a cursor",
  applicable: "a 200 answer of a cursor list (E2, E8, E13, or an E14 list answering pageInfo) after one of the same list that carried a deprecated field",
  watch: () => {
    const sent = new Map<string, Set<string>>();
    return (x) => {
      if (x.method !== "GET" || x.status !== 200 || !x.isJson || !isObject(x.body)) return undefined;
      const op = matchOperation(OPERATIONS, x.method, x.url.pathname)?.operation;
      if (!op) return undefined;
      const body = x.body;
      const cursorAnswer = op.section === "E14" ? isObject(body.pageInfo) && x.url.searchParams.get("sortBy") !== "lastViewedAt" : pagedByCursor(op);
      if (!cursorAnswer) return undefined;
      const before = sent.get(op.name) ?? new Set<string>();
      const dropped = [...before].filter((f) => !(f in body));
      for (const f of LEGACY) if (f in body) before.add(f);
      sent.set(op.name, before);
      if (dropped.length)
        return {
          reason: "legacy-field-dropped",
          message: `this answer of ${op.method} ${op.path} lacks ${dropped.join(", ")}, which an earlier answer of the same list carried`,
          expected: `${dropped.join(", ")} kept on every answer, as on the earlier ones`,
          got: `fields: ${Object.keys(body).join(", ")}`,
        };
      return before.size ? "held" : undefined;
    };
  },
});

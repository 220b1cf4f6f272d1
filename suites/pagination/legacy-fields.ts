import { invariant } from "../../core/run/invariants.js";
import { typedAnswer } from "../../core/api/typed-answers.js";

/** The deprecated fields of the cursor lists (Pagination styles 2; Versioning 2). */
const LEGACY = ["data", "count", "pagination"] as const;

/**
 * Versioning 2: the legacy fields of the cursor lists are "kept for backward compatibility". A server
 * may not send one at all, but tolerance is decided per server, not answer by answer: once it sent a
 * field in an answer of one kind (the list's schema), every later 200 answer of that kind keeps it
 * (a null counts as kept). A copy sent on the first page and missing on the next is a finding.
 */
export const legacyFieldsKept = invariant({
  id: "pagination.legacy.kept-per-server",
  spec: "Versioning 2; Pagination styles 2; E2; E8; E13",
  level: "MUST",
  title: "A deprecated field (data, count, pagination) a server sent in one answer of a list is in every later answer of that list, on every page",
  applicable: "a 200 answer of a cursor list (E2, E8, E13) after one of the same list that carried a deprecated field",
  watch: () => {
    const sent = new Map<string, Set<string>>();
    return (x) => {
      const typed = x.isJson && x.status === 200 ? typedAnswer(x.method, x.url.pathname, x.status) : undefined;
      if (!typed || !["EnvironmentsListResponse", "WorkbooksListResponse", "EnvVarsListResponse"].includes(typed.schema)) return undefined;
      const body = x.body as Record<string, unknown> | null;
      if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
      const before = sent.get(typed.schema) ?? new Set<string>();
      const dropped = [...before].filter((f) => !(f in body));
      for (const f of LEGACY) if (f in body) before.add(f);
      sent.set(typed.schema, before);
      if (dropped.length)
        return {
          reason: "legacy-field-dropped",
          message: `this ${typed.schema} lacks ${dropped.join(", ")}, which an earlier answer of the same list carried`,
          expected: `${dropped.join(", ")} kept on every answer, as on the earlier ones`,
          got: `fields: ${Object.keys(body).join(", ")}`,
        };
      return before.size ? "held" : undefined;
    };
  },
});

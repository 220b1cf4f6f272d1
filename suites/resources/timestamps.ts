import { invariant } from "../../core/run/invariants.js";
import { parseTimestamp } from "../../core/api/timestamps.js";
import { typedAnswer } from "../../core/api/typed-answers.js";
import { recordsOf } from "../lib/records.js";

/**
 * The timestamp fields the spec names (of its records: list items, the data copy, moved records), and what each may be: a deployment's created_at and E3's
 * created_at and expires_at are ISO 8601 date-times; a workbook's *At a date or a date-time
 * (Conventions). facts.md: the published document gives no format, so an offset may be missing.
 */
const FIELDS: Record<string, "date-time" | "date or date-time"> = {
  created_at: "date-time",
  expires_at: "date-time",
  createdAt: "date or date-time",
  updatedAt: "date or date-time",
};

export const isoTimestamps = invariant({
  id: "resources.timestamps.every-answer",
  spec: "Resources / Deployment, Metadata token result, Workbook (ISO 8601; *At date or date-time); E1; E3",
  level: "MUST",
  title:
    "Every timestamp field of every typed answer is ISO 8601: a date-time where the spec says date-time (created_at, expires_at), a date or a date-time for a workbook's *At",
  applicable: "a timestamp field (created_at, expires_at, createdAt, updatedAt) in a typed answer",
  watch: (schemas) => {
    // Whether each timestamp string is one, judged once: the same records come back on every page
    // and read-back (about 18,000 timestamps of 1,000 values in a run with writes).
    const judged = new Map<string, boolean>();
    const isTimestamp = (value: unknown) => {
      if (typeof value !== "string") return schemas.validate("Timestamp", value).length === 0;
      let ok = judged.get(value);
      if (ok === undefined) {
        if (judged.size >= MAX_JUDGED) judged.clear();
        judged.set(value, (ok = schemas.validate("Timestamp", value).length === 0));
      }
      return ok;
    };
    return (x) => {
      const typed = x.isJson ? typedAnswer(x.method, x.url.pathname, x.status) : undefined;
      if (!typed) return undefined;
      const found = recordsOf(typed.schema, x.body).flatMap((r) =>
        Object.keys(FIELDS)
          .filter((f) => r?.[f] !== undefined && r?.[f] !== null)
          .map((field) => ({ field, value: r[field] })),
      );
      if (!found.length) return undefined;
      const wrong = found.filter(({ field, value }) => !isTimestamp(value) || (FIELDS[field] === "date-time" && parseTimestamp(value)?.dateOnly !== false));
      if (!wrong.length) return "held";
      return {
        reason: "timestamp",
        message: "a timestamp field is not ISO 8601 in the form the spec gives it",
        expected: wrong
          .map(({ field }) => `${field}: an ISO 8601 ${FIELDS[field]}`)
          .filter((v, i, a) => a.indexOf(v) === i)
          .join("; "),
        got: wrong
          .slice(0, 4)
          .map(({ field, value }) => `${field}: ${JSON.stringify(value)}`)
          .join("; "),
      };
    };
  },
});
const MAX_JUDGED = 10_000;

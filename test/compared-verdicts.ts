import type { CheckResult } from "../core/run/result.js";

/**
 * A result as a reader compares two runs (test/concurrency.test.ts, test/reproducibility.test.ts):
 * what was judged and why, not how long it took.
 */
export function verdict(r: CheckResult) {
  // An invariant's count of the exchanges its rule applied to follows what the lists held when
  // each was read (the objects of checks running beside), not the verdict: counted, not compared.
  const timeless = (s: string | undefined) =>
    s
      ?.replace(/http:\/\/127\.0\.0\.1:\d+/g, "http://127.0.0.1:PORT")
      .replace(/\d+(\.\d+)? ?ms\b/g, "N ms")
      .replace(/^held on \d+ of \d+ exchanges$/, "held on N of M exchanges");
  return {
    id: r.id,
    status: r.status,
    skipKind: r.skipKind,
    message: timeless(r.message),
    expected: timeless(r.expected),
    got: timeless(r.got),
    recurrence: r.recurrence,
  };
}

/**
 * The classes of core/api/input-domain.ts a full reference run does not exercise yet, each with
 * why: gaps said, not hidden (issue 29, section 2: "not exercised" with the reason). Keyed by
 * `operation field`, then class. test/class-coverage.test.ts holds this to the run both ways: a gap
 * not named here fails it, and so does a named one the run covers, so the list only shrinks.
 */

export const NOT_EXERCISED: Record<string, Record<string, string>> = {};

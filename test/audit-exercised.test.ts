import { expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { startReference } from "../reference/server.js";
import { catalogue } from "../suites/index.js";
import { settingsFor } from "./reference-run.js";

/**
 * Rule 5 of the house for E7's filters (issue 13, section 3): a filter check passes only when the
 * export held a row the filter must leave out. Against an export of one kind of row, with every
 * filter ignored, none of them may pass: each says it was not exercised.
 */
it("an audit filter check is not exercised, never passed, when no row of the export is one its filter must leave out", async () => {
  const ref = await startReference({});
  try {
    const [one] = ref.app.store.audit;
    ref.app.store.audit = ref.app.store.audit.map(() => ({ ...one }));
    // The run's own events (an export is one) would add a row of another kind: the export stays as set here.
    ref.app.store.audit.push = () => ref.app.store.audit.length;
    // A server that ignores every filter: only an export with rows to leave out could show it.
    ref.app.b = { ...ref.app.b, auditRowMatches: () => true };
    const checks = catalogue.filter((c) =>
      ["audit.filter.event-name", "audit.filter.user-email", "audit.filter.combined", "audit.filter.date-range", "audit.filter.search"].includes(c.id),
    );
    const outcome = await runChecks(checks, settingsFor(ref, { writes: false }), await Schemas.load());
    expect(outcome.results.map((r) => [r.id, r.status, r.skipKind, /leave out|ignored unseen/.test(r.message ?? "")])).toEqual(
      checks.map((c) => [c.id, "skipped", "not-exercised", true]),
    );
  } finally {
    await ref.close();
  }
});

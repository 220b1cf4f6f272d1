import { expect, it } from "vitest";
import { selectChecks } from "../core/run/select.js";
import { COLLEAGUE } from "../reference/blind-spellings.js";
import { e14 } from "../reference/e14/state.js";
import { catalogue } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";

/**
 * A server may give a deleted user's id to the next user made (the blind Go server: the highest id
 * plus one). The variant user-ids-reused invites a colleague after each bulk DELETE, who takes the
 * freed id: the checks that make, delete and name users must pass and leave every colleague as
 * invited. Before, the missing user of users.bulk.per-user-failures was a user the run deleted (the
 * colleague was deactivated, and the check failed), and a user the check deleted itself was deleted
 * again at cleanup by its id (the colleague was deleted), and the door put back the fields a check
 * changed on its own user, by that id (core/ledger/door-ledger.ts, made).
 */
it("the run never acts on a user who took the id of one it deleted", async () => {
  const checks = selectChecks(catalogue, undefined, ["users.*", "documented.operations.own-user"]);
  const outcome = await runAgainstReference(checks, { variants: ["user-ids-reused"], settings: { seed: 3 } });
  expect(
    outcome.results.filter((r) => r.status !== "passed").map((r) => `${r.id} ${r.status}`),
    describeResults(outcome),
  ).toEqual([]);
  // Nor is a user of its own it changed and deleted "put back" at cleanup: that id is a colleague's now.
  expect(outcome.leftovers).toEqual([]);
  const colleagues = outcome.ref.app.store.users.filter((u) => u.email.startsWith(COLLEAGUE));
  // The run deleted users of its own, each deletion inviting a colleague: the scenario happened.
  expect(colleagues.length).toBeGreaterThan(0);
  const admin = e14(outcome.ref.app.store).users;
  const state = colleagues.map((u) => ({ email: u.email, status: admin.get(u.id)?.status, deleted: admin.get(u.id)?.deleted }));
  expect(state.filter((s) => s.deleted || s.status !== "active")).toEqual([]);
});

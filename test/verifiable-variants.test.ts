import { describe, expect, it } from "vitest";
import { selectChecks } from "../core/run/select.js";
import { catalogue } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";

/**
 * Servers that spell E14 otherwise than the reference must still be judged, not let off as "not
 * verifiable": passing with a variant (test/clean-variant.ts) would hold if the checks only skipped.
 * Each variant here made its checks skip before the suite learned its spelling; they must pass.
 */
const cases = [
  {
    // Dev mode on the caller's own branch: the run's branch is created with activate (suites/lib/e14.ts, devModeBranch);
    // a chunk that continues a file says append (suites/data-model/parameters.ts).
    variant: "dev-mode-caller-branch",
    checks: ["data-model.files.write-needs-dev-mode", "data-model.validate.compile-errors-200", "data-model.files.rename", "data-model.upload.chunks-joined"],
  },
  {
    // E14 as the blind Rust server spells it (suites/data-model/parameters.ts, suites/documented/opt-ins.ts): each chunk of an upload
    // says its chunkIndex, 0 starting the file over; a commit with nothing to commit is refused, so a file is written first; only a
    // report whose snapshot has pythonCode runs; a repository is connected by its full name, owner/name.
    variant: "rust-e14-spellings",
    checks: ["data-model.upload.chunks-joined", "documented.operations.git", "documented.operations.own-dashboard"],
  },
  {
    // workbookId "required on create" in prose only: the refusal naming it is met with a workbook of the run's own (suites/lib/reports.ts).
    variant: "report-workbook-in-prose",
    checks: ["reports.list.sorted-by-name", "reports.list.search-filter", "reports.placement.addressing", "bulk-move.apply.mixed-kinds"],
  },
  {
    // The placement's address in a DELETE body, not the query (suites/reports/placement.ts, removal).
    variant: "placement-removal-in-body",
    checks: ["reports.placement.addressing", "reports.placement.remove-by-address"],
  },
  {
    // The created deployment under {data: {deployment}}, no link: its id is looked for down single keys (suites/lib/documented-resources.ts, soleRecord).
    variant: "created-deployment-nested",
    checks: ["documented.resources.deployment-lifecycle", "documented.operations.git", "branches.delete.unknown-name"],
  },
  {
    // A rename's source named path beside newPath, in a list of files (suites/data-model/parameters.ts).
    variant: "rename-path-newpath",
    checks: ["data-model.files.rename"],
  },
  {
    // A report's create documents no folderId: made at the root, then moved into the folder by E12 (suites/lib/reports.ts).
    variant: "report-create-at-root",
    checks: ["reports.list.folder-filter"],
  },
];

describe("variants whose checks were once not verifiable", () => {
  for (const c of cases)
    it(`with ${c.variant}, ${c.checks.join(", ")} pass (not skipped)`, async () => {
      const outcome = await runAgainstReference(selectChecks(catalogue, undefined, c.checks), { variants: [c.variant], settings: { seed: 3 } });
      expect(outcome.results.map((r) => `${r.id} ${r.status}`).sort(), describeResults(outcome)).toEqual(c.checks.map((id) => `${id} passed`).sort());
      expect(outcome.leftovers).toEqual([]);
    });
});

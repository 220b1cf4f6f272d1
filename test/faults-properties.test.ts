import { describe } from "vitest";
import { faults } from "../reference/faults.js";
import { PROOF_RUNS, PROOF_SEEDS, proveFaults, provenOverSeeds, provesWorkspaceRuns } from "./fault-proof.js";

/**
 * Faults that a property of the control plane, the lists or the negative and server-error data
 * finds: proven over every seed of PROOF_SEEDS at the default effort. Files of their own (the
 * workspace properties and the model run: test/faults-workspace-properties.test.ts), so that the
 * proofs run beside each other and beside test/faults.test.ts.
 */
describe(`property checks fail against their faults over ${PROOF_SEEDS.length} seeds at ${PROOF_RUNS} runs`, () => {
  proveFaults(faults.filter((f) => provenOverSeeds(f) && !provesWorkspaceRuns(f)));
});

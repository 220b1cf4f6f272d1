import { describe } from "vitest";
import { faults } from "../reference/faults.js";
import { PROOF_RUNS, PROOF_SEEDS, proveFaults, provesWorkspaceRuns } from "./fault-proof.js";

/** Faults that the workspace properties or the model run find, over every seed of PROOF_SEEDS at the default effort (see test/faults-properties.test.ts). */
describe(`workspace property and model checks fail against their faults over ${PROOF_SEEDS.length} seeds at ${PROOF_RUNS} runs`, () => {
  proveFaults(faults.filter(provesWorkspaceRuns));
});

import { describe } from "vitest";
import { faults } from "../reference/faults.js";
import { PROOF_RUNS, PROOF_SEEDS, proveFaults, provenOverSeeds } from "./fault-proof.js";

/** Faults that a property or the model run finds: proven over every seed of PROOF_SEEDS at the default effort. A file of its own, so that it runs beside test/faults.test.ts. */
describe(`property and model checks fail against their faults over ${PROOF_SEEDS.length} seeds at ${PROOF_RUNS} runs`, () => {
  proveFaults(faults.filter(provenOverSeeds));
});

import type { Need } from "../../core/model/needs.js";

/** The needs of a check that writes into the configured deployment: the opt-in, and the deployment. */
export const WRITES = ["writes", "fixture:deployment"] as const satisfies readonly Need[];

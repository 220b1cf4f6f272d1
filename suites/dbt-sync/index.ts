import type { Check } from "../../core/check/check.js";
import { dbtSyncChecks } from "./examples.js";

/** The dbt-sync group (E14 rule 10): its examples, the sync started with a branch and a ref last. */
export const dbtSyncSuite: Check[] = [...dbtSyncChecks];

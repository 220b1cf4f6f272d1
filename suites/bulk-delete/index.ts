import type { Check } from "../../core/check/check.js";
import { bulkDeleteChecks } from "./examples.js";

/** The bulk-delete group (E14 rule 1): its examples. */
export const bulkDeleteSuite: Check[] = [...bulkDeleteChecks];

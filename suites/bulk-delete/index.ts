import type { Check } from "../../core/model/check.js";
import { bulkDeleteChecks } from "./examples.js";

/** The bulk-delete group (E14 rule 1): its examples. */
export const bulkDeleteSuite: Check[] = [...bulkDeleteChecks];

import type { Check } from "../../core/model/check.js";
import { auditChecks } from "./examples.js";

/** The audit group: its examples, properties, negative data and model runs side by side. */
export const auditSuite: Check[] = [...auditChecks];

import type { Check } from "../../core/check/check.js";
import { embedChecks } from "./examples.js";
import { perTenantChecks } from "./per-tenant.js";

/** The embed group (E14 rule 8): its examples. */
export const embedSuite: Check[] = [...embedChecks, ...perTenantChecks];

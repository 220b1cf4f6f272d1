import type { Check } from "../../core/check/check.js";
import { embedTenantChecks } from "./examples.js";

/** The embed-tenants group (E14): its examples. */
export const embedTenantsSuite: Check[] = [...embedTenantChecks];

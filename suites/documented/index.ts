import type { Check } from "../../core/check/check.js";
import { documentedChecks } from "./examples.js";
import { e14OptInChecks } from "./opt-ins.js";
import { unnamedOperationChecks } from "./unnamed.js";

/** The documented group: every operation the server's own document lists, read and written as it says; the writes a tenant opts into beside them. */
export const documentedSuite: Check[] = [...documentedChecks, ...e14OptInChecks, ...unnamedOperationChecks];

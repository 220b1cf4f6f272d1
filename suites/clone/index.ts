import type { Check } from "../../core/model/check.js";
import { cloneChecks } from "./examples.js";
import { cloneRoleAccessChecks } from "./role-access.js";

/** The clone group: its examples, properties, negative data and model runs side by side. */
export const cloneSuite: Check[] = [...cloneChecks, ...cloneRoleAccessChecks];

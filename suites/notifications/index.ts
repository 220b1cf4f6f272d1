import type { Check } from "../../core/check/check.js";
import { notificationChecks } from "./examples.js";

/** The notifications group (E14 rule 12): its examples. */
export const notificationsSuite: Check[] = [...notificationChecks];

import { type Check, group } from "../../core/check/check.js";
import { errorNegativeChecks } from "./negative.js";
import { serverErrorChecks } from "./server-errors.js";
import { noServerErrors } from "./no-5xx.js";
import { errorIsText } from "./error-body.js";

/** The errors group: its examples, properties, negative data and model runs side by side, then the invariant over every exchange (core/run/invariants.ts). */
export const errorsSuite: Check[] = [...errorNegativeChecks, ...serverErrorChecks, ...group("errors", [noServerErrors, errorIsText])];

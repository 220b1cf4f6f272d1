import type { Check } from "../../core/model/check.js";
import { errorNegativeChecks } from "./negative.js";
import { serverErrorChecks } from "./server-errors.js";

/** The errors group: its examples, properties, negative data and model runs side by side. */
export const errorsSuite: Check[] = [...errorNegativeChecks, ...serverErrorChecks];

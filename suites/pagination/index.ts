import type { Check } from "../../core/model/check.js";
import { paginationPropertyChecks } from "./properties.js";

/** The pagination group: its examples, properties, negative data and model runs side by side. */
export const paginationSuite: Check[] = [...paginationPropertyChecks];

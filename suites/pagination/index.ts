import { type Check, group } from "../../core/check/check.js";
import { paginationPropertyChecks } from "./properties.js";
import { legacyFieldsKept } from "./legacy-fields.js";
import { paginationFirstBoundChecks, paginationLastPageChecks } from "./cursor-edges.js";

/** The pagination group: its examples, properties, negative data and model runs side by side, then the invariant over every answer (core/run/invariants.ts). */
export const paginationSuite: Check[] = [
  ...paginationPropertyChecks,
  ...paginationLastPageChecks,
  ...paginationFirstBoundChecks,
  ...group("pagination", [legacyFieldsKept]),
];

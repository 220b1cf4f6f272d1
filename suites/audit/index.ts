import type { Check } from "../../core/check/check.js";
import { auditAccessChecks } from "./access.js";
import { auditChecks } from "./examples.js";
import { auditFilterClassChecks } from "./filter-classes.js";
import { auditSearchEventDataChecks } from "./search-event-data.js";
import { auditDateRangeDayChecks } from "./date-range-days.js";
import { auditQuotedCellChecks } from "./quoted-cells.js";

/** The audit group: its examples, properties, negative data and model runs side by side. */
export const auditSuite: Check[] = [
  ...auditChecks,
  ...auditAccessChecks,
  ...auditFilterClassChecks,
  ...auditSearchEventDataChecks,
  ...auditDateRangeDayChecks,
  ...auditQuotedCellChecks,
];

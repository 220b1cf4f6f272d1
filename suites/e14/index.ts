import type { Check } from "../../core/model/check.js";
import { e14BulkDeleteChecks } from "../bulk-delete/examples.js";
import { e14ReportsListChecks } from "../reports/list.js";
import { e14BuildChecks } from "../branches/examples.js";
import { e14AdminChecks } from "../users/examples.js";
import { e14OperationChecks } from "../dbt-sync/examples.js";
import { e14ModelParameterChecks } from "../data-model/parameters.js";
import { e14ReportAddressingChecks } from "../reports/placement.js";
import { e14AdminParameterChecks } from "../policies/examples.js";

/** The e14 group: its rule families side by side (the workspace's, the build surface's, admin, operations, then those in named parameters). */
export const e14Suite: Check[] = [
  ...e14BulkDeleteChecks,
  ...e14ReportsListChecks,
  ...e14BuildChecks,
  ...e14AdminChecks,
  ...e14OperationChecks,
  ...e14ModelParameterChecks,
  ...e14ReportAddressingChecks,
  ...e14AdminParameterChecks,
];

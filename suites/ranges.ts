import { assembleRanges, type RangeCells, type RuleRange } from "../core/api/rule-ranges.js";
import { auditRanges } from "./audit/ranges.js";
import { upsertRanges } from "./upsert/ranges.js";
import { paginationRanges } from "./pagination/ranges.js";
import { deploymentsRanges } from "./deployments/ranges.js";
import { environmentsRanges } from "./environments/ranges.js";
import { envVarsRanges } from "./env-vars/ranges.js";
import { workbooksRanges } from "./workbooks/ranges.js";
import { cloneRanges } from "./clone/ranges.js";
import { usersRanges } from "./users/ranges.js";
import { bulkMoveRanges } from "./bulk-move/ranges.js";
import { deploymentUpdateRanges } from "./deployment-update/ranges.js";
import { stagingRanges } from "./staging/ranges.js";
import { modelRanges } from "./model/ranges.js";
import { authRanges } from "./auth/ranges.js";
import { tokensRanges } from "./tokens/ranges.js";
import { bulkDeleteRanges } from "./bulk-delete/ranges.js";
import { reportsRanges } from "./reports/ranges.js";
import { resourcesRanges } from "./resources/ranges.js";

/**
 * Where each stated rule with a range applies and which checks cover each cell (RuleRange,
 * core/api/rule-ranges.ts): the rules from there, each cell from the folder of the group whose
 * checks cover it (`suites/<group>/ranges.ts`), by group in the catalogue's order.
 */
export const rangesByGroup: Record<string, RangeCells> = {
  audit: auditRanges,
  upsert: upsertRanges,
  pagination: paginationRanges,
  deployments: deploymentsRanges,
  environments: environmentsRanges,
  "env-vars": envVarsRanges,
  workbooks: workbooksRanges,
  clone: cloneRanges,
  users: usersRanges,
  "bulk-move": bulkMoveRanges,
  "deployment-update": deploymentUpdateRanges,
  staging: stagingRanges,
  model: modelRanges,
  auth: authRanges,
  tokens: tokensRanges,
  "bulk-delete": bulkDeleteRanges,
  reports: reportsRanges,
  resources: resourcesRanges,
};

export const ruleRanges: RuleRange[] = assembleRanges(Object.values(rangesByGroup));

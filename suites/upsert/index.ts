import type { Check } from "../../core/check/check.js";
import { upsertChecks } from "./examples.js";
import { upsertDraftChecks } from "./drafts.js";
import { upsertConcurrencyChecks } from "./concurrency.js";
import { upsertRoleAccessChecks } from "./role-access.js";
import { upsertPropertyChecks } from "./properties.js";
import { upsertNegativeChecks } from "./negative.js";
import { upsertInputClassChecks } from "./input-classes.js";
import { upsertDeletedDeploymentChecks } from "./deleted-deployment.js";
import { upsertManageAccessChecks } from "./manage-access.js";
import { upsertPerDeploymentChecks } from "./per-deployment.js";

/** The upsert group: its examples, properties, negative data and model runs side by side. */
export const upsertSuite: Check[] = [
  ...upsertChecks,
  ...upsertDraftChecks,
  ...upsertConcurrencyChecks,
  ...upsertRoleAccessChecks,
  ...upsertPropertyChecks,
  ...upsertNegativeChecks,
  ...upsertInputClassChecks,
  ...upsertDeletedDeploymentChecks,
  ...upsertManageAccessChecks,
  ...upsertPerDeploymentChecks,
];

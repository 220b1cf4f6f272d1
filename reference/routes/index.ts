import type { Route } from "../http.js";
import { auditRoutes } from "./audit.js";
import { bulkMoveRoutes } from "./bulk-move.js";
import { deploymentRoutes } from "./deployments.js";
import { envVarRoutes } from "./env-vars.js";
import { environmentRoutes } from "./environments.js";
import { cloneRoutes } from "./clone.js";
import { deploymentUpdateRoutes } from "./deployment-update.js";
import { stagingRoutes } from "./staging.js";
import { tokenRoutes } from "./tokens.js";
import { folderWriteRoutes } from "./folders-write.js";
import { upsertRoutes } from "./upsert.js";
import { workspaceDeleteRoutes } from "./workspace-delete.js";
import { workspaceReadRoutes } from "./workspace-read.js";
import { e14Routes } from "./e14/index.js";
import { ownOperationRoutes } from "./own-operations.js";

/** Every route of the reference server; the first whose method and pattern match serves. */
export const routes: Route[] = [
  ...deploymentRoutes,
  ...environmentRoutes,
  ...workspaceReadRoutes,
  ...workspaceDeleteRoutes,
  ...envVarRoutes,
  ...folderWriteRoutes,
  ...upsertRoutes,
  ...cloneRoutes,
  ...bulkMoveRoutes,
  ...tokenRoutes,
  ...stagingRoutes,
  ...deploymentUpdateRoutes,
  ...auditRoutes,
  ...e14Routes,
  ...ownOperationRoutes,
];

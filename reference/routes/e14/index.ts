import type { Route } from "../../http.js";
import { branchRoutes } from "./branches.js";
import { dataModelRoutes } from "./data-model.js";
import { dbtSyncRoutes } from "./dbt-sync.js";
import { platformRoutes } from "./platform.js";
import { reportRoutes } from "./reports.js";
import { resourceEngineRoutes } from "./resources.js";
import { userRoutes } from "./users.js";

/** Every E14 family beyond those the E1-E13 routes already serve (settings, app-config, folders, bulk delete, env-vars PUT, the branches list). */
export const e14Routes: Route[] = [
  ...userRoutes,
  ...resourceEngineRoutes,
  ...dataModelRoutes,
  ...branchRoutes,
  ...dbtSyncRoutes,
  ...reportRoutes,
  ...platformRoutes,
];

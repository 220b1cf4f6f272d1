import type { Route } from "../http.js";
import { deploymentRoutes } from "./deployments.js";
import { envVarRoutes } from "./env-vars.js";
import { environmentRoutes } from "./environments.js";
import { workspaceDeleteRoutes } from "./workspace-delete.js";
import { workspaceReadRoutes } from "./workspace-read.js";

/** Every route of the reference server; the first whose method and pattern match serves. */
export const routes: Route[] = [...deploymentRoutes, ...environmentRoutes, ...workspaceReadRoutes, ...workspaceDeleteRoutes, ...envVarRoutes];

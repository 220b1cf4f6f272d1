import { pathTo } from "../../core/transport/client.js";

/** E13: the deployment's environment variables. */
export const varsPath = (dep: string) => pathTo("listEnvVars", { deploymentId: dep });

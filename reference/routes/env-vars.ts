import { HttpError, ok, type App, type Route } from "../http.js";
import { cursorPage } from "../paging.js";
import type { DeploymentRecord } from "../store.js";
import { deploymentOf } from "./common.js";
import { MASK } from "../../core/api/operations.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function listing(app: App, dep: DeploymentRecord, query: URLSearchParams) {
  const masked = dep.envVars.map((v) => ({ name: v.name, value: app.b.isSecretName(v.name) ? MASK : v.value }));
  const page = cursorPage(app.b, masked, query, 20);
  return { items: page.items, data: page.items, pageInfo: page.pageInfo };
}

export const envVarRoutes: Route[] = [
  {
    operation: "listEnvVars",
    handler: (req, app) => ok(listing(app, deploymentOf(app, req), req.query)),
  },
  {
    operation: "setEnvVars",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const list = req.body?.env_variables;
      if (!Array.isArray(list)) throw new HttpError(400, "env_variables must be an array");
      for (const v of list) {
        if (typeof v?.name !== "string" || !NAME.test(v.name)) throw new HttpError(400, `invalid variable name ${JSON.stringify(v?.name)}`);
        if (typeof v.value !== "string") throw new HttpError(400, `value of ${v.name} must be a string`);
        if (v.value === MASK) throw new HttpError(400, `${MASK} is a placeholder, not a value`);
      }
      // Validated whole before any change: a bad entry changes nothing.
      for (const v of list) {
        const existing = dep.envVars.find((e) => e.name === v.name);
        if (existing) existing.value = v.value;
        else dep.envVars.push({ name: v.name, value: v.value });
      }
      return ok(listing(app, dep, new URLSearchParams()));
    },
  },
];

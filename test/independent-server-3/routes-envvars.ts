// E13 list environment variables (masked) and PUT env-vars (add or update by name).
import { deploymentFor, requireApiKey, requireRole } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { forbidden, invalid, isObj, objBody, ok } from "./http.js";
import type { Reply } from "./http.js";
import { cursorPage, noOffset, wholePage } from "./paging.js";
import { envVarsJson } from "./serialize.js";
import { MASK, isSecretName } from "./store.js";

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function listEnvVars(c: Call): Reply {
  requireApiKey(c.p);
  requireRole(c.p, "DEVELOPER", "reading environment variables");
  noOffset(c.q);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const page = cursorPage(envVarsJson(d), c.q, `env-vars:${d.id}`);
  return ok({ items: page.rows, data: page.rows, pageInfo: page.pageInfo });
}

function putEnvVars(c: Call): Reply {
  requireApiKey(c.p);
  if (c.p.user.role !== "ADMIN" && !c.p.user.permissions.includes("SecretsManage"))
    throw forbidden("setting environment variables needs the admin role or SecretsManage");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const b = objBody(c.body);
  const list = b["env_variables"];
  if (list === undefined) throw invalid("env_variables is required");
  if (!Array.isArray(list)) throw invalid("env_variables must be an array of {name, value}");
  const updates: Array<[string, string]> = [];
  list.forEach((v: unknown, i: number) => {
    if (!isObj(v)) throw invalid(`env_variables[${i}] must be an object {name, value}`);
    const name = v["name"];
    const value = v["value"];
    if (typeof name !== "string") throw invalid(`env_variables[${i}].name must be a string`);
    if (typeof value !== "string") throw invalid(`env_variables[${i}].value must be a string`);
    if (!ENV_NAME.test(name)) throw invalid(`env_variables[${i}].name must match ^[A-Za-z_][A-Za-z0-9_]*$`);
    if (value === MASK) throw invalid(`env_variables[${i}].value must not be the ${MASK} placeholder`);
    updates.push([name, value]);
  });
  for (const [name, value] of updates) d.envVars.set(name, value);
  if (updates.length) {
    c.store.recordAudit(c.p.user.email, "Environment variables changed", d.id, {
      names: updates.map(([n]) => n).join(" "),
      ...Object.fromEntries(updates.filter(([n]) => isSecretName(n)).map(([n, v]) => [n, v])),
    });
  }
  const page = wholePage(envVarsJson(d), `env-vars:${d.id}`);
  return ok({ items: page.rows, data: page.rows, pageInfo: page.pageInfo });
}

export function registerEnvVars(r: AppRouter): void {
  r.add("GET", "/api/v1/deployments/{deploymentId}/env-vars", listEnvVars);
  r.add("PUT", "/api/v1/deployments/{deploymentId}/env-vars", putEnvVars);
}

import { invariant } from "../../core/invariants.js";

const UNDER_DEPLOYMENT = /^\/(?:build\/)?api\/v1\/deployments\/([^/]+)\/./;

/** Every deploymentId field of a body, wherever it nests (list items, the data copy, moved records, a published dashboard). */
function deploymentIdsIn(value: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const v of value) deploymentIdsIn(v, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if (k === "deploymentId") out.push(v);
      else deploymentIdsIn(v, out);
    }
  return out;
}

export const deploymentScoping = invariant({
  id: "deployments.scoping.every-answer",
  spec: "Resources / Workbook, Dashboard (deploymentId); E8; E9; E10 rule 8; E11; E12",
  level: "MUST",
  title: "Nothing answered under /deployments/D/... belongs to another deployment: every deploymentId of the answer is D",
  applicable: "a deploymentId field in a 2xx answer under /deployments/{id}/",
  watch: () => (x) => {
    const dep = UNDER_DEPLOYMENT.exec(x.url.pathname)?.[1];
    if (dep === undefined || x.status >= 300 || !x.isJson) return undefined;
    const ids = deploymentIdsIn(x.body).filter((id) => id !== null && id !== undefined);
    if (!ids.length) return undefined;
    const other = [...new Set(ids.filter((id) => String(id) !== decodeURIComponent(dep)).map(String))];
    return other.length ? { reason: "other-deployment", message: `an answer under deployment ${dep} holds records of another deployment`, expected: `deploymentId ${dep}`, got: `deploymentId ${other.join(", ")}` } : "held";
  },
});

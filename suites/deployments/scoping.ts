import { invariant } from "../../core/run/invariants.js";

const UNDER_DEPLOYMENT = /^\/(?:build\/)?api\/v1\/deployments\/([^/]+)\/./;

/**
 * The deploymentId of each record of the answer (list items, the data copy, moved records, the
 * answer itself) and of its published dashboard; never inside an open object (`meta`).
 */
function deploymentIdsIn(body: any): unknown[] {
  // Loops, not spreads: every answer of the run passes here, lists of hundreds among them.
  const ids: unknown[] = [];
  const add = (r: any) => ids.push(r?.deploymentId, r?.publishedDashboard?.deploymentId);
  add(body);
  for (const k of ["items", "data", "moved"]) if (Array.isArray(body?.[k])) for (const r of body[k]) add(r);
  return ids;
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
    return other.length
      ? {
          reason: "other-deployment",
          message: `an answer under deployment ${dep} holds records of another deployment`,
          expected: `deploymentId ${dep}`,
          got: `deploymentId ${other.join(", ")}`,
        }
      : "held";
  },
});

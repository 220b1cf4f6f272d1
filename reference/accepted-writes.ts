import { matchPath } from "../core/api/match.js";
import { operation, type OperationName } from "../core/api/operations.js";
import type { Req } from "./http.js";
import type { Variant } from "./variant.js";

/**
 * Writes whose status the spec does not name, answered as HTTP also allows: 202 Accepted with a
 * Location to read the state at (E6's update), or 202 with no Location and no body (PUT env-vars).
 * The work is done when the answer leaves, as a queue that drains at once would leave it; the
 * served document lists the 202, as a server describes what it answers.
 */
const ACCEPTED: { name: OperationName; location?: OperationName }[] = [{ name: "updateDeployment", location: "getDeploymentSettings" }, { name: "setEnvVars" }];

const answering = (req: Req) => ACCEPTED.find(({ name }) => req.method === operation(name).method && matchPath(operation(name).path, req.path) !== undefined);

/** Each answer of the served document's operations that now answer 202: a 202 beside their 200. */
function documented(doc: any): any {
  if (!doc?.paths) return doc;
  const paths = { ...doc.paths };
  for (const { name } of ACCEPTED) {
    const op = operation(name);
    for (const [p, item] of Object.entries<any>(paths)) {
      const method = op.method.toLowerCase();
      if (matchPath(op.path, p) === undefined || !item?.[method]) continue;
      paths[p] = {
        ...item,
        [method]: { ...item[method], responses: { ...item[method].responses, "202": { description: "Accepted: applied, or being applied" } } },
      };
    }
  }
  return { ...doc, paths };
}

export const acceptedWrites: Variant = {
  name: "accepted-writes",
  description: "E6 (status not shown) answers 202 with a Location of the deployment settings; PUT env-vars (E14) answers 202 with no body",
  routes: ["E6", "E14"],
  reply: (reply, req) => {
    if (matchPath(operation("getSpec").path, req.path) !== undefined) return { ...reply, body: documented(reply.body) };
    const which = answering(req);
    if (!which) return reply;
    const location = which.location ? operation(which.location).path.replace("{deploymentId}", req.params.deploymentId) : undefined;
    return { status: 202, headers: location ? { location } : {} };
  },
};

import type { Fault } from "../faults.js";
import { HttpError } from "../http.js";
import { specEndpoints, type SpecEndpoint } from "../../core/endpoints.js";

/**
 * A spec'd endpoint the server does not serve (404), or serves broken (500): its owner check
 * fails, and every check that builds its scenario on it is blocked, never skipped or passed
 * (test/gate.test.ts). The handler still runs first; only the answer is lost, as when a proxy
 * in front of a server drops a route.
 */
function answers(endpoint: SpecEndpoint, status: number): Fault {
  const { method, path, root } = specEndpoints[endpoint];
  return {
    name: status === 404 ? `${endpoint.toLowerCase()}-missing` : `${endpoint.toLowerCase()}-answers-${status}`,
    breaks: `${endpoint} (${method} ${path})`,
    description: status === 404 ? `${endpoint} is not served: every request to it answers 404` : `${endpoint} fails: every request to it answers ${status}`,
    catches: [root],
    routes: [endpoint],
    respond: ({ req }) => {
      throw new HttpError(status, status === 404 ? `no route ${req.path}` : "internal error");
    },
  };
}

export const missingEndpointFaults: Fault[] = [
  ...(["E3", "E4", "E5", "E7", "E10", "E11", "E12", "E13"] as const).map((e) => answers(e, 404)),
  answers("E11", 500),
];

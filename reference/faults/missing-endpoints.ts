import type { Fault } from "../http.js";
import { HttpError } from "../http.js";
import { specified } from "../../core/api/operations.js";

/**
 * Each endpoint these faults take away, and the assertion of its owner (the operation table's) that
 * an unusable answer trips: its status, or the precondition its own scenario builds on.
 */
const OWNER_REASON = {
  E3: "precondition",
  E4: "precondition",
  E5: "status",
  E7: "precondition",
  E10: "status",
  E11: "status",
  E12: "precondition",
  E13: "status",
} as const;

/**
 * A spec'd endpoint the server does not serve (404), or serves broken (500): its owner check
 * fails, and every check that builds its scenario on it is blocked, never skipped or passed
 * (test/gate.test.ts). The handler still runs first; only the answer is lost, as when a proxy
 * in front of a server drops a route.
 */
function answers(endpoint: keyof typeof OWNER_REASON, status: number): Fault {
  const root = specified(endpoint).owner;
  return {
    name: status === 404 ? `${endpoint.toLowerCase()}-missing` : `${endpoint.toLowerCase()}-answers-${status}`,
    breaks: endpoint,
    description: status === 404 ? `${endpoint} is not served: every request to it answers 404` : `${endpoint} fails: every request to it answers ${status}`,
    // The owner fails on the status itself: for the 500 that is the declared reason, not an accident.
    because: { [root]: OWNER_REASON[endpoint] },
    routes: [endpoint],
    respond: ({ req }) => {
      throw new HttpError(status, status === 404 ? `no route ${req.path}` : "internal error");
    },
  };
}

export const missingEndpointFaults: Fault[] = [
  ...(Object.keys(OWNER_REASON) as (keyof typeof OWNER_REASON)[]).map((e) => answers(e, 404)),
  answers("E11", 500),
];

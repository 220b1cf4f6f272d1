import { SPECIFIED_OPERATIONS, type SpecSection } from "./operations.js";

/**
 * The endpoints whose shape the spec shows (E1-E13), each with the check that owns it: the one
 * that fails when the endpoint does not answer as the spec says. A check that only builds its
 * scenario on an endpoint is blocked by that owner instead of failing, so a missing endpoint
 * reads as one root failure and N blocked checks. E14 names endpoints whose shape is not shown.
 * A view of the operation table (core/api/operations.ts), which holds the owners.
 */
export type SpecEndpoint = SpecSection;
export type Endpoint = SpecEndpoint | "E14";

export interface EndpointInfo {
  method: string;
  path: string;
  /** The id of the check that fails when this endpoint answers 404, 5xx or garbage. */
  root: string;
}

export const specEndpoints = Object.fromEntries(SPECIFIED_OPERATIONS.map((o) => [o.section, { method: o.method, path: o.path, root: o.owner }])) as Record<
  SpecEndpoint,
  EndpointInfo
>;

import type { Api } from "./api.js";
import { walkOffset } from "./pagination.js";
import { pathTo } from "./client.js";
import { LIMITS } from "../api/operations.js";

/** E1's path: walked by offset (core/transport/pagination.ts). */
export const DEPLOYMENTS_PATH = pathTo("listDeployments");

/**
 * The deployments of an E1 page in either documented shape: `data.deployments` (the spec), or
 * `data` itself an array (the published document, which also repeats it as `items`).
 */
export function deploymentsOf(body: any): any[] | undefined {
  if (Array.isArray(body?.data?.deployments)) return body.data.deployments;
  if (Array.isArray(body?.data)) return body.data;
  return undefined;
}

/** Every deployment E1 lists, walked at the default page size (no maximum limit is shown). */
export async function allDeployments(api: Api): Promise<any[]> {
  return (await walkOffset(api, DEPLOYMENTS_PATH, DEFAULT_LIMIT, deploymentsOf)).items;
}

/** Limits: the default page size of offset lists, a size every server serves. */
export const DEFAULT_LIMIT = LIMITS.defaultLimit;

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
export function deploymentsOf(body: unknown): ListedDeployment[] | undefined {
  const data = (body as { data?: { deployments?: unknown } } | null | undefined)?.data;
  if (Array.isArray(data?.deployments)) return data.deployments;
  if (Array.isArray(data)) return data;
  return undefined;
}

/** A deployment as a page of E1 shows it: what both documented shapes give (the published one's ids may be integers). */
export type ListedDeployment = { id: number | string; name: string; created_at?: string };

/** Every deployment E1 lists, walked at the default page size (no maximum limit is shown). */
export async function allDeployments(api: Api): Promise<ListedDeployment[]> {
  return (await walkOffset(api, DEPLOYMENTS_PATH, DEFAULT_LIMIT, deploymentsOf)).items;
}

/** Limits: the default page size of offset lists, a size every server serves. */
export const DEFAULT_LIMIT = LIMITS.defaultLimit;

import type { Api } from "../../core/transport/api.js";
import type { Expect } from "../../core/api/expect.js";
import type { Response } from "../../core/transport/http.js";
import { requireAnswer } from "../../core/api/preconditions.js";
import type { DeploymentVersion } from "../../core/api/schema-types.js";

/** A Deployment version entry (E5). */
export type VersionEntry = DeploymentVersion;

/**
 * The versions E5 lists right now (`{data}`, or the published docs' `{items, pageInfo}`) and the one marked
 * current: for checks that change it, where the `versions` fixture, read once per run, is stale.
 */
export async function currentVersions(
  api: Api,
  expect: Expect,
  dep: string,
): Promise<{ list: VersionEntry[]; current: VersionEntry | undefined; res: Response }> {
  const res = await api.call("listVersions", { deploymentId: dep });
  requireAnswer(res, "E5", "listing the versions");
  const body = expect.ok(res, "VersionsListResponse");
  // The schema holds (expect.ok): a body without the `data` list is the other shape, with `items`.
  const list: VersionEntry[] = Array.isArray(body.data) ? body.data : body.items!;
  return { list, current: list.find((v) => v.isCurrent === true), res };
}

/** `1.7.20` as a whole dotted token of the reference: `cubejs/cube:v1.7.20` yes, `…:v11.7.201` no. */
export function namesVersion(reference: string, version: string): boolean {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^0-9.])v?${escaped}($|[^0-9.])`).test(reference);
}

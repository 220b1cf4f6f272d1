import type { CheckContext } from "../../core/context.js";
import type { VersionEntry } from "./version-list.js";

/** E6 does not show its answer; facts: 200 with the full settings. An accepted update is any of these. */
export const UPDATE_ACCEPTED = [200, 202, 204];

const RELEASE_FIELDS = ["releaseChannel", "releaseChannelVersion", "releaseChannelVersionHold"];

/**
 * Registers, before a check moves the deployment to other versions, putting its release settings
 * back at cleanup: as the settings (E14, shape not shown) show them when they can be read, else
 * the version E5 marks current. (facts: choosing a version also sets the hold flag.)
 */
export async function restoreReleaseLater(ctx: Pick<CheckContext, "api" | "scratch">, dep: string, current: VersionEntry): Promise<void> {
  const res = await ctx.api.get(`/api/v1/deployments/${dep}/settings`);
  const body = res.status === 200 && res.isJson ? res.body : undefined;
  const settings = body?.data && typeof body.data === "object" ? body.data : body;
  const shown = RELEASE_FIELDS.filter((f) => settings?.[f] != null);
  const restore = shown.includes("releaseChannelVersion") ? Object.fromEntries(shown.map((f) => [f, settings[f]])) : { releaseChannelVersion: current.releaseChannelVersion };
  ctx.scratch.onCleanup(`the release version of deployment ${dep}`, async () => {
    const put = await ctx.api.put(`/api/v1/deployments/${dep}`, restore);
    if (!UPDATE_ACCEPTED.includes(put.status)) throw new Error(`PUT /api/v1/deployments/${dep} answered ${put.status}`);
  });
}

import type { Need } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { settled, SUCCESS } from "../lib/success.js";
import type { VersionEntry } from "../lib/version-list.js";

/** Every check of the group changes the deployment the user named for it, and only with the opt-in. */
export const DEPLOYMENT_CHANGES: Need[] = ["writes", "deployment-changes", "fixture:mutableDeployment"];

/** A version as E5 lists it, without its `v`. */
export const bare = (version: string) => String(version).replace(/^v/, "");

/** An update that must be taken: E6 names no status, so any success HTTP allows, the state then read back (a 202's Location followed first). */
export async function update(ctx: CheckContext, dep: string, body: Record<string, unknown>, what: string): Promise<void> {
  const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body });
  ctx.expect.status(res, SUCCESS.PUT, what);
  await settled(ctx.api, res);
}

/** A listed version other than the current one, in the current one's channel when there is one (with `held`, one its channel does not mark latest first). */
export function anotherVersion(list: VersionEntry[], current: VersionEntry | undefined, held = false): VersionEntry {
  const others = list.filter((v) => v.isCurrent !== true);
  const sameChannel = others.filter((v) => v.releaseChannel === current?.releaseChannel);
  const other = (held ? sameChannel.find((v) => v.isLatestInChannel !== true) : undefined) ?? sameChannel[0] ?? others[0];
  if (!other) throw new NotExercised("E5 lists no version besides the current one: there is nothing to switch to");
  return other;
}

import type { Api } from "../../core/transport/api.js";
import type { Expect } from "../../core/api/expect.js";
import { listBranches } from "../../core/check/fixtures.js";
import type { Response } from "../../core/transport/http.js";
import { currentEnvironments } from "../lib/environment-list.js";

/** A branch's staging flag as the server shows it now, and where it was read. */
export interface StagingState {
  /** undefined: neither E2 nor the branches list shows it. */
  on: boolean | undefined;
  source: string;
  res?: Response;
}

/** Every branch's staging flag as one read shows it: `of` is undefined for a branch it does not show. */
export interface StagingFlags {
  of(branch: string): boolean | undefined;
  source: string;
  res?: Response;
}

/**
 * Reads which branches have their staging environment on. E2 is the witness the States table
 * names (an enabled branch is listed as a `staging` environment), where its environments carry a
 * branch; the control-plane shape shows only a display name, so then the branches list's
 * isStagingEnvironmentEnabled is read, where it is a boolean (the published document lets it be
 * null or absent). A list with no staging environment at all shows every flag off in either shape.
 */
export async function stagingFlags(api: Api, expect: Expect, dep: string, type?: "staging"): Promise<StagingFlags> {
  const { environments, res } = await currentEnvironments(api, expect, dep, type);
  // No staging environment listed at all says "off" for every branch, whatever the shape.
  const none = !environments.some((e) => e.type === "staging");
  if (none || environments.some((e) => typeof e.branch === "string")) {
    const on = new Set(environments.filter((e) => e.type === "staging").map((e) => e.branch));
    return { of: (branch) => on.has(branch), source: type ? "E2 with type=staging" : "E2", res };
  }
  const branches = await listBranches(api, dep).catch(() => []);
  return { of: (branch) => branches.find((b) => b.name === branch)?.isStagingEnvironmentEnabled, source: "the branches list" };
}

/** One branch's flag (see stagingFlags). */
export async function stagingState(api: Api, expect: Expect, dep: string, branch: string, type?: "staging"): Promise<StagingState> {
  const flags = await stagingFlags(api, expect, dep, type);
  return { on: flags.of(branch), source: flags.source, res: flags.res };
}

/** Why a state could not be read, for a NotExercised. */
export function unreadable(branch: string): string {
  return `the staging state of branch ${branch} cannot be read back: E2 names no branch and the branches list gives no boolean isStagingEnvironmentEnabled for it`;
}

import { TOOL_NAME } from "../../core/model/names.js";
import fc from "fast-check";
import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised } from "../../core/model/outcome.js";
import { readableWithout, valueAt } from "../lib/lenient-reading.js";
import { stagingState, unreadable } from "./state.js";
import { currentEnvironments } from "../lib/environment-list.js";
import { type Stage, badBodies, notJsonBodies, sender, spelledAsValid } from "../lib/negative-bodies.js";
import { isObject } from "../lib/values.js";

/** Whether the branch's staging environment is on now (E2, else the branches list); unreadable, the property has nothing to judge. */
async function stagingOn(ctx: CheckContext, api: Api, dep: string, branch: string): Promise<{ on: boolean; res?: Response }> {
  const state = await stagingState(api, ctx.expect, dep, branch);
  if (state.on === undefined) throw new NotExercised(unreadable(branch));
  return { on: state.on, res: state.res };
}

/** Valid toggles flip the shared branch's flag; its flag is put back at cleanup if a server flipped it anyway. */
export async function stagingStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const branch = ctx.fixture("sharedBranch");
  const { on: was } = await stagingOn(ctx, ctx.api, dep, branch.name);
  ctx.scratch.onCleanup(`the staging environment of branch ${branch.name} in deployment ${dep}`, async () => {
    if ((await stagingOn(ctx, ctx.api, dep, branch.name)).on === was) return;
    const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: was, branchName: branch.name } });
    if (res.status !== 200) throw new Error(`the staging toggle answered ${res.status}`);
  });
  const valid = [{ enabled: !was, branchName: branch.name }, ...(branch.id === undefined ? [] : [{ enabled: !was, branchId: branch.id }])];
  // The other branches' staging environments: what no reading of a toggle of this branch may change.
  const others = async (api: Api) => {
    const { environments, res } = await currentEnvironments(api, ctx.expect, dep);
    return {
      on: environments
        // A branch another check of the run made (its idle wait's, beside this one) is not the rule's.
        .filter((e) => e.type === "staging" && e.branch !== branch.name && !TOOL_NAME.test(e.branch ?? ""))
        .map((e) => e.branch ?? e.id)
        .sort(),
      res,
    };
  };
  const othersBefore = (await others(ctx.api)).on;
  const unchanged = async (api: Api) => {
    const { on, res } = await stagingOn(ctx, api, dep, branch.name);
    ctx.expect.that(on === was, `the staging environment of branch ${branch.name} is still ${was ? "on" : "off"}`, {
      reason: "staging-unchanged",
      expected: `E2 ${was ? "lists" : "does not list"} it as staging`,
      got: on ? "listed" : "not listed",
      res,
    });
  };
  const names = (body: any) =>
    isObject(body) && (body.branchName === branch.name || (branch.id !== undefined && body.branchId != null && String(body.branchId) === String(branch.id)));
  // "one of branchName or branchId" does not say that both together are refused: never sent as invalid.
  const cases = badBodies(ctx, "StagingToggleRequest", { base: fc.constantFrom(...valid), nullIsAbsent: true }).filter((b) => b.kind !== "several-branches");
  const absentReading = readableWithout(ctx.schemas.schema("StagingToggleRequest"));
  const putBack = async (api: Api) => {
    if ((await stagingOn(ctx, api, dep, branch.name)).on === was) return;
    ctx.expect.status(
      await api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: was, branchName: branch.name } }),
      200,
      `putting the staging environment of branch ${branch.name} back ${was ? "on" : "off"}`,
    );
  };
  return {
    cases,
    notJson: notJsonBodies(fc.constantFrom(...valid)),
    send: sender("setStagingEnvironment", { deploymentId: dep }),
    restore: putBack,
    lenient: spelledAsValid(ctx, "StagingToggleRequest"),
    // A mistyped branchName beside the branchId (or the other way round), null or of any other type, may be read as absent.
    ignorable: (bad) => (bad.at === "/branchName" || bad.at === "/branchId") && names(bad.body) && (valueAt(bad.body, bad.at) === null || absentReading(bad)),
    async faithful(api, bad) {
      // A reading acts on the branch the body names, if it names this one, and on no other.
      if (!names(bad.body)) await unchanged(api);
      const now = await others(api);
      ctx.expect.equal(now.on, othersBefore, `a toggle of branch ${branch.name} leaves the other branches' staging environments as they were`, {
        res: now.res,
        reason: "beyond-request",
      });
    },
    unchanged,
  };
}

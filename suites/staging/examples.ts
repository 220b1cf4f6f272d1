import { TOOL_NAME } from "../../core/model/names.js";
import { group, type CheckSpec } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { listBranches } from "../../core/check/fixtures.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { FAR_BEYOND } from "../../core/api/input-domain.js";
import { stagingFlags, stagingState, unreadable } from "./state.js";
import { devModeBranch, documented } from "../lib/e14.js";

type BranchRef = { branchName: string } | { branchId: number };

const stateOf = (ctx: CheckContext, dep: string, branch: string, type?: "staging") => stagingState(ctx.api, ctx.expect, dep, branch, type);

/** At cleanup the branch's flag goes back to `was`; a branch found as it was is left alone. */
export function restoreLater(ctx: CheckContext, dep: string, branchName: string, was: boolean): void {
  ctx.scratch.onCleanup(`the staging environment of branch ${branchName} in deployment ${dep}`, async () => {
    if ((await stateOf(ctx, dep, branchName)).on === was) return;
    const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: was, branchName } });
    if (res.status !== 200) throw new Error(`the staging toggle answered ${res.status}`);
    // A 200 that changed nothing is no restoration: the report must list what was left.
    const now = await stateOf(ctx, dep, branchName);
    if (now.on === !was) throw new Error(`the staging toggle answered 200 but ${now.source} still shows the flag ${was ? "off" : "on"}`);
  });
}

/** Whether the branch's staging environment is on now, or undefined where nothing shows it; a known flag's restoration is registered. */
async function keepFlag(ctx: CheckContext, dep: string, branchName: string): Promise<boolean | undefined> {
  const was = (await stateOf(ctx, dep, branchName)).on;
  if (was !== undefined) restoreLater(ctx, dep, branchName, was);
  return was;
}

/** keepFlag for a check that needs the state read back: where nothing shows it, the scenario cannot be judged. */
async function keepKnownFlag(ctx: CheckContext, dep: string, branchName: string): Promise<boolean> {
  const was = await keepFlag(ctx, dep, branchName);
  if (was === undefined) throw new NotExercised(unreadable(branchName));
  return was;
}

/** A toggle that prepares the state a check starts from: it must succeed, but is not the rule under test. */
async function setFlag(ctx: CheckContext, dep: string, branchName: string, enabled: boolean, why: string): Promise<void> {
  ctx.require(await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled, branchName } }), "E4", why);
}

/**
 * The toggle under test: a 200 BranchResponse whose flag is `enabled`. The published document
 * lets the flag be null or absent: then the state is judged by the read-back alone.
 */
async function toggle(ctx: CheckContext, dep: string, ref: BranchRef, enabled: boolean): Promise<{ branch: any; res: Response }> {
  const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled, ...ref } });
  const branch = ctx.expect.ok(res, "BranchResponse").data;
  if (branch.isStagingEnvironmentEnabled != null)
    ctx.expect.equal(branch.isStagingEnvironmentEnabled, enabled, `the answer shows isStagingEnvironmentEnabled ${enabled}`, { res, reason: "answer-flag" });
  return { branch, res };
}

/**
 * E2, unfiltered and with type=staging, lists the branch as a staging environment, or does not;
 * where E2 names no branch, the branches list's flag says so once. Where E2 was the witness, the
 * branches list's isStagingEnvironmentEnabled, when a boolean, must say the same (rule 2: every read
 * path that carries the flag; a server may list staging environments of shared branches only).
 */
export async function expectListed(
  ctx: CheckContext,
  dep: string,
  branchName: string,
  listed: boolean,
  types: (undefined | "staging")[] = [undefined, "staging"],
): Promise<void> {
  for (const type of types) {
    const state = await stateOf(ctx, dep, branchName, type);
    if (state.on === undefined) throw new NotExercised(unreadable(branchName));
    ctx.expect.that(state.on === listed, `${state.source} ${listed ? "shows" : "does not show"} branch ${branchName}'s staging environment on`, {
      reason: "state",
      expected: `the staging environment of branch ${branchName} ${listed ? "on" : "off"}`,
      got: state.on ? "on" : "off",
      res: state.res,
    });
    if (!state.res) return;
  }
  const flag = (await listBranches(ctx.api, dep).catch(() => [])).find((b) => b.name === branchName)?.isStagingEnvironmentEnabled;
  if (typeof flag !== "boolean") return;
  ctx.expect.that(flag === listed, `the branches list shows branch ${branchName}'s isStagingEnvironmentEnabled ${listed}`, {
    reason: "state",
    expected: `isStagingEnvironmentEnabled ${listed}`,
    got: flag,
  });
}

/**
 * A personal or the production branch: enabling is refused (status not shown: any 4xx) and changes
 * nothing, whichever way the body names the branch: by branchName, and by branchId where the
 * branches list gives one (rule 2: a kind check may be done on one path only).
 */
function refusesToEnable(fixtureName: "personalBranch" | "productionBranch", what: string): CheckSpec["run"] {
  return async (ctx) => {
    const dep = ctx.fixture("deployment").id;
    const { name, id } = ctx.fixture(fixtureName);
    const was = await keepFlag(ctx, dep, name);
    const refs: [string, BranchRef][] = [[`branchName ${name}`, { branchName: name }]];
    if (id !== undefined) refs.push([`branchId ${id}`, { branchId: id }]);
    for (const [named, ref] of refs) {
      const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: true, ...ref } });
      ctx.requireRoute(res, "E4", `enabling the staging environment of ${what} ${name}`);
      ctx.expect.clientError(res, `enabling the staging environment of ${what} ${name}, named by ${named}, is rejected`);
      if (was === undefined) throw new NotExercised(`the 4xx came back, but ${unreadable(name)}, so "changes nothing" is not judged`);
      await expectListed(ctx, dep, name, was, [undefined]);
    }
  };
}

export const stagingChecks = group("staging", [
  {
    id: "staging.enable.by-name",
    spec: "E4; States and transitions (Branch)",
    level: "MUST",
    title: "Enabling a shared branch's staging environment by branchName answers the Branch with the flag on, and E2 then lists it as a staging environment",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const name = ctx.fixture("sharedBranch").name;
      if (await keepKnownFlag(ctx, dep, name))
        await setFlag(ctx, dep, name, false, "switching the branch's staging environment off first, so that switching it on shows");
      const { branch, res } = await toggle(ctx, dep, { branchName: name }, true);
      ctx.expect.equal(branch.name, name, "the answer is the branch named", { res: res, reason: "branch-named" });
      await expectListed(ctx, dep, name, true);
    },
  },
  {
    id: "staging.enable.by-id",
    spec: "E4 (branchId: the id the branch list returns); States and transitions (Branch)",
    level: "MUST",
    title: "Enabling a shared branch's staging environment by branchId answers that Branch with the flag on, and E2 then lists it as a staging environment",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const shared = ctx.fixture("sharedBranch");
      if (shared.id === undefined) throw new NotVerifiable(`the branches list (E14) gives branch ${shared.name} no integer id to send as branchId`);
      await keepKnownFlag(ctx, dep, shared.name);
      // By name, always: it also shows the toggle is served, so that a refusal by id is about the id.
      await setFlag(ctx, dep, shared.name, false, "switching the branch's staging environment off first (by name), so that switching it on by id shows");
      const { branch, res } = await toggle(ctx, dep, { branchId: shared.id }, true);
      ctx.expect.equal(branch.id, shared.id, "the answer is the branch with the branchId sent", { res: res, reason: "branch-named" });
      await expectListed(ctx, dep, shared.name, true);
    },
  },
  {
    id: "staging.disable.clears",
    spec: "E4; States and transitions (Branch)",
    level: "MUST",
    title:
      "Disabling a branch's staging environment, named by branchName or by branchId, answers the flag off, and E2 no longer lists it as a staging environment",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const shared = ctx.fixture("sharedBranch");
      await keepKnownFlag(ctx, dep, shared.name);
      // Both ways E4 names a branch (rule 2: every input class); by id where the branches list gives one.
      const refs: BranchRef[] = [{ branchName: shared.name }, ...(shared.id === undefined ? [] : [{ branchId: shared.id }])];
      for (const ref of refs) {
        await setFlag(ctx, dep, shared.name, true, "switching the branch's staging environment on first");
        await toggle(ctx, dep, ref, false);
        await expectListed(ctx, dep, shared.name, false);
      }
    },
  },
  {
    id: "staging.disable.any-existing-branch",
    // SHOULD: the States table's only condition for switching off is that the branch exists; E4's refusal names enabling.
    spec: "E4; States and transitions (Branch: enabled=false, branch exists)",
    level: "SHOULD",
    title:
      "Switching off the staging environment of any existing branch is taken with its flag off: a shared branch whose environment is off already, and the production branch",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch", "fixture:productionBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const shared = ctx.fixture("sharedBranch").name;
      if (await keepKnownFlag(ctx, dep, shared)) await setFlag(ctx, dep, shared, false, "switching the branch's staging environment off first");
      const production = ctx.fixture("productionBranch").name;
      await keepFlag(ctx, dep, production);
      for (const name of [shared, production]) {
        await toggle(ctx, dep, { branchName: name }, false);
        await expectListed(ctx, dep, name, false, [undefined]);
      }
    },
  },
  {
    id: "staging.enable.idempotent",
    spec: "E4; States and transitions (Branch)",
    level: "SHOULD",
    title: "Enabling an already enabled staging environment again is harmless: 200, the flag still on, still listed",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const name = ctx.fixture("sharedBranch").name;
      // From off, so that a server that flips on every enable shows it on the second one.
      if (await keepKnownFlag(ctx, dep, name)) await setFlag(ctx, dep, name, false, "switching the branch's staging environment off first");
      await setFlag(ctx, dep, name, true, "the first enable");
      await toggle(ctx, dep, { branchName: name }, true);
      await expectListed(ctx, dep, name, true, [undefined]);
    },
  },
  {
    id: "staging.enable.dev-mode-branch",
    spec: "E4; States and transitions (Branch); E2",
    level: "MUST",
    title:
      "A branch of the run's own in dev mode whose staging environment is enabled (answered 200, the flag on) is then listed by E2 as a staging environment, not as its development one only",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const name = await devModeBranch(ctx, await documented(ctx), dep);
      restoreLater(ctx, dep, name, false);
      const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: true, branchName: name } });
      ctx.requireRoute(res, "E4", `enabling the staging environment of ${name}, a branch of the run's own in dev mode`);
      // E4 rejects personal development branches: a server may take a branch its caller made and works on in dev mode for one.
      if (res.status >= 400 && res.status < 500)
        throw new NotExercised(
          `enabling the staging environment of ${name}, a branch of the run's own in dev mode, was refused (${res.status}): the server may take it for a personal development branch`,
        );
      const branch = ctx.expect.ok(res, "BranchResponse").data;
      if (branch.isStagingEnvironmentEnabled != null)
        ctx.expect.equal(branch.isStagingEnvironmentEnabled, true, "the answer shows isStagingEnvironmentEnabled true", { res, reason: "answer-flag" });
      await expectListed(ctx, dep, name, true);
    },
  },
  {
    id: "staging.reject.personal-branch",
    spec: "E4; States and transitions (Branch); Errors 5",
    level: "MUST",
    title: "Enabling the staging environment of a personal development branch, named by branchName or by branchId, is rejected with a 4xx and changes nothing",
    needs: ["writes", "fixture:deployment", "fixture:personalBranch"],
    run: refusesToEnable("personalBranch", "the personal development branch"),
  },
  {
    id: "staging.reject.production-branch",
    spec: "E4; States and transitions (Branch); Errors 5",
    level: "MUST",
    title: "Enabling the staging environment of the production branch, named by branchName or by branchId, is rejected with a 4xx and changes nothing",
    needs: ["writes", "fixture:deployment", "fixture:productionBranch"],
    run: refusesToEnable("productionBranch", "the production branch"),
  },
  {
    id: "staging.request.branch-required",
    spec: "E4 (one of branchName or branchId)",
    level: "MUST",
    title: "A toggle that names no branch (neither branchName nor branchId) is rejected with a 4xx, and no branch's staging flag changes",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const before = await stagingFlags(ctx.api, ctx.expect, dep);
      const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: true } });
      // A server that took the body anyway changed some branch: the one it answers with is put back.
      const changed = res.status < 300 ? res.body?.data?.name : undefined;
      const was = typeof changed === "string" ? before.of(changed) : undefined;
      if (was !== undefined && changed !== undefined) restoreLater(ctx, dep, changed, was);
      ctx.requireRoute(res, "E4", "a toggle naming no branch");
      ctx.expect.clientError(res, "a toggle naming no branch is rejected");
      // Refused, it changed no branch: every flag reads as before (one it did change is put back).
      // A branch another check of the run made (stays-active's, beside this one) is not the rule's.
      const names = (await listBranches(ctx.api, dep).catch(() => [])).map((b) => b.name).filter((n) => !TOOL_NAME.test(n));
      const after = await stagingFlags(ctx.api, ctx.expect, dep);
      const changedFlags = names.filter((n) => before.of(n) !== undefined && after.of(n) !== before.of(n));
      for (const n of changedFlags) if (n !== changed) restoreLater(ctx, dep, n, before.of(n)!);
      ctx.expect.equal(changedFlags, [], `the branches whose staging flag ${after.source} shows changed by the refused toggle`, {
        res: after.res,
        reason: "not-applied",
      });
    },
  },
  {
    id: "staging.request.unknown-branch-404",
    spec: "E4 (published docs: an unknown branch is a 404)",
    level: "SHOULD",
    title: "Toggling a branch the deployment does not have answers 404, switching on and switching off alike",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // A 404 proves nothing from a server without the toggle: setting a real branch as it is shows it is served.
      const shared = ctx.fixture("sharedBranch").name;
      await setFlag(ctx, dep, shared, await keepKnownFlag(ctx, dep, shared), "setting a shared branch's staging environment as it is");
      // Switching off has no kind to check (the States table: "branch exists"), so a server may skip the lookup there.
      for (const enabled of [true, false]) {
        const body = { enabled, branchName: ctx.scratch.name("no-such-branch") };
        const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body });
        ctx.expect.status(res, 404, `switching ${enabled ? "on" : "off"} a branch the deployment does not have`);
      }
    },
  },
  {
    id: "staging.request.no-such-branch-refused",
    spec: "E4 (one of branchName or branchId; only shared branches can be enabled)",
    level: "MUST",
    title:
      "Enabling a branch named by a value no shared branch has (a name empty, padded, non-ASCII or long; an id 0, 1 or far beyond any) is refused with a 4xx, and no branch's staging flag changes",
    needs: ["writes", "fixture:deployment", "fixture:productionBranch", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // A 4xx (a 404 above all) proves nothing from a server without the toggle: setting a shared branch as it is shows it is served.
      const shared = ctx.fixture("sharedBranch").name;
      await setFlag(ctx, dep, shared, await keepKnownFlag(ctx, dep, shared), "setting a shared branch's staging environment as it is");
      const branches = await listBranches(ctx.api, dep);
      const production = ctx.fixture("productionBranch").name;
      const folded = (n: string) => n.trim().toLowerCase();
      // The classes of core/api/input-domain.ts: names no branch has even trimmed and case-folded, ids no branch has or the production branch's.
      const names = ["", `  ${ctx.scratch.name("padded")}  `, `${ctx.scratch.name("Ünïcödé")} ✓`, `${ctx.scratch.name("long")}-${"x".repeat(256)}`].filter(
        (n) => !branches.some((b) => folded(b.name) === folded(n)),
      );
      const ids = [0, 1, 1001, FAR_BEYOND].filter((id) => {
        const named = branches.find((b) => b.id === id);
        return !named || named.name === production;
      });
      const bodies: BranchRef[] = [...names.map((branchName) => ({ branchName })), ...ids.map((branchId) => ({ branchId }))];
      const before = await stagingFlags(ctx.api, ctx.expect, dep);
      const answers: [BranchRef, Response][] = [];
      for (const ref of bodies) answers.push([ref, await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: true, ...ref } })]);
      // A branch a taken toggle changed is put back, whatever the verdict.
      const after = await stagingFlags(ctx.api, ctx.expect, dep);
      const changed = branches.map((b) => b.name).filter((n) => !TOOL_NAME.test(n) && before.of(n) !== undefined && after.of(n) !== before.of(n));
      for (const n of changed) restoreLater(ctx, dep, n, before.of(n)!);
      for (const [ref, res] of answers) {
        ctx.expect.clientError(res, `enabling ${JSON.stringify(ref).slice(0, 80)}, which names no shared branch, is rejected`);
      }
      ctx.expect.equal(changed, [], `the branches whose staging flag ${after.source} shows changed by the refused toggles`, {
        res: after.res,
        reason: "not-applied",
      });
    },
  },
]);

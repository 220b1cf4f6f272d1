import { devModeOf, e14 } from "../e14/state.js";
import { clean, stagingFlagBecomes, unnamedBranchIsFirstShared, whenNoBranchNamed } from "./kit/control-plane.js";
import { refusalAnsweredAs, notFound } from "./kit/policies.js";
import { HttpError, ok, type Fault } from "../http.js";
import { deploymentOf } from "../routes/common.js";
import type { BranchRecord } from "../store.js";

/** The last enable of each branch, for staging-lapses-when-idle: only the newest one's timer lapses it. */
const lastEnable = new WeakMap<BranchRecord, object>();
const LAPSE_MS = 1_500;

/**
 * A body's first JSON object or array, whatever follows it, as a decoder that reads one value and
 * stops does (Go's json.Decoder, Jackson by default): `{"enabled":false}}` is read as `{"enabled":false}`.
 */
function firstJsonValue(text: string): unknown {
  const start = text.search(/\S/);
  if (text[start] !== "{" && text[start] !== "[") return JSON.parse(text);
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if ((c === "}" || c === "]") && --depth === 0) return JSON.parse(text.slice(0, i + 1));
  }
  return JSON.parse(text);
}

/** The faults of the group staging (suites/staging/): each makes a check of it fail, for the reason its `because` names. */
export const stagingFaults: Fault[] = [
  {
    name: "staging-unlisted-for-dev-mode-branch",
    breaks: "E2; E4; States and transitions (Branch)",
    description:
      "a branch in dev mode whose staging environment is on is not listed as a staging environment (E4 answers the flag on; the branches list shows it)",
    because: { "staging.enable.dev-mode-branch": "state" },
    routes: ["E2"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200) return body;
      const dev = devModeOf(e14(app.store), Number(req.params.deploymentId));
      const shown = (e: { type?: string; branch?: string }) => !(e.type === "staging" && dev.has(e.branch ?? ""));
      return { ...body, items: body.items.filter(shown), data: body.data.filter(shown) };
    },
  },
  {
    name: "staging-disable-shared-only",
    breaks: "E4; States and transitions (Branch: enabled=false, branch exists)",
    description: "the shared-branch rule of enabling is applied to switching off too: the production branch's staging environment cannot be switched off (400)",
    because: { "staging.disable.any-existing-branch": "status" },
    routes: ["E4"],
    handle: ({ req, app, next }) => {
      const branch = deploymentOf(app, req).branches.find((b) => b.name === req.body?.branchName || b.id === req.body?.branchId);
      if (req.body?.enabled === false && branch && !app.b.stagingAllowed(branch))
        throw new HttpError(400, `only a shared branch has a staging environment to switch; ${branch.name} is a ${branch.kind} branch`);
      return next();
    },
  },
  {
    name: "staging-disable-unknown-branch-ok",
    breaks: "E4 (published docs: an unknown branch is a 404)",
    description: "switching off the staging environment of a branch the deployment does not have answers 200 (nothing to switch off)",
    because: { "staging.request.unknown-branch-404": "status" },
    routes: ["E4"],
    handle: ({ req, app, next }) => {
      const known = deploymentOf(app, req).branches.some((b) => b.name === req.body?.branchName || b.id === req.body?.branchId);
      return req.body?.enabled === false && !known ? Promise.resolve(ok({ data: { name: req.body?.branchName, isStagingEnvironmentEnabled: false } })) : next();
    },
  },
  {
    name: "staging-lapses-when-idle",
    breaks: "States and transitions (Branch: stays active regardless of user activity)",
    description: "an enabled staging environment lapses (its flag off, no longer listed) 1.5 s after the last enable of its branch",
    because: { "staging.enable.stays-active": "state" },
    routes: ["E4"],
    handle: async ({ req, app, next }) => {
      const reply = await next();
      if (reply.status !== 200 || req.body?.enabled !== true) return reply;
      const id = (reply.body as { data: { id: number } }).data.id;
      const branch = deploymentOf(app, req).branches.find((b) => b.id === id);
      if (!branch) return reply;
      const stamp = {};
      lastEnable.set(branch, stamp);
      setTimeout(() => {
        if (lastEnable.get(branch) === stamp) branch.isStagingEnvironmentEnabled = false;
      }, LAPSE_MS).unref();
      return reply;
    },
  },
  {
    name: "staging-disable-by-id-ignored",
    breaks: "E4 (branchId); States and transitions (Branch: enabled=false)",
    description: "switching off a branch named by branchId answers 200 with the flag as it was, and leaves it on",
    because: { "staging.disable.clears": "answer-flag" },
    routes: ["E4"],
    handle: ({ req, app, next }) => {
      const body = req.body as { enabled?: unknown; branchName?: unknown; branchId?: unknown } | undefined;
      if (body?.enabled !== false || body.branchName !== undefined || typeof body.branchId !== "number") return next();
      const branch = app.b.branchWithId(deploymentOf(app, req).branches, body.branchId);
      if (!branch) return next();
      const { id, name, parentBranch, lastHash, isStagingEnvironmentEnabled } = branch;
      return ok({ data: { id, name, parentBranch, lastHash, isStagingEnvironmentEnabled } });
    },
  },
  {
    name: "staging-not-listed",
    breaks: "States and transitions (Branch); E2",
    description: "the toggle answers the flag on, but E2 lists no staging environment",
    because: { "staging.enable.by-name": "state", "staging.enable.by-id": "state" },
    behaviour: { environmentsOf: (dep) => clean.environmentsOf(dep).filter((e) => e.type !== "staging") },
  },
  {
    name: "staging-branch-id-not-found",
    breaks: "E4 (branchId)",
    description: "a branch named by branchId is never found",
    because: { "staging.enable.by-id": "status" },
    behaviour: { branchWithId: () => undefined },
  },
  {
    name: "staging-disable-ignored",
    breaks: "States and transitions (Branch: enabled=false)",
    description: "enabled=false leaves an enabled staging environment on",
    because: { "staging.disable.clears": "answer-flag" },
    routes: ["E4"],
    handle: stagingFlagBecomes((current, requested) => current || requested),
  },
  {
    name: "staging-enable-toggles",
    breaks: "E4; States and transitions (Branch)",
    description: "enabled=true flips the flag, so a second enable switches the staging environment off",
    because: { "staging.enable.idempotent": "answer-flag" },
    routes: ["E4"],
    handle: stagingFlagBecomes((current, requested) => (requested ? !current : false)),
  },
  {
    name: "staging-personal-branch-accepted",
    breaks: "E4; States and transitions (Branch)",
    description: "a personal development branch can have a staging environment",
    because: { "staging.reject.personal-branch": "client-error" },
    behaviour: { stagingAllowed: (branch) => branch.kind !== "production" },
  },
  {
    name: "staging-personal-refusal-sets-flag",
    breaks: "E4; States and transitions (Branch)",
    description:
      "enabling a personal branch's staging environment is refused, but only after its flag was set; E2 lists staging environments of shared branches only, so only the branches list shows it",
    because: { "staging.reject.personal-branch": "state" },
    routes: ["E4"],
    behaviour: { environmentsOf: (dep) => clean.environmentsOf({ ...dep, branches: dep.branches.filter((b) => b.kind !== "personal") }) },
    handle: ({ req, app, next }) => {
      const name = (req.body as { branchName?: unknown } | undefined)?.branchName;
      const branch = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId)?.branches.find((b) => b.name === name);
      if (branch?.kind === "personal" && (req.body as { enabled?: unknown }).enabled === true) branch.isStagingEnvironmentEnabled = true;
      return next();
    },
  },
  {
    name: "staging-production-branch-accepted",
    breaks: "E4; States and transitions (Branch)",
    description: "the production branch can have a staging environment",
    because: { "staging.reject.production-branch": "client-error" },
    behaviour: { stagingAllowed: (branch) => branch.kind !== "personal" },
  },
  {
    name: "staging-kind-checked-by-name-only",
    breaks: "E4 (only shared branches can be enabled); States and transitions (Branch)",
    description: "the branch's kind is checked only when the body names it by branchName: the production branch named by branchId gets a staging environment",
    because: { "staging.reject.production-branch": "client-error" },
    routes: ["E4"],
    handle: ({ req, app, next }) => {
      const body = req.body as { enabled?: unknown; branchName?: unknown; branchId?: unknown } | undefined;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      const branch = body?.branchName === undefined ? dep?.branches.find((b) => b.id === body?.branchId) : undefined;
      if (!branch || body?.enabled !== true || branch.kind === "shared") return next();
      branch.isStagingEnvironmentEnabled = true;
      const { id, name, parentBranch, lastHash } = branch;
      return ok({ data: { id, name, parentBranch, lastHash, isStagingEnvironmentEnabled: true } });
    },
  },
  {
    name: "staging-implied-branch",
    breaks: "E4 (one of branchName or branchId)",
    description: "a body naming no branch toggles the first shared branch",
    because: { "staging.request.branch-required": "client-error" },
    routes: ["E4"],
    handle: unnamedBranchIsFirstShared,
  },
  {
    name: "staging-unknown-branch-400",
    breaks: "E4 (published docs: unknown branch 404)",
    description: "a branch the deployment does not have is a 400, not a 404",
    because: { "staging.request.unknown-branch-404": "status" },
    routes: ["E4"],
    handle: refusalAnsweredAs(400, notFound("branch")),
  },
  {
    name: "staging-unnamed-refused-after-applying",
    breaks: "E4 (one of branchName or branchId)",
    description: "a toggle naming no branch is refused with a 400, but only after it was applied to the first shared branch",
    because: { "staging.request.branch-required": "not-applied" },
    routes: ["E4"],
    handle: whenNoBranchNamed((shared, _r, refusal) => {
      shared.isStagingEnvironmentEnabled = !shared.isStagingEnvironmentEnabled;
      throw refusal;
    }),
  },
  {
    name: "staging-unnamed-branch-is-first-shared",
    breaks: "E4 (branchName or branchId)",
    description: "a toggle naming no branch acts on the deployment's first shared branch instead of being refused",
    because: { "staging.negative.broken-body": "staging-unchanged", "staging.negative.broken-body-4xx": "client-error" },
    routes: ["E4"],
    handle: unnamedBranchIsFirstShared,
  },
  {
    name: "body-first-json-value-read",
    breaks: "E3, E4, E6, E10 (request bodies are JSON)",
    description:
      "the server's JSON decoder reads a body's first value and ignores what follows it: a body with a stray closing brace after it is read as the body before the brace, and applied",
    because: {
      "staging.negative.broken-body": "staging-unchanged",
      "tokens.negative.broken-body": "no-token",
      "workspace.negative.broken-body": "no-clone",
      "deployment-update.negative.unlisted-version": "client-error",
    },
    behaviour: { jsonBody: firstJsonValue },
  },
  {
    name: "staging-branch-name-like",
    breaks: "E4 (only shared branches can be enabled; branchName names the branch)",
    description:
      "a branchName no branch has exactly is matched as a LIKE '%name%' pattern: an empty name matches every branch, and the first shared one is toggled",
    because: { "staging.request.no-such-branch-refused": "client-error" },
    routes: ["E4"],
    handle: ({ req, app, next }) => {
      const body = req.body as { branchName?: unknown } | undefined;
      const name = body?.branchName;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      if (typeof name !== "string" || !body || !dep || dep.branches.some((b) => b.name === name)) return next();
      const like = dep.branches.find((b) => b.kind === "shared" && b.name.includes(name));
      if (like) body.branchName = like.name;
      return next();
    },
  },
];

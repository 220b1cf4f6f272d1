import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import type { ServedModel } from "../../core/served/model.js";
import type { Response } from "../../core/transport/http.js";
import { field } from "../../core/served/served-operations.js";
import {
  branchesByName,
  devMode,
  devModeBranch,
  documented,
  fileDelete,
  fileNames,
  fileWrite,
  modelFile,
  ok2xx,
  ownBranch,
  shownStatus,
  stopDevMode,
} from "../lib/e14.js";
import { currentEnvironments } from "../lib/environment-list.js";
import { ownDeployment } from "../lib/own-deployment.js";
import { WRITES } from "../lib/needs.js";

/**
 * E14 rule 2 where the branch is not the run's own scratch branch, or the write is not one request:
 * the production branch, and a chunked upload's finish. A write to a production branch that a
 * server wrongly takes changes that deployment's production data model, and its removal would be a
 * delete outside dev mode, which a server may refuse: so it is tried only on the production branch
 * of a deployment the run made (--allow-deployment-lifecycle), never on a deployment of the tenant's.
 */

const flagged = (b: unknown) =>
  ["isDefault", "default", "isProduction", "production"].some((k) => field(b, k) === true) ||
  ["kind", "type", "role"].some((k) => String(field(b, k) ?? "").toLowerCase() === "production");

/**
 * The production branch of a deployment the run made: the branch E2's production environment runs,
 * else the one the branches list flags as default or production, else the only one it lists (a new
 * deployment's); not verifiable where none of these names one.
 */
async function productionBranchOf(ctx: CheckContext, dep: string): Promise<string> {
  const envs = await currentEnvironments(ctx.api, ctx.expect, dep).catch(() => undefined);
  const byEnv = envs?.environments.find((e) => e.type === "production" && typeof e.branch === "string")?.branch;
  const branches = await branchesByName(ctx, dep);
  if (typeof byEnv === "string" && branches.has(byEnv)) return byEnv;
  const marked = [...branches].filter(([, b]) => flagged(b)).map(([n]) => n);
  if (marked.length === 1) return marked[0];
  if (branches.size === 1) return [...branches.keys()][0];
  throw new NotVerifiable(
    `deployment ${dep}, made by the run, shows no production branch: E2 names none, and its branches list (${[...branches.keys()].join(", ")}) flags none as default`,
  );
}

/** A chunked upload of one file of the run's own: start (naming `branch` where the document lets it), one chunk; the upload's id, or the refusal. */
async function startedUpload(
  ctx: CheckContext,
  doc: ServedModel,
  dep: string,
  branch: string,
  name: string,
): Promise<{ refused: Response; uploadId?: undefined } | { uploadId: unknown; refused?: undefined }> {
  const start = doc.requireNamed("startUpload", "is the chunked upload's start step");
  const file = doc.requireNamed("uploadFile", "is the chunked upload's file step");
  const started = await ctx.api.call("startUpload", { deploymentId: dep }, { body: start.body({ "branchName|branch?": branch }) });
  if (!ok2xx(started)) return { refused: started };
  const uploadId = field(start.record(started), "uploadId|id");
  if (uploadId === undefined) throw new NotVerifiable("the upload's start answered no uploadId to send the chunks under");
  const chunk = await ctx.api.call(
    "uploadFile",
    { deploymentId: dep },
    {
      body: file.body({
        "uploadId|id": uploadId,
        "fileName|path|name": name,
        "content|chunk|data": "cubes: []\n",
        "chunkIndex|chunk_index|index?": 0,
        "partNumber|part_number|part?": 1,
      }),
    },
  );
  return ok2xx(chunk) ? { uploadId } : { refused: chunk };
}

export const dataModelOutsideDevModeChecks = group("data-model", [
  {
    id: "data-model.files.production-write-refused",
    spec: "E14 rule 2",
    level: "MUST",
    title:
      "A data-model file write on the production branch (of a deployment the run made, never in dev mode) is refused and creates nothing: the new file is not listed there",
    // The production branch of a deployment of the run's own only: one of the tenant's would keep what a wrong server took.
    needs: ["writes", "deployment-lifecycle", "fixture:deployment"],
    async run(ctx) {
      const doc = await documented(ctx);
      const write = doc.requireNamed("writeDataModelFiles", "writes data-model files");
      const remove = doc.findNamed("deleteDataModelFiles");
      doc.requireNamed("listDataModelFiles", "lists a branch's files, where a refused write must not show");
      const dep = await ownDeployment(ctx, doc.operations, ctx.fixture("deployment").id, "whose production branch a write may be tried on");
      const production = await productionBranchOf(ctx, dep);
      // A new file of the run's own name, never one the branch holds: a server that takes it has nothing of anyone's to overwrite.
      const name = modelFile(ctx, "production");
      if ((await fileNames(ctx, doc, dep, production)).includes(name)) throw new NotExercised(`${name} is on ${production} already`);
      let taken = false;
      // Before the deployment goes: the file a wrong server took is removed, and read back gone.
      ctx.scratch.onCleanup(`remove ${name} from the production branch ${production} of deployment ${dep}`, async () => {
        if (!taken || !remove) return;
        const { query, body } = fileDelete(remove, production, name);
        await ctx.api.call("deleteDataModelFiles", { deploymentId: dep }, { query, body });
        if ((await fileNames(ctx, doc, dep, production)).includes(name))
          throw new Error(`${name} is still on ${production} of deployment ${dep} (the run's own, removed with it)`);
      });
      const res = await ctx.api.call("writeDataModelFiles", { deploymentId: dep }, { body: fileWrite(write, production, name, "cubes: []\n") });
      taken = ok2xx(res);
      ctx.requireRoute(res, "E14", `writing a file on the production branch ${production}`);
      ctx.expect.clientError(res, `a write on the production branch ${production}, which is not in dev mode, is refused`, "refused-outside-dev-mode");
      ctx.expect.that(!(await fileNames(ctx, doc, dep, production)).includes(name), "the refused write created no file on the production branch", {
        expected: `no ${name}`,
        reason: "not-applied",
      });
    },
  },
  {
    id: "data-model.upload.finish-needs-dev-mode",
    spec: "E14 rule 2 (data-model files are written only on dev-mode branches); E14 rule 14",
    // SHOULD, and judged only on a server that holds uploads to dev mode itself: the rule stands on the files row; the
    // chunked upload has a row of its own, and may be the way a deployment of creation method upload (deploy mode cli) is
    // deployed, onto any branch. Six of the seven blind servers take an upload onto a branch never in dev mode.
    level: "SHOULD",
    title:
      "A server that refuses a chunked upload onto a branch not in dev mode (at its start, a chunk or its finish) writes nothing there, and refuses the finish of an upload whose branch left dev mode after its chunks: it holds the finish, which writes the files, to dev mode too",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const start = doc.requireNamed("startUpload", "is the chunked upload's start step");
      const last = doc.requireNamed("finishUpload", "is the chunked upload's finish step");
      const finish = (uploadId: unknown) => ctx.api.call("finishUpload", { deploymentId: dep }, { body: last.body({ "uploadId|id": uploadId }) });
      if (start.bodyProperty("branchName|branch") === undefined)
        throw new NotExercised(
          "the upload's start names no branch: an upload onto a branch not in dev mode cannot be tried, to tell whether the server holds uploads to dev mode",
        );
      // Dev mode on a branch of the run's own first: a server that drops the branch named below writes to that one, never to another's.
      const live = await devModeBranch(ctx, doc, dep);
      // A branch never in dev mode: whether the server holds uploads to dev mode at all.
      const branch = await ownBranch(ctx, doc, dep);
      const off = modelFile(ctx, "upload-off");
      const up = await startedUpload(ctx, doc, dep, branch, off);
      if (up.refused) ctx.requireRoute(up.refused, "E14", `uploading a file onto ${branch}, not in dev mode`);
      // A finish onto the run's own branch (deleted after) where start and chunk were taken: no upload is left open.
      const ended = up.refused ?? (await finish(up.uploadId));
      const gated = ended.status >= 400 && ended.status < 500;
      ctx.expect.that(!gated || !(await fileNames(ctx, doc, dep, branch)).includes(off), `the upload onto ${branch} refused outside dev mode left no ${off}`, {
        expected: `no ${off}`,
        got: `${off} listed`,
        reason: "not-applied",
      });
      if (!gated)
        throw new NotExercised(
          `the server takes a chunked upload onto ${branch}, never in dev mode (finish: ${shownStatus(ended)}): it reads an upload as a deploy, not a dev-mode write, which the spec leaves open`,
        );
      // The branch in dev mode at the start and the chunk, stopped before the finish, where the document's stop names its branch.
      const name = modelFile(ctx, "upload-stopped");
      const open = await startedUpload(ctx, doc, dep, live, name);
      if (open.refused) throw new NotVerifiable(`an upload onto ${live}, in dev mode, was refused: ${shownStatus(open.refused)}`);
      const stopped = await stopDevMode(ctx, doc, dep, live, { namedOnly: true });
      if (!stopped || !ok2xx(stopped)) {
        await finish(open.uploadId);
        throw new NotExercised(
          stopped
            ? `stopping dev mode on ${live} answered ${shownStatus(stopped)}`
            : "the document's stop of dev mode names no branch: the run's branch is not taken out of dev mode",
        );
      }
      const refused = await finish(open.uploadId);
      ctx.expect.clientError(refused, `the finish of an upload onto ${live}, whose dev mode was stopped after its chunk, is refused`, "refused-after-stop");
      ctx.expect.that(!(await fileNames(ctx, doc, dep, live)).includes(name), `the upload refused after the stop left no ${name} on ${live}`, {
        expected: `no ${name}`,
        reason: "not-applied",
      });
      // The upload it refused is still open: closed as it can be, dev mode again on the run's own branch and the finish (the branch goes at cleanup).
      if (refused.status >= 400) {
        await devMode(ctx, doc, dep, live);
        await finish(open.uploadId);
      }
    },
  },
]);

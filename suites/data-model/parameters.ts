import { group } from "../../core/model/check.js";
import type { CheckContext } from "../../core/model/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import type { ServedModel } from "../../core/served/model.js";
import { field, listed } from "../../core/served/served-operations.js";
import {
  accepted,
  branchesByName,
  startDbtSync,
  createdIn,
  devMode,
  documented,
  fileWrite,
  ok2xx,
  ownBranch,
  setup,
  setupRecord,
  shownStatus,
} from "../lib/e14.js";
import { WRITES } from "../lib/needs.js";

/**
 * E14 rules that live in the parameters the table names for the data model: a branch delete's
 * removeOnUpstream, file rename and chunked upload with their hashes, dbt sync's optional
 * branchName and ref. Shapes come from the server's own document (E14 shows none).
 */

/** A branch of the run's own in dev mode, and a file name of the run's own on it. */
async function devBranch(ctx: CheckContext, doc: ServedModel, dep: string): Promise<string> {
  const branch = await ownBranch(ctx, doc, dep);
  await devMode(ctx, doc, dep, branch);
  return branch;
}
const modelFile = (ctx: CheckContext, label: string) => `model/cubes/${ctx.scratch.slug(label).replace(/-/g, "_")}.yml`;

/** The branch's files by name with their hashes (file-hashes), every page. */
async function hashes(ctx: CheckContext, doc: ServedModel, dep: string, branch: string): Promise<{ res: Response; byName: Map<string, unknown> }> {
  const op = doc.requireNamed("getFileHashes", "lists the hashes of a branch's files");
  const param = op.requireQueryParam("branchName|branch", "names the branch whose hashes are listed");
  const res = await ctx.api.call("getFileHashes", { deploymentId: dep }, { query: { [param]: branch } });
  ctx.expect.status(res, 200, `GET file-hashes of ${branch}`, "hashes-listed");
  ctx.expect.json(res);
  // Under the answer's documented wrapper, if any: a list, or {files}, or a map of name to hash.
  const body = op.record(res);
  const list =
    listed(body) ??
    listed(res.body) ??
    (Array.isArray(body?.files) ? body.files : undefined) ??
    (body?.hashes && typeof body.hashes === "object" ? Object.entries(body.hashes).map(([k, v]) => ({ fileName: k, hash: v })) : undefined);
  if (!list) throw new NotVerifiable(`file-hashes of ${branch} answered no list of files (items, data, files or a hashes map)`);
  return { res, byName: new Map(list.map((f: any) => [field(f, "fileName|path|name"), field(f, "hash|sha|checksum")])) };
}

/** Writes one file whole on a dev-mode branch: a setup step. */
async function writeWhole(ctx: CheckContext, doc: ServedModel, dep: string, branch: string, name: string, content: string): Promise<void> {
  const write = doc.requireNamed("writeDataModelFiles", "writes data-model files");
  setup(
    ctx,
    await ctx.api.call("writeDataModelFiles", { deploymentId: dep }, { body: fileWrite(write, branch, name, content) }),
    `writing ${name} on ${branch}`,
  );
}

export const e14ModelParameterChecks = [
  ...group("branches", [
    {
      id: "branches.delete.remove-on-upstream",
      spec: "E14 rule 4",
      level: "MUST",
      title: "A branch delete by branchName with removeOnUpstream=true is accepted and deletes the branch",
      needs: [...WRITES],
      async run(ctx) {
        // The remote ref is not observable through this API; what is: the flag is taken, the branch goes.
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const remove = doc.requireNamed("deleteBranch", "deletes a branch");
        const byName = remove.requireQueryParam("branchName", "the spec names branchName as the delete's query");
        const flag = remove.requireQueryParam("removeOnUpstream", "E14 names removeOnUpstream on the branch delete");
        const branch = await ownBranch(ctx, doc, dep);
        const res = await ctx.api.call("deleteBranch", { deploymentId: dep }, { query: { [byName]: branch, [flag]: "true" } });
        ctx.requireRoute(res, "E14", "deleting a branch");
        ctx.expect.that(ok2xx(res), `deleting ${branch} with removeOnUpstream=true is accepted`, {
          expected: "2xx",
          got: shownStatus(res),
          res,
          reason: "remove-on-upstream-accepted",
        });
        const after = await branchesByName(ctx, dep);
        ctx.expect.that(!after.has(branch), `branch ${branch} is gone after its delete`, {
          expected: "not listed",
          got: after.get(branch),
          reason: "branch-deleted",
        });
      },
    },
  ]),
  ...group("data-model", [
    {
      id: "data-model.files.rename",
      spec: "E14 rule 14",
      level: "MUST",
      title: "Renaming a data-model file lists it under the new name with the same content hash, and no longer under the old one",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const rename = doc.requireNamed("renameDataModelFiles", "renames data-model files");
        const branch = await devBranch(ctx, doc, dep);
        const [from, to] = [modelFile(ctx, "before"), modelFile(ctx, "after")];
        await writeWhole(ctx, doc, dep, branch, from, "cubes: []\n# renamed by the conformance suite\n");
        const before = (await hashes(ctx, doc, dep, branch)).byName.get(from);
        if (before === undefined) throw new NotVerifiable(`file-hashes does not list ${from}, which was just written`);
        const body = rename.body({ "branchName|branch?": branch, "from|oldName|source|oldPath": from, "to|newName|target|newPath": to });
        const res = await ctx.api.call("renameDataModelFiles", { deploymentId: dep }, { body });
        ctx.requireRoute(res, "E14", "renaming a data-model file");
        const underTest = ["from", "oldName", "source", "oldPath", "to", "newName", "target", "newPath", from, to];
        accepted(ctx, res, { body, op: rename, underTest }, `renaming ${from} to ${to} is accepted`, "rename-accepted");
        const after = await hashes(ctx, doc, dep, branch);
        ctx.expect.that(!after.byName.has(from), `${from} is gone after the rename`, {
          expected: "not listed",
          got: [...after.byName.keys()],
          res: after.res,
          reason: "source-gone",
        });
        ctx.expect.equal(after.byName.get(to) ?? null, before, `${to} holds what ${from} held (the same hash)`, { res: after.res, reason: "content-moved" });
      },
    },
    {
      id: "data-model.upload.chunks-joined",
      spec: "E14 rule 14",
      level: "MUST",
      title: "A file uploaded in chunks (start, file, file, finish) is on the branch with the hash of the same content written whole",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const steps = { start: "startUpload", file: "uploadFile", finish: "finishUpload" } as const;
        const [start, file, finish] = (["start", "file", "finish"] as const).map((s) => doc.requireNamed(steps[s], `is the chunked upload's ${s} step`));
        const up = (step: keyof typeof steps, body: unknown) => ctx.api.call(steps[step], { deploymentId: dep }, { body });
        const branch = await devBranch(ctx, doc, dep);
        const content = "cubes:\n  - name: cf_orders\n    sql_table: public.orders\n";
        const cut = content.indexOf("    sql_table");
        const [uploaded, whole] = [modelFile(ctx, "chunked"), modelFile(ctx, "whole")];
        const started = setupRecord(ctx, start, await up("start", start.body({ "branchName|branch?": branch })), `starting an upload on ${branch}`);
        const uploadId = field(started, "uploadId|id");
        if (uploadId === undefined) throw new NotVerifiable("the upload's start answered no uploadId to send the chunks under");
        // The spec names no way to drop an upload: one the check did not get to finish (stopped,
        // or a chunk refused) is finished at cleanup, onto the run's own branch, deleted after it.
        let finished = false;
        ctx.scratch.onCleanup(
          `finish upload ${uploadId} onto the run's branch ${branch}`,
          async () => void (finished || (await up("finish", finish.body({ "uploadId|id": uploadId })))),
        );
        for (const chunk of [content.slice(0, cut), content.slice(cut)])
          setup(
            ctx,
            await up("file", file.body({ "uploadId|id": uploadId, "fileName|path|name": uploaded, "content|chunk|data": chunk })),
            `uploading a chunk of ${uploaded}`,
          );
        const last = finish.body({ "uploadId|id": uploadId });
        const done = await up("finish", last);
        finished = ok2xx(done);
        accepted(ctx, done, { body: last, op: finish, underTest: ["uploadId", "id", String(uploadId)] }, "the upload's finish is accepted", "upload-finished");
        await writeWhole(ctx, doc, dep, branch, whole, content);
        const { res, byName } = await hashes(ctx, doc, dep, branch);
        ctx.expect.that(byName.has(uploaded), `${uploaded} is on ${branch} after the upload`, {
          expected: `${uploaded} listed`,
          got: [...byName.keys()],
          res,
          reason: "upload-listed",
        });
        ctx.expect.equal(byName.get(uploaded), byName.get(whole), `the chunks joined in order hash as the same content written whole (${whole})`, {
          res,
          reason: "chunks-joined",
        });
      },
    },
  ]),
  ...group("dbt-sync", [
    {
      id: "dbt-sync.start.branch-and-ref",
      spec: "E14 rule 10",
      level: "MUST",
      title: "A dbt sync starts with the optional branchName and ref, and runs for that branch",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const op = doc.requireNamed("startDbtSync", "starts a dbt sync");
        const branch = await ownBranch(ctx, doc, dep);
        // The branch's own name is a ref every git server resolves.
        const body = op.body({ "branchName|branch": branch, ref: branch });
        const res = await startDbtSync(ctx, dep, body);
        ctx.requireRoute(res, "E14", "starting a dbt sync");
        // 409 is a conflict with the state (a sync already running), not with the fields sent: nothing shown about them.
        if (res.status === 409)
          throw new NotExercised(`the server would not start a sync now (409 ${res.text.slice(0, 160)}): the optional fields were not tried`);
        const underTest = ["branchName", "branch", "ref", branch];
        accepted(ctx, res, { body, op, underTest }, `a sync of ${branch} at ref ${branch} starts`, "branch-sync-started");
        const { id } = createdIn(ctx, op, res, "starting a dbt sync");
        const job = { deploymentId: dep, syncJobId: id };
        ctx.scratch.onCleanup(`cancel dbt sync ${id}`, async () => void (await ctx.api.call("cancelDbtSync", job)));
        const poll = await ctx.api.call("getDbtSync", job);
        const pollOp = doc.findNamed("getDbtSync");
        const shown = ok2xx(poll) && poll.isJson ? field(pollOp ? pollOp.record(poll) : poll.body, "branchName|branch") : undefined;
        if (shown === undefined) throw new NotVerifiable(`the sync ${id} (start and poll) shows no branchName: that it runs for ${branch} cannot be read`);
        ctx.expect.equal(shown, branch, `sync ${id} runs for the branch it was started for`, { res: poll, reason: "branch-kept" });
      },
    },
  ]),
];

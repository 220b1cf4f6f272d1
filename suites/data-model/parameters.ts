import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import type { ServedModel } from "../../core/served/model.js";
import { field, listed } from "../../core/served/served-operations.js";
import { accepted, devModeBranch, documented, fileNames, fileWrite, modelFile, ok2xx, ownBranch, setup, setupRecord } from "../lib/e14.js";
import { WRITES } from "../lib/needs.js";

/**
 * E14 rules of the data model that live in the parameters the table names: file rename and chunked
 * upload with their hashes. Shapes come from the server's own document (E14 shows none).
 */

/** A file name of the run's own. */

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

/**
 * A rename's body as the served document spells it (E14 names the operation, not its body): the file's present name
 * (`path` beside `newPath` too, the blind Go server's `files: [{path, newPath}]`; `fromPath` and `toPath`, the PHP one's).
 */
const RENAME_FROM = "from|oldName|source|oldPath|fromPath|path";
const RENAME_TO = "to|newName|target|newPath|toPath";
const renameHints = (branch: string, from: string, to: string) => ({ "branchName|branch?": branch, [RENAME_FROM]: from, [RENAME_TO]: to });

export const dataModelParameterChecks = [
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
        const branch = await devModeBranch(ctx, doc, dep);
        const [from, to] = [modelFile(ctx, "before"), modelFile(ctx, "after")];
        await writeWhole(ctx, doc, dep, branch, from, "cubes: []\n# renamed by the conformance suite\n");
        const before = (await hashes(ctx, doc, dep, branch)).byName.get(from);
        if (before === undefined) throw new NotVerifiable(`file-hashes does not list ${from}, which was just written`);
        const body = rename.body(renameHints(branch, from, to));
        const res = await ctx.api.call("renameDataModelFiles", { deploymentId: dep }, { body });
        ctx.requireRoute(res, "E14", "renaming a data-model file");
        const underTest = [...RENAME_FROM.split("|"), ...RENAME_TO.split("|"), from, to];
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
      id: "data-model.files.rename-needs-dev-mode",
      spec: "E14 rule 2 (data-model files are written only on dev-mode branches); E14 (POST .../data-model/files/rename)",
      // SHOULD: the table names rename on a row of its own; that a rename is a write of files is implied.
      level: "SHOULD",
      title: "A rename on a branch of the run's own that is not in dev mode is refused and renames nothing: the file keeps its name, none takes the new one",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const rename = doc.requireNamed("renameDataModelFiles", "renames data-model files");
        const branch = await ownBranch(ctx, doc, dep);
        // A branch starts with its parent's files: one of them, on the run's own branch, is what a wrong rename would move.
        const from = (await fileNames(ctx, doc, dep, branch))[0];
        if (from === undefined) throw new NotExercised(`the run's branch ${branch} holds no file to rename`);
        const to = modelFile(ctx, "renamed");
        const body = rename.body(renameHints(branch, from, to));
        const res = await ctx.api.call("renameDataModelFiles", { deploymentId: dep }, { body });
        ctx.requireRoute(res, "E14", "renaming a data-model file on a branch not in dev mode");
        ctx.expect.clientError(res, `a rename on ${branch}, which is not in dev mode, is refused`, "refused-outside-dev-mode");
        const after = await fileNames(ctx, doc, dep, branch);
        ctx.expect.that(after.includes(from) && !after.includes(to), `the refused rename left ${from} under its name`, {
          expected: `${from} listed, no ${to}`,
          got: after.filter((f) => f === from || f === to),
          reason: "not-applied",
        });
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
        const branch = await devModeBranch(ctx, doc, dep);
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
        // Each chunk says where it goes where the document has a field for it: a flag that it continues the file
        // (`append`), its index from 0 (`chunkIndex`: a server may take index 0 as "the file starts over"), or its
        // part number from 1.
        for (const [i, chunk] of [content.slice(0, cut), content.slice(cut)].entries()) {
          const body = file.body({
            "uploadId|id": uploadId,
            "fileName|path|name": uploaded,
            "content|chunk|data": chunk,
            "append|appendChunk?": i > 0,
            "chunkIndex|chunk_index|index?": i,
            "partNumber|part_number|part?": i + 1,
          });
          setup(ctx, await up("file", body), `uploading a chunk of ${uploaded}`);
        }
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
];

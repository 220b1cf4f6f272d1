import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { createFolder, workbookNoFolderHas } from "../lib/scratch-items.js";
import { ownWorkbook, putBySlug, readWorkbook } from "../lib/workbook-writes.js";
import { classOf } from "../../core/api/input-domain.js";

/**
 * Classes of E11's body (core/api/input-domain.ts) the other upsert checks never send: numbers at a
 * double's edges in meta (/meta: number-edges), a name "" (/name: empty) or with non-ASCII ends (/name: non-ascii), and a folderId that names
 * no folder of the deployment (/folderId: other-kind, other-deployment). The spec does not say whether a server takes these;
 * what it states is that an update changes only the sent fields (rule 2), so a taken request reads
 * back as sent and a refused one (a 4xx) leaves the workbook as it was.
 */

/** A 2xx reads back with `field` as sent; a 4xx leaves it as it was; a 5xx fails. */
async function takenOrKept(
  ctx: CheckContext,
  dep: string,
  id: number,
  res: Response,
  field: "name" | "folderId",
  sent: unknown,
  before: unknown,
  what: string,
) {
  const { workbook: after, res: read } = await readWorkbook(ctx, ctx.api, dep, id);
  // folderId is optional in a record: absent reads as the root.
  const now = field === "folderId" ? (after.folderId ?? null) : after.name;
  if (res.status >= 400 && res.status < 500)
    ctx.expect.equal(now, before, `${field} after ${what}, refused with ${res.status}`, { res: read, reason: "refused-unchanged" });
  else {
    ctx.expect.ok(res, "Workbook");
    ctx.expect.equal(now, sent, `${field} after ${what}, taken`, { res: read, reason: field === "name" ? "name-as-sent" : "folder-as-sent" });
  }
}

export const upsertInputClassChecks = group("upsert", [
  {
    id: "upsert.meta.number-edges-held",
    spec: "E11 rule 2; Resources / Workbook (meta: object)",
    level: "MUST",
    title:
      "meta holding numbers at a double's edges (its largest and smallest, exponent forms, past 32 bits) is stored as sent: the upsert's answer and the workbook read back (E9) hold each number",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const edges = classOf("upsertWorkbookBySlug", "/meta", "number-edges").edges[0] as Record<string, number>;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, { meta: { limits: 0 } });
      // Back to a plain number before the ledger reads the workspace: a server that answers a stored number
      // as no JSON (Perl's `Inf`) breaks every list that holds the workbook, for the run's cleanup too.
      ctx.scratch.onCleanup(
        `the meta of workbook ${workbook.id}`,
        async () => void (await putBySlug(ctx.scratch, ctx.api, dep, slug, { meta: { limits: 0 } })),
      );
      const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { meta: { limits: edges } });
      const answered = ctx.expect.ok(res, "Workbook");
      const sent = `an upsert sending meta.limits ${JSON.stringify(edges)}`;
      ctx.expect.equal(answered.meta?.limits, edges, `the answer to ${sent} holds each number as sent`, { res, reason: "number-edges-held" });
      const { workbook: stored, res: read } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      ctx.expect.equal(stored.meta?.limits, edges, `after ${sent}, the workbook read back holds each number as sent`, {
        res: read,
        reason: "number-edges-held",
      });
    },
  },
  {
    id: "upsert.update.empty-name",
    spec: "E11 rule 2",
    level: "MUST",
    title: 'An update that sends name "" stores the empty name (only sent fields change), or is refused with a 4xx and keeps the name it had',
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      // The run's name goes back before the ledger reads the workbook: it removes only what shows the run's name.
      ctx.scratch.onCleanup(`the name of workbook ${workbook.id}`, async () => void (await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: before.name })));
      const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: "" });
      await takenOrKept(ctx, dep, workbook.id, res, "name", "", before.name, 'an update that sent name ""');
    },
  },
  {
    id: "upsert.name.non-ascii-as-sent",
    spec: "E11 rule 2; E11 (body: name, a string)",
    level: "MUST",
    title:
      "A name with non-ASCII characters, at its ends too, is stored as sent: by an update (or it is refused with a 4xx and keeps the name it had), and by a create of a name ending in one",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // A server once "cleaned" names with a byte-wise trim that took the UTF-8 bytes of a first or last non-ASCII character.
      const names = classOf("upsertWorkbookBySlug", "/name", "non-ascii").edges as string[];
      const created = `${ctx.scratch.name("workbook")} ${names[0]}`;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, { name: created });
      const { workbook: made, res: madeRes } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      ctx.expect.equal(made.name, created, "the name of a workbook created with a name ending in a non-ASCII character", {
        res: madeRes,
        reason: "name-as-sent",
      });
      // The run's name goes back before the ledger reads the workbook: it removes only what shows the run's name.
      ctx.scratch.onCleanup(`the name of workbook ${workbook.id}`, async () => void (await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: created })));
      let now = made.name;
      for (const name of names) {
        const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { name });
        await takenOrKept(ctx, dep, workbook.id, res, "name", name, now, `an update that sent name ${JSON.stringify(name)}`);
        if (res.status < 300) now = name;
      }
    },
  },
  {
    id: "upsert.folder.other-kind",
    spec: "E11 rule 4",
    level: "SHOULD",
    title:
      "A folderId that names a workbook, not a folder, is refused with a 4xx (rule 4: edit access to the destination folder), and the workbook stays where it was",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      const other = await workbookNoFolderHas(ctx, dep);
      const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { folderId: other.id });
      ctx.expect.clientError(res, `an update with folderId ${other.id}, the id of a workbook`);
      await takenOrKept(ctx, dep, workbook.id, res, "folderId", other.id, before.folderId ?? null, `an update with folderId ${other.id}, a workbook's id`);
    },
  },
  {
    id: "upsert.folder.other-deployment",
    spec: "E11 rule 2; E11 rule 4",
    level: "SHOULD",
    title:
      "A folderId naming a folder of another deployment (not shown) is taken, the workbook reading back in it, or refused with a 4xx, the workbook where it was",
    needs: ["writes", "fixture:deployment", "fixture:namedOtherDeployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const theirs = await createFolder(ctx, ctx.fixture("namedOtherDeployment").id);
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      // Back at the root before the ledger removes the folder: a folder that holds a workbook may not go.
      ctx.scratch.onCleanup(`workbook ${workbook.id} at the root`, async () => void (await putBySlug(ctx.scratch, ctx.api, dep, slug, { folderId: null })));
      const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { folderId: theirs.id });
      await takenOrKept(
        ctx,
        dep,
        workbook.id,
        res,
        "folderId",
        theirs.id,
        before.folderId ?? null,
        `an update with folderId ${theirs.id} of another deployment`,
      );
    },
  },
]);

import { groupedById } from "../../core/check/check.js";
import { readOnlyFolder } from "../lib/read-only-folder.js";
import { ownWorkbook, putBySlug } from "../lib/workbook-writes.js";
import { VIEWER, namedIn } from "../lib/viewer.js";
import { WRITES } from "../lib/needs.js";

export const upsertRoleAccessChecks = groupedById([
  {
    id: "upsert.access.viewer-create-refused",
    spec: "E11 rule 4; Authentication 4",
    level: "MUST",
    title: "A caller below the AI BI User role cannot create a workbook by slug, and the slug holds no workbook after",
    needs: [...VIEWER],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const slug = ctx.scratch.slug("viewer");
      const name = ctx.scratch.name("viewer");
      const res = await putBySlug(ctx.scratch, ctx.as("viewer"), dep, slug, { name });
      ctx.expect.clientError(res, `creating a workbook by slug ${slug} as a caller below AI BI User is refused`, "role-refused");
      ctx.expect.equal(await namedIn(ctx, dep, name), [], `no workbook named ${name} was made by the refused create`, { res, reason: "nothing-created" });
    },
  },
  {
    id: "upsert.access.create-into-read-only-folder",
    spec: "E11 rule 4 (a request including folderId: edit access to the destination folder); Authentication 4",
    // SHOULD: Authentication 4 states the destination rule for an update only, and asks of a create
    // only the AI BI User role; rule 4's "a request including folderId" reads as covering a create too,
    // and a caller placing new work in a folder it may only read is what the destination rule forbids.
    level: "SHOULD",
    title: "A create by slug with folderId naming a folder the caller may only read is refused with a 4xx, and no workbook is made",
    needs: [...WRITES, "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const readOnly = ctx.as("readOnly");
      // The key creates at the root: a refusal below is the folder's, not its role's (nor a missing route).
      await ownWorkbook(ctx, readOnly, dep);
      const locked = (await readOnlyFolder(ctx, dep)).id;
      const slug = ctx.scratch.slug("locked");
      const name = ctx.scratch.name("locked");
      const res = await putBySlug(ctx.scratch, readOnly, dep, slug, { name, folderId: locked });
      ctx.expect.clientError(res, `creating workbook ${slug} in folder ${locked}, which the readOnly key may only read, is refused`);
      ctx.expect.equal(await namedIn(ctx, dep, name), [], `no workbook named ${name} was made by the refused create (E8, main key)`, {
        res,
        reason: "nothing-created",
      });
    },
  },
]);

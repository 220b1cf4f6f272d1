import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import type { ServedModel } from "../../core/served/model.js";
import { pathTo } from "../../core/transport/client.js";
import { allRecords, createdIn } from "./e14.js";
import { createWorkbook } from "./scratch-items.js";
import { bulkMove } from "./workbook-calls.js";
import { NotVerifiable } from "../../core/model/outcome.js";

/** The reports the run makes and lists: shared by the bulk delete, the reports list and placement checks, and bulk move. */

/** A report of the run's own, created by public id as the server's document spells it; tracked for cleanup. `sentPublicId` is the public id its PUT named. */
export async function ownReport(
  ctx: CheckContext,
  doc: ServedModel,
  dep: string,
  name: string,
  folderId?: number,
  fields: Record<string, unknown> = {},
): Promise<any> {
  const op = doc.requireNamed("upsertReportByPublicId", "creates a report of the run's own");
  // A create that documents no folderId (the blind Go server's): made at the root, then moved (E12).
  const placed = folderId !== undefined && op.bodyProperty("folderId") !== undefined;
  const body = { ...op.body({ "name|title": name, ...(placed ? { folderId } : {}) }), ...fields };
  const publicId = ctx.scratch.slug("report");
  const create = (sent: Record<string, unknown>) => ctx.api.call("upsertReportByPublicId", { deploymentId: dep, publicId }, { body: sent });
  let res = await create(body);
  // A document may say "required on create" in prose only: a refusal that names the documented
  // workbook field, not sent, is met once more with a workbook of the run's own.
  const workbookField = op.bodyProperty("workbookId|workbook");
  if (res.status >= 400 && res.status < 500 && workbookField && !(workbookField in body) && res.text.includes(workbookField)) {
    const workbook = await createWorkbook(ctx, dep);
    res = await create({ ...body, [workbookField]: workbook.id });
  }
  // A workspace item: removed by the run's workspace cleanup, which addresses reports by integer id.
  const { id, record } = createdIn(ctx, op, res, `creating report ${name}`, Number.isSafeInteger);
  ctx.scratch.track(dep, { type: "REPORT", id: id as number }, { res, name });
  if (folderId === undefined || placed) return { ...record, id, sentPublicId: publicId };
  const moved = await bulkMove(ctx.api, dep, [{ type: "REPORT", id: id as number }], folderId);
  const failures = moved.isJson && Array.isArray(moved.body?.failed) ? moved.body.failed : [];
  if (moved.status !== 200 || failures.length)
    throw new NotVerifiable(
      `the report create documents no folderId, and moving report ${id} into folder ${folderId} (E12) answered ${moved.status}${failures.length ? ` with ${JSON.stringify(failures[0])}` : ""}`,
    );
  return { ...record, id, folderId, sentPublicId: publicId };
}

export async function listReports(ctx: CheckContext, dep: string, query: Record<string, string | number>): Promise<{ res: Response; items: any[] }> {
  return allRecords(
    ctx,
    pathTo("listReports", { deploymentId: dep }),
    query,
    `the reports list (${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))})`,
  );
}

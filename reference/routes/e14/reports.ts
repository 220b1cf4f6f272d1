import { accessTo, atLeast } from "../../access.js";
import { type App, HttpError, ok, type Req, type Route } from "../../http.js";
import { cursorPage, intParam } from "../../paging.js";
import { e14, newId, nowIso } from "../../e14/state.js";
import { type Item, newItem } from "../../store.js";
import { deploymentOf, itemOf, itemsOf } from "../common.js";

/**
 * E14 reports: the list (folderId, externalWorkbookId, search; sortBy createdAt, updatedAt,
 * lastViewedAt, name, with no cursor when sorting by lastViewedAt), create-or-update by public id,
 * and spreadsheet placements (connect, disconnect, refresh; read access to the report suffices,
 * Authentication 4), addressed by placementId or externalWorkbookId + sheetName + anchorCell.
 */
const KINDS = ["vega", "table", "kpi", "html", "map"];
/** E14: what the reports list sorts by. */
export const SORT_BYS = ["createdAt", "updatedAt", "lastViewedAt", "name"];

function extras(app: App, r: Item) {
  const s = e14(app.store);
  let x = s.reportExtras.get(r.id);
  if (!x) s.reportExtras.set(r.id, (x = { publicId: `rpt-${r.deploymentId}-${r.id}`, lastViewedAt: null, externalWorkbookId: null }));
  return x;
}

export function reportRecord(app: App, r: Item) {
  const x = extras(app, r);
  return {
    id: r.id,
    publicId: x.publicId,
    deploymentId: r.deploymentId,
    name: r.name,
    kind: r.report?.kind ?? null,
    workbookId: r.workbookId ?? null,
    folderId: r.folderId,
    externalWorkbookId: x.externalWorkbookId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastViewedAt: x.lastViewedAt,
  };
}

/** The placement a body or query addresses: by placementId, or externalWorkbookId + sheetName + anchorCell. */
function placementKey(
  src: Record<string, unknown>,
  reportId: number,
): { key: string; address: { externalWorkbookId: string; sheetName: string; anchorCell: string } | null } {
  if (typeof src.placementId === "string" && src.placementId) return { key: src.placementId, address: null };
  const { externalWorkbookId, sheetName, anchorCell } = src;
  if ([externalWorkbookId, sheetName, anchorCell].every((v) => typeof v === "string" && v))
    return { key: `${reportId}:${externalWorkbookId}:${sheetName}:${anchorCell}`, address: { externalWorkbookId, sheetName, anchorCell } as any };
  throw new HttpError(400, "address the placement by placementId, or by externalWorkbookId, sheetName and anchorCell");
}

/** Authentication 4: read access to the report is what a placement needs (without it, the report is not found). */
function readableReport(app: App, req: Req): Item {
  const r = itemOf(app, deploymentOf(app, req), req.params.reportId, "REPORT");
  const access = accessTo(app.store, req.user, r);
  if (!atLeast(access, "read")) throw new HttpError(404, `report ${req.params.reportId} not found`);
  return r;
}

function placementOf(app: App, r: Item, src: Record<string, unknown>) {
  const { key } = placementKey(src, r.id);
  const p = [...e14(app.store).placements.values()].find(
    (x) => x.reportId === r.id && (x.placementId === key || `${r.id}:${x.externalWorkbookId}:${x.sheetName}:${x.anchorCell}` === key),
  );
  if (!p) throw new HttpError(404, "no such placement of this report");
  return p;
}

export const reportRoutes: Route[] = [
  {
    operation: "listReports",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const sortBy = req.query.get("sortBy") ?? "createdAt";
      if (!SORT_BYS.includes(sortBy)) throw new HttpError(400, `sortBy must be one of ${SORT_BYS.join(", ")}`);
      const order = req.query.get("sortOrder") ?? "asc";
      if (order !== "asc" && order !== "desc") throw new HttpError(400, "sortOrder must be asc or desc");
      const rawFolder = req.query.get("folderId");
      const folderId = rawFolder === "null" ? null : intParam(app.b, req.query, "folderId", 0);
      const external = req.query.get("externalWorkbookId");
      const term = req.query.get("search");
      const matching = itemsOf(app, dep, "REPORT")
        .filter((r) => atLeast(accessTo(app.store, req.user, r), "read"))
        .filter((r) => app.b.reportInFolder(r.folderId, folderId))
        .filter((r) => app.b.reportInExternalWorkbook(extras(app, r).externalWorkbookId, external))
        .filter((r) => app.b.searchMatches([r.name], term))
        .map((r) => reportRecord(app, r));
      const value = (r: ReturnType<typeof reportRecord>) => app.b.reportSortValue(r, sortBy);
      // Reports without a value (never viewed) come last in either order.
      const valued = matching.filter((r) => value(r) !== "").sort((a, b) => (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : a.id - b.id));
      if (order === "desc") valued.reverse();
      const list = [...valued, ...matching.filter((r) => value(r) === "").sort((a, b) => a.id - b.id)];
      if (sortBy === "lastViewedAt" && !app.b.cursorWhenSortedByLastViewed()) {
        if (req.query.get("after")) throw new HttpError(400, "no cursor is available when sorting by lastViewedAt");
        return ok({ items: list, data: list, count: list.length, pageInfo: null });
      }
      const page = cursorPage(app.b, list, req.query, 20);
      return ok({ items: page.items, data: page.items, count: list.length, pageInfo: page.pageInfo });
    },
  },
  {
    operation: "upsertReportByPublicId",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const body = req.body;
      if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "the body must be a JSON object");
      if (body.name !== undefined && (typeof body.name !== "string" || !body.name.trim())) throw new HttpError(400, "name must be a non-empty string");
      if (body.kind !== undefined && !KINDS.includes(body.kind)) throw new HttpError(400, `kind must be one of ${KINDS.join(", ")}`);
      if (body.sqlQuery !== undefined && typeof body.sqlQuery !== "string") throw new HttpError(400, "sqlQuery must be a string");
      if (body.folderId !== undefined && body.folderId !== null) itemOf(app, dep, String(body.folderId), "FOLDER");
      if (body.workbookId !== undefined && body.workbookId !== null) itemOf(app, dep, String(body.workbookId), "WORKBOOK");
      const s = e14(app.store);
      const publicId = req.params.publicId;
      const existing = itemsOf(app, dep, "REPORT").find((r) => extras(app, r).publicId === publicId);
      if (existing) {
        if (!atLeast(accessTo(app.store, req.user, existing), "edit")) throw new HttpError(403, "edit access to the report is required");
        if (body.name !== undefined) existing.name = body.name;
        if (body.folderId !== undefined) existing.folderId = body.folderId;
        if (body.workbookId !== undefined) existing.workbookId = body.workbookId ?? undefined;
        existing.report = {
          kind: body.kind ?? existing.report?.kind ?? "table",
          sqlQuery: body.sqlQuery ?? existing.report?.sqlQuery ?? "",
          title: existing.report?.title ?? existing.name,
        };
        existing.updatedAt = nowIso();
        return ok(reportRecord(app, existing));
      }
      if (typeof body.name !== "string") throw new HttpError(400, "name is required to create a report");
      if (!req.user.aiBiUser) throw new HttpError(403, "creating a report needs the AI BI User role");
      const r = newItem(app.store, {
        deploymentId: dep.id,
        type: "REPORT",
        name: body.name,
        folderId: body.folderId ?? null,
        createdBy: req.user.id,
        ...(body.workbookId == null ? {} : { workbookId: body.workbookId }),
        report: { kind: body.kind ?? "table", sqlQuery: body.sqlQuery ?? "", title: body.name },
      });
      s.reportExtras.set(r.id, { publicId, lastViewedAt: null, externalWorkbookId: null });
      return { status: 201, body: reportRecord(app, r) };
    },
  },
  {
    operation: "connectReportWorkbook",
    handler: (req, app) => {
      const r = readableReport(app, req);
      const body = req.body ?? {};
      const { key, address } = placementKey(body, r.id);
      const placements = e14(app.store).placements;
      if (!address) return ok(placementOf(app, r, body));
      const existing = [...placements.values()].find((p) => `${p.reportId}:${p.externalWorkbookId}:${p.sheetName}:${p.anchorCell}` === key);
      if (existing) return ok(existing);
      const p = { placementId: `plc-${newId(e14(app.store))}`, reportId: r.id, ...address, refreshedAt: null };
      placements.set(p.placementId, p);
      extras(app, r).externalWorkbookId = address.externalWorkbookId;
      return ok(p);
    },
  },
  {
    operation: "disconnectReportWorkbook",
    handler: (req, app) => {
      const r = readableReport(app, req);
      const p = placementOf(app, r, Object.fromEntries(req.query));
      e14(app.store).placements.delete(p.placementId);
      return ok({ deleted: p.placementId });
    },
  },
  {
    operation: "refreshReport",
    handler: (req, app) => {
      const r = readableReport(app, req);
      const p = placementOf(app, r, req.body ?? {});
      p.refreshedAt = nowIso();
      return ok(p);
    },
  },
  {
    operation: "deleteFolder",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const f = itemOf(app, dep, req.params.folderId, "FOLDER");
      if (!atLeast(accessTo(app.store, req.user, f), "manage")) throw new HttpError(403, "manage access is required to delete a folder");
      const children = itemsOf(app, dep).filter((i) => i.folderId === f.id);
      if (children.some((c) => c.type === "FOLDER")) throw new HttpError(400, "the folder still has sub-folders");
      for (const c of children) c.folderId = null;
      app.store.items.delete(f.id);
      return { status: 204 };
    },
  },
];

// E10 clone a workbook (regular and shared-workspace clone for creator-mode embed sessions).
import { accessTo, atLeast, deploymentFor, folderAccess, requireRole } from "./auth.js";
import type { Principal } from "./auth.js";
import type { Call } from "./ctx.js";
import { normalizeConfig, remapReports } from "./dashboard.js";
import { bad, fBool, forbidden, invalid, notFound, objBody, ok } from "./http.js";
import type { Reply } from "./http.js";
import { workbookJson } from "./serialize.js";
import { newItem, publicId } from "./seed-workspace.js";
import type { Dashboard, Deployment, Item, Snapshot, Store } from "./store.js";
import { itemIn, parseId } from "./workspace.js";

function checkLimit(store: Store, d: Deployment): void {
  if (d.workbookLimit === undefined) return;
  const n = store.itemsOf(d.id).filter((i) => i.type === "WORKBOOK").length;
  if (n >= d.workbookLimit) throw bad(`the plan's workbook limit (${d.workbookLimit}) is reached`);
}

function copyDashboard(store: Store, src: Dashboard, wb: Item, map: Map<number, number>, p: Principal): Dashboard {
  const snaps: Snapshot[] = src.reportSnapshots.map((s) => ({ ...s, id: store.ids.snapshot.take(), reportId: map.get(s.reportId) ?? s.reportId }));
  const d: Dashboard = {
    ...src,
    id: store.ids.dashboard.take(),
    publicId: publicId(),
    workbookId: wb.id,
    allowEmbed: false,
    config: remapReports(normalizeConfig(src.config), map),
    versionId: store.ids.version.take(),
    reportSnapshots: snaps,
    createdBy: p.user.id,
  };
  store.dashboards.set(d.id, d);
  wb.dashboardId = d.id;
  return d;
}

function baseCopy(src: Item, p: Principal, folderId: number | undefined): Partial<Item> {
  return {
    deploymentId: src.deploymentId,
    folderId,
    ownerId: p.user.id,
    createdBy: p.user.id,
    meta: JSON.parse(JSON.stringify(src.meta)) as Record<string, unknown>,
    calculatedFields: JSON.parse(JSON.stringify(src.calculatedFields)) as Record<string, unknown>,
  };
}

function regularClone(store: Store, p: Principal, d: Deployment, src: Item): Item {
  const folder = src.folderId;
  const placement = folder !== undefined && atLeast(folderAccess(store, p, folder), "edit") ? folder : undefined;
  const map = new Map<number, number>();
  const reports = [...store.items.values()].filter((r) => r.type === "REPORT" && r.workbookId === src.id && r.workspace === "main");
  const wb = newItem(store, { ...baseCopy(src, p, placement), deploymentId: d.id, type: "WORKBOOK", name: `Copy of ${src.name}` });
  for (const r of reports) {
    const nr = newItem(store, {
      ...baseCopy(r, p, placement),
      deploymentId: d.id,
      type: "REPORT",
      name: r.name,
      workbookId: wb.id,
      publicId: publicId(),
      report: r.report ? (JSON.parse(JSON.stringify(r.report)) as Item["report"]) : undefined,
    });
    map.set(r.id, nr.id);
  }
  if (src.dashboardDraft) wb.dashboardDraft = remapReports(normalizeConfig(src.dashboardDraft), map);
  if (src.meta["dashboardDraft"] && typeof src.meta["dashboardDraft"] === "object") {
    wb.meta["dashboardDraft"] = remapReports(normalizeConfig(src.meta["dashboardDraft"] as Record<string, unknown>), map);
  }
  const dash = src.dashboardId !== undefined ? store.dashboards.get(src.dashboardId) : undefined;
  if (dash) copyDashboard(store, dash, wb, map, p);
  return wb;
}

function sharedClone(store: Store, p: Principal, d: Deployment, src: Item, dash: Dashboard): Item {
  const wb = newItem(store, { ...baseCopy(src, p, undefined), deploymentId: d.id, type: "WORKBOOK", name: `Copy of ${src.name}` });
  const map = new Map<number, number>();
  for (const s of dash.reportSnapshots) {
    const nr = newItem(store, {
      deploymentId: d.id,
      type: "REPORT",
      name: s.name ?? s.title ?? `Report ${s.reportId}`,
      workbookId: wb.id,
      ownerId: p.user.id,
      createdBy: p.user.id,
      publicId: publicId(),
      report: { kind: s.kind, title: s.title, sqlQuery: s.sqlQuery, spec: s.spec },
    });
    map.set(s.reportId, nr.id);
  }
  const published = copyDashboard(store, dash, wb, map, p);
  published.status = "published";
  published.versionNumber = 1;
  wb.dashboardDraft = JSON.parse(JSON.stringify(published.config)) as Record<string, unknown>;
  return wb;
}

export function cloneWorkbook(c: Call): Reply {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const b = objBody(c.body, true);
  const shared = fBool(b, "shared", false) ?? false;
  const id = parseId(c.params["workbookId"], "workbook");
  if (shared) {
    if (c.p.key.kind !== "embed-session" || !c.p.key.creatorMode) throw forbidden("shared=true is only available to creator-mode embed sessions");
    const src = itemIn(c.store, d, id, "shared");
    if (!src || src.type !== "WORKBOOK") throw notFound(`workbook ${id} not found in the shared workspace of deployment ${d.id}`);
    const dash = src.dashboardId !== undefined ? c.store.dashboards.get(src.dashboardId) : undefined;
    if (!dash) throw bad(`workbook ${id} has no published dashboard to clone from`);
    requireRole(c.p, "AI_BI_USER", "cloning a workbook");
    checkLimit(c.store, d);
    return ok(workbookJson(c.store, sharedClone(c.store, c.p, d, src, dash), c.p));
  }
  const src = itemIn(c.store, d, id);
  if (!src) throw notFound(`workbook ${id} not found in deployment ${d.id}`);
  if (src.type !== "WORKBOOK") throw invalid(`item ${id} is a ${src.type}, only workbooks can be cloned`);
  if (!atLeast(accessTo(c.store, c.p, src), "read")) throw forbidden(`you have no read access to workbook ${id}`);
  requireRole(c.p, "AI_BI_USER", "cloning a workbook");
  checkLimit(c.store, d);
  return ok(workbookJson(c.store, regularClone(c.store, c.p, d, src), c.p));
}

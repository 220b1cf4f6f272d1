import { accessTo, accessToFolder, atLeast } from "../access.js";
import { rewriteWidgetReportIds } from "../dashboard.js";
import { HttpError, ok, type App, type Req, type Route } from "../http.js";
import { workbookRecord } from "../serialize.js";
import { newItem, type DeploymentRecord, type Item } from "../store.js";
import { deploymentOf, itemsOf } from "./common.js";

/** The source named in the path: a workbook of this deployment (of its shared workspace with `shared`); else 404 (rule 8; Errors 2). */
function sourceOf(app: App, dep: DeploymentRecord, rawId: string, shared: boolean): Item {
  const item = /^\d+$/.test(rawId) ? app.store.items.get(Number(rawId)) : undefined;
  if (!item || item.type !== "WORKBOOK" || !app.b.itemBelongsTo(item, dep.id) || (shared && !item.sharedWorkspace))
    throw new HttpError(404, `workbook ${rawId} not found${shared ? " in the shared workspace" : ""}`);
  return item;
}

function sharedFlag(app: App, body: unknown): boolean {
  const problem = app.b.cloneBodyProblem(body);
  if (problem) throw new HttpError(400, problem);
  return (body as { shared?: unknown } | undefined)?.shared === true;
}

/**
 * The workbook record of a clone: a new identity named `Copy of {name}` (rule 1), owned by the caller (rule 5), without the slug (rule 2 and
 * E11: a slug is a deployment-scoped identity); view history and policies start empty (rule 3).
 */
function cloneShell(app: App, dep: DeploymentRecord, req: Req, source: Item, folderId: number | null, meta: Record<string, unknown>): Item {
  return newItem(app.store, {
    deploymentId: dep.id,
    type: "WORKBOOK",
    name: `Copy of ${source.name}`,
    folderId,
    slug: null,
    createdBy: req.user.id,
    meta,
    calculatedFields: app.b.cloneCopy(source.calculatedFields),
  });
}

/** E10 rules 1-5: the workbook, its reports, draft and published dashboard, references rewritten. */
function fullClone(app: App, dep: DeploymentRecord, req: Req, source: Item): Item {
  const folderId = app.b.clonePlacement(source.folderId, accessToFolder(app.store, req.user, source.folderId));
  const clone = cloneShell(app, dep, req, source, folderId, app.b.cloneCopy(source.meta));
  const copies = new Map<number, number>();
  for (const r of itemsOf(app, dep, "REPORT").filter((r) => r.workbookId === source.id)) {
    const copy = newItem(app.store, {
      deploymentId: dep.id,
      type: "REPORT",
      name: r.name,
      folderId,
      createdBy: clone.createdBy,
      workbookId: clone.id,
      meta: app.b.cloneCopy(r.meta),
      calculatedFields: app.b.cloneCopy(r.calculatedFields),
      report: app.b.cloneCopy(r.report),
    });
    copies.set(r.id, copy.id);
  }
  const to = (id: number) => app.b.cloneReportRef(id, copies);
  if (source.dashboardDraft) {
    clone.dashboardDraft = app.b.cloneCopy(source.dashboardDraft);
    rewriteWidgetReportIds(clone.dashboardDraft, to);
  }
  if (source.publishedDashboard) clone.publishedDashboard = copyDashboard(app, source.publishedDashboard, clone, to);
  return clone;
}

/** The published dashboard of the clone: a new identity on the new workbook, its report references rewritten, not embeddable (rule 3). */
function copyDashboard(app: App, published: any, clone: Item, to: (reportId: number) => number): any {
  const d = app.b.cloneCopy(published);
  const id = app.store.nextDashboardId++;
  Object.assign(d, {
    id,
    publicId: `pub-${clone.deploymentId}-${id}-${clone.id}`,
    workbookId: clone.id,
    versionId: id * 10,
    createdBy: clone.createdBy,
    allowEmbed: false,
  });
  rewriteWidgetReportIds(d.config, to);
  for (const s of d.reportSnapshots ?? []) s.reportId = to(s.reportId);
  return d;
}

/** E10 rule 6: from the published dashboard only: a fresh report per snapshot, re-published, at the root. */
function sharedClone(app: App, dep: DeploymentRecord, req: Req, source: Item): Item {
  // Built from the published dashboard alone: the source's metadata belongs to its live workbook.
  const clone = cloneShell(app, dep, req, source, null, {});
  const published = source.publishedDashboard;
  if (!published) return clone;
  const copies = new Map<number, number>();
  for (const s of published.reportSnapshots as any[]) {
    const r = newItem(app.store, {
      deploymentId: dep.id,
      type: "REPORT",
      name: s.name ?? `Report ${s.reportId}`,
      folderId: null,
      createdBy: clone.createdBy,
      workbookId: clone.id,
      report: { kind: s.kind ?? "table", sqlQuery: s.sqlQuery ?? "", title: s.title ?? "" },
    });
    copies.set(s.reportId, r.id);
  }
  const republished = copyDashboard(app, published, clone, (id) => app.b.cloneReportRef(id, copies));
  clone.publishedDashboard = { ...republished, status: "published", versionNumber: 1, fromSharedWorkspace: true };
  clone.dashboardDraft = app.b.cloneCopy(republished.config);
  return clone;
}

/**
 * E10: clone a workbook. Every rule is checked before anything is created: the source (404), the
 * caller's rights (403), the shared-workspace conditions (400) and the plan's workbook limit (400).
 */
export const cloneRoutes: Route[] = [
  {
    operation: "duplicateWorkbook",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const shared = sharedFlag(app, req.body);
      if (shared && !app.b.mayCloneShared(req.user)) throw new HttpError(403, "shared: true is for creator-mode embed sessions only");
      const source = sourceOf(app, dep, req.params.workbookId, shared);
      if (!shared && !atLeast(accessTo(app.store, req.user, source), "read")) throw new HttpError(404, `workbook ${source.id} not found`);
      if (!req.user.aiBiUser) throw new HttpError(403, "cloning needs the AI BI User role");
      if (shared && !app.b.sharedCloneSourceUsable(source)) throw new HttpError(400, `workbook ${source.id} has no published dashboard to clone from`);
      // Rule 7: a clone refused at the limit creates nothing.
      if (app.b.workbookLimitReached(itemsOf(app, dep, "WORKBOOK").length, dep.workbookLimit))
        throw new HttpError(400, `the plan's workbook limit (${dep.workbookLimit}) is reached`);
      return ok(workbookRecord(app.store, shared ? sharedClone(app, dep, req, source) : fullClone(app, dep, req, source)));
    },
  },
];

import { isDeepStrictEqual } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { accessTo, accessToFolder } from "../access.js";
import type { Behaviour } from "../behaviour.js";
import { HttpError, ok, type App, type Route } from "../http.js";
import { workbookRecord } from "../serialize.js";
import { newItem, type DeploymentRecord, type Item } from "../store.js";
import { itemsOf } from "./common.js";
import { UPSERT_CONFLICT_CODE } from "../../core/api/operations.js";

/** A validated E11 body. `draft` is present when meta carried a dashboardDraft (already converted). */
interface UpsertRequest {
  name?: string;
  folderId?: number | null;
  meta?: Record<string, unknown>;
  draft?: { value: unknown };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function upsertRequest(b: Behaviour, body: unknown): UpsertRequest {
  if (body === undefined) return {};
  if (!isObject(body)) throw new HttpError(400, "the body must be an object {name?, folderId?, meta?}");
  const out: UpsertRequest = {};
  if (body.name !== undefined) {
    if (typeof body.name !== "string" || body.name.trim() === "") throw new HttpError(400, "name must be a non-empty string");
    out.name = body.name;
  }
  if (body.folderId !== undefined) {
    if (body.folderId !== null && !(Number.isSafeInteger(body.folderId) && (body.folderId as number) >= 0))
      throw new HttpError(400, "folderId must be a folder id or null");
    out.folderId = body.folderId as number | null;
  }
  if (body.meta !== undefined) {
    if (!isObject(body.meta)) throw new HttpError(400, "meta must be an object");
    const { dashboardDraft, ...rest } = body.meta;
    if ("dashboardDraft" in body.meta) {
      const problem = b.dashboardDraftProblem(dashboardDraft);
      if (problem) throw new HttpError(400, problem);
      out.draft = { value: b.convertDashboardDraft(dashboardDraft) };
    }
    out.meta = rest;
  }
  return out;
}

function destinationOf(app: App, dep: DeploymentRecord, folderId: number | null | undefined): void {
  if (folderId == null) return;
  const folder = app.store.items.get(folderId);
  if (!folder || folder.type !== "FOLDER" || folder.deploymentId !== dep.id) throw new HttpError(404, `folder ${folderId} not found`);
}

function holderOf(app: App, dep: DeploymentRecord, slug: string): Item | undefined {
  return app.b.slugHolder(itemsOf(app, dep, "WORKBOOK"), slug);
}

/** Applies a validated request to the workbook; says whether anything changed. */
function apply(app: App, wb: Item, sent: UpsertRequest): boolean {
  const before = { name: wb.name, meta: wb.meta, folderId: wb.folderId, dashboardDraft: wb.dashboardDraft };
  const meta = sent.meta === undefined ? undefined : app.b.mergeMeta(wb.meta, sent.meta);
  const next = app.b.upsertFields({ name: wb.name, meta: wb.meta, folderId: wb.folderId }, { name: sent.name, meta, folderId: sent.folderId });
  Object.assign(wb, next);
  if (sent.draft) wb.dashboardDraft = sent.draft.value;
  return !isDeepStrictEqual(before, { name: wb.name, meta: wb.meta, folderId: wb.folderId, dashboardDraft: wb.dashboardDraft });
}

/**
 * E11: PUT by slug. The whole request is validated, the create/update decision taken and its
 * access checked; then, after the configured window (so concurrent writers really race), it is
 * applied only if the workbook holding the slug is still the one decided on, else 409.
 */
export const upsertRoutes: Route[] = [
  {
    operation: "upsertWorkbookBySlug",
    handler: async (req, app) => {
      const dep = app.b.upsertDeployment(app.store.deployments, req.params.deploymentId);
      if (!dep) throw new HttpError(404, `deployment ${req.params.deploymentId} not found`);
      const slug = app.b.normaliseSlug(req.params.slug);
      if (slug === "") throw new HttpError(400, "the slug is empty");
      const sent = upsertRequest(app.b, req.body);
      destinationOf(app, dep, sent.folderId);

      const decided = app.b.decisionHolder(app.store, dep.id, slug);
      const createProblem = decided ? undefined : app.b.upsertCreateProblem(sent);
      if (createProblem) throw new HttpError(400, createProblem);
      const allowed = app.b.upsertAllowed({
        aiBiUser: req.user.aiBiUser,
        workbook: decided ? accessTo(app.store, req.user, decided) : null,
        destination: sent.folderId === undefined ? null : accessToFolder(app.store, req.user, sent.folderId),
      });
      if (!allowed) throw new HttpError(403, decided ? `no access to update workbook ${decided.id}` : "no access to create a workbook here");

      await sleep(app.options.upsertDelayMs);
      const holder = holderOf(app, dep, slug);
      if (app.b.upsertBranchChanged(decided?.id, holder?.id)) {
        // Errors 2: 409, and the request is not applied, not even to the workbook that holds the slug now.
        throw new HttpError(409, "another writer created or deleted the workbook holding this slug; retry", { code: UPSERT_CONFLICT_CODE });
      }

      const wb = decided ?? newItem(app.store, { deploymentId: dep.id, type: "WORKBOOK", name: slug, slug, createdBy: req.user.id });
      const changed = apply(app, wb, sent);
      // Rule 3: updatedAt moves only when the upsert changed something.
      if (decided && changed) wb.updatedAt = new Date().toISOString();
      return ok(workbookRecord(app.store, wb));
    },
  },
];

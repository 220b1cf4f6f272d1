import { EMBED_ACTIONS } from "../routes/e14/platform.js";
import { e14 } from "../e14/state.js";
import type { App } from "../http.js";
import { HttpError, type Fault } from "../http.js";

/** The faults of the group embed (suites/embed/): each makes a check of it fail, for the reason its `because` names. */
export const embedFaults: Fault[] = [
  {
    name: "embed-access-none-refused",
    breaks: "E14 rule 8 (actions read and none)",
    description: "embed access accepts read but refuses none",
    because: { "embed.access.actions": "action-accepted" },
    operations: ["setEmbedAccess"],
    handle: ({ req, next }) => {
      const left = EMBED_ACTIONS.filter((a) => a !== "none");
      if (req.body?.action === "none") throw new HttpError(400, `action must be one of ${left.join(", ")}`);
      return next();
    },
  },
  {
    name: "embed-access-one-tenant",
    breaks: "E14 rule 8 (per embed tenant)",
    description: "a workbook holds embed access for one tenant at a time: setting a tenant's access drops every other tenant's",
    because: { "embed.access.per-tenant": "tenant-kept" },
    operations: ["setEmbedAccess"],
    handle: ({ req, app, next }) => {
      const held = e14(app.store).embedAccess.get(Number(req.params.workbookId));
      if (held && req.body?.tenantId !== undefined) for (const key of [...held.keys()]) if (key !== "*") held.delete(key);
      return next();
    },
  },
  {
    name: "embed-access-tenant-sets-all-users",
    breaks: "E14 rule 8 (per embed tenant or for all embed users)",
    description: "embed access set for a tenant is written for all embed users as well",
    because: { "embed.access.per-tenant": "all-users-kept" },
    operations: ["setEmbedAccess"],
    handle: async ({ req, app, next }) => {
      const s = e14(app.store);
      const wbId = Number(req.params.workbookId);
      const answer = await next();
      if (req.body?.tenantId !== undefined && EMBED_ACTIONS.includes(req.body?.action)) s.embedAccess.get(wbId)?.set("*", req.body.action);
      return answer;
    },
  },
  {
    name: "embedding-disable-ignored",
    breaks: "E14 (PATCH /api/v1/embed/dashboard/{publicId}: enable or disable signed embedding)",
    description: "allowEmbed: false is read as absent (a `flag || current` reading): signed embedding can be enabled, never disabled",
    because: { "embed.dashboard.enable-then-disable": "embedding-kept" },
    operations: ["setDashboardEmbedding"],
    handle: ({ req, app, next }) => {
      if (req.body?.allowEmbed === false) req.body = { ...req.body, allowEmbed: publishedAllowEmbed(app, req.params.publicId) ?? false };
      return next();
    },
  },
];

/** The allowEmbed a published dashboard holds now (undefined: none has the public id). */
function publishedAllowEmbed(app: App, publicId: string | undefined): boolean | undefined {
  for (const item of app.store.items.values()) if (item.publishedDashboard?.publicId === publicId) return item.publishedDashboard.allowEmbed;
  return undefined;
}

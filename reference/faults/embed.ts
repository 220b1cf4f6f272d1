import { EMBED_ACTIONS } from "../routes/e14/platform.js";
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

import { afterClone, builtThenRefused } from "./kit/clone.js";

/** The clone's dashboard keeps the source's allowEmbed (E10 rule 3 says it starts false). */
const allowEmbedCopied = afterClone((clone, source) => {
  if (clone.publishedDashboard && source.publishedDashboard) clone.publishedDashboard.allowEmbed = source.publishedDashboard.allowEmbed;
});
import { cleanBehaviour } from "../behaviour.js";
import { refusalAnsweredAs, notFound } from "./kit/policies.js";
import { clonedSources } from "./kit/input-domain.js";
import type { Fault } from "../http.js";
import type { Item } from "../store.js";
import { e14 } from "../e14/state.js";

/** The faults of the group clone (suites/clone/): each makes a check of it fail, for the reason its `because` names. */
export const cloneFaults: Fault[] = [
  {
    name: "clone-reports-at-root",
    breaks: "E10 rule 4",
    description: "the clone is placed in the source's folder, but the reports copied with it are created at the root",
    because: { "clone.placement.reports-in-folder": "reports-folder", "clone.placement.own-reports-in-folder": "reports-folder" },
    routes: ["E10"],
    handle: async ({ app, next }) => {
      const reply = await next();
      const clone = reply.status === 200 ? (reply.body as { id?: number }).id : undefined;
      for (const item of app.store.items.values()) if (clone !== undefined && item.type === "REPORT" && item.workbookId === clone) item.folderId = null;
      return reply;
    },
  },
  {
    name: "clone-name-unprefixed",
    breaks: "E10 rule 1",
    description: "the clone keeps the source's name instead of `Copy of {name}`",
    because: { "clone.name.copy-of": "name" },
    routes: ["E10"],
    handle: afterClone((clone, source) => void (clone.name = source.name)),
  },
  {
    name: "clone-name-ascii-only",
    breaks: "E10 rule 1",
    description: "the clone's name is built from the original's ASCII characters only (`Copy of ncode mega`)",
    because: { "clone.name.copy-of": "name" },
    routes: ["E10"],
    handle: afterClone((clone, source) => void (clone.name = `Copy of ${source.name.replace(/[^\x00-\x7f]/g, "")}`)),
  },
  {
    name: "clone-content-dropped",
    breaks: "E10 rule 1",
    description: "the clone is answered with empty meta and calculatedFields",
    because: { "clone.copy.full-copy": "meta-copied" },
    routes: ["E10"],
    respond: ({ status, body }) => (status === 200 ? { ...body, meta: {}, calculatedFields: {} } : body),
  },
  {
    name: "clone-shallow-copy",
    breaks: "E10 rule 2; States and transitions (source unchanged)",
    description: "the clone shares the source's nested objects, so rewriting its report references rewrites the source's too",
    because: { "clone.independence.source-unchanged": "source-unchanged" },
    behaviour: { cloneCopy: (value) => (Array.isArray(value) ? ([...value] as typeof value) : value && typeof value === "object" ? { ...value } : value) },
  },
  {
    name: "clone-keeps-slug",
    breaks: "E10 rule 2",
    description: "the clone takes the source's slug, so the source's slug then reaches the clone",
    because: { "clone.independence.source-change-not-seen": "slug-reaches-source" },
    routes: ["E10"],
    handle: afterClone((clone, source) => void (clone.slug = source.slug)),
  },
  {
    name: "clone-dashboard-same-public-id",
    breaks: "E10 rule 2",
    description: "the clone's published dashboard keeps the source's id and publicId (one dashboard under two workbooks)",
    because: { "clone.independence.own-dashboard": "own-dashboard" },
    routes: ["E10"],
    handle: afterClone((clone, source) => {
      if (clone.publishedDashboard && source.publishedDashboard)
        Object.assign(clone.publishedDashboard, { id: source.publishedDashboard.id, publicId: source.publishedDashboard.publicId });
    }),
  },
  {
    name: "clone-reports-not-copied",
    breaks: "E10 rules 2 and 6",
    description: "report references of the clone's dashboards keep pointing to the source's reports",
    because: {
      "clone.reports.draft-references-rewritten": "refs-rewritten",
      "clone.reports.published-references-rewritten": "refs-rewritten",
      "clone.shared.from-published": "fresh-reports",
    },
    behaviour: { cloneReportRef: (reportId) => reportId },
  },
  {
    name: "clone-allow-embed-copied",
    breaks: "E10 rule 3",
    description: "the cloned dashboard keeps the source's allowEmbed",
    because: { "clone.embed.allow-embed-false": "allow-embed", "clone.shared.from-published": "allow-embed" },
    routes: ["E10"],
    handle: allowEmbedCopied,
  },
  {
    name: "shared-clone-allow-embed-copied",
    breaks: "E10 rules 3 and 6",
    description: "a shared clone (shared: true) copies the source's allowEmbed; the ordinary clone starts false",
    because: { "clone.shared.from-published": "allow-embed" },
    routes: ["E10"],
    handle: (args) => ((args.req.body as { shared?: unknown } | undefined)?.shared === true ? allowEmbedCopied(args) : args.next()),
  },
  {
    name: "clone-disables-source-embed",
    breaks: "E10 rules 2 and 3 (the clone is independent; States: source unchanged)",
    description: "the clone's allowEmbed false is written to the dashboard the clone still shares with its source: the source's embedding is switched off too",
    because: { "clone.embed.allow-embed-false": "source-unchanged" },
    routes: ["E10"],
    handle: afterClone((_clone, source) => {
      if (source.publishedDashboard) source.publishedDashboard.allowEmbed = false;
    }),
  },
  {
    name: "clone-copies-view-history",
    breaks: "E10 rule 3",
    description: "the clone's reports keep the lastViewedAt of the source's reports (by name), as if viewed",
    because: { "clone.history.view-history-not-copied": "view-history" },
    routes: ["E10"],
    handle: afterClone((clone, source, app) => {
      const extras = e14(app.store).reportExtras;
      const reportsOf = (workbook: Item) => [...app.store.items.values()].filter((i) => i.type === "REPORT" && i.workbookId === workbook.id);
      const seen = new Map(reportsOf(source).map((r) => [r.name, extras.get(r.id)?.lastViewedAt ?? null]));
      for (const copy of reportsOf(clone))
        extras.set(copy.id, {
          publicId: `rpt-${copy.deploymentId}-${copy.id}`,
          externalWorkbookId: null,
          ...extras.get(copy.id),
          lastViewedAt: seen.get(copy.name) ?? null,
        });
    }),
  },
  {
    name: "clone-placed-at-root",
    breaks: "E10 rule 4",
    description: "every clone is created at the root, even with edit access to the source's folder",
    because: { "clone.placement.same-folder-with-edit": "folder" },
    behaviour: { clonePlacement: () => null },
  },
  {
    name: "clone-placed-in-source-folder",
    breaks: "E10 rule 4",
    description: "every clone is created in the source's folder, even with read access only",
    because: { "clone.placement.read-only-to-root": "at-root" },
    behaviour: { clonePlacement: (sourceFolderId) => sourceFolderId },
  },
  {
    name: "clone-root-as-zero",
    breaks: "E10 rule 4",
    description: "a clone placed at the root gets folderId 0 instead of null",
    because: { "clone.placement.read-only-to-root": "at-root", "clone.placement.root-stays-root": "at-root" },
    behaviour: { clonePlacement: (sourceFolderId, access) => cleanBehaviour.clonePlacement(sourceFolderId, access) ?? 0 },
  },
  {
    name: "clone-private-to-caller",
    breaks: "E10 rule 4 (inheriting the folder's access)",
    description: "a clone is given access for its caller alone: other users, who may read its folder, may not read it",
    because: { "clone.placement.inherits-folder-read": "clone-readable" },
    routes: ["E10"],
    handle: afterClone((clone, _source, app) => {
      for (const u of app.store.users) if (u.id !== clone.createdBy) clone.grants.set(u.id, "none");
    }),
  },
  {
    name: "clone-editable-by-everyone",
    breaks: "E10 rule 4 (inheriting the folder's access)",
    description: "a clone is given edit access for every user, whatever they may do in its folder",
    because: { "clone.placement.inherits-no-edit": "clone-move-refused" },
    routes: ["E10"],
    handle: afterClone((clone, _source, app) => {
      for (const u of app.store.users) if (u.id !== clone.createdBy) clone.grants.set(u.id, "edit");
    }),
  },
  {
    name: "clone-owned-by-source-owner",
    breaks: "E10 rule 5",
    description: "the clone is owned by the source's owner instead of the caller",
    because: { "clone.owner.caller-owns": "owner" },
    routes: ["E10"],
    handle: afterClone((clone, source, app) => {
      for (const made of [clone, ...[...app.store.items.values()].filter((i) => i.workbookId === clone.id)]) made.createdBy = source.createdBy;
      if (clone.publishedDashboard) clone.publishedDashboard.createdBy = source.createdBy;
    }),
  },
  {
    name: "clone-shared-for-anyone",
    breaks: "E10 rule 6; Errors 2",
    description: "shared: true is allowed for callers that are not creator-mode embed sessions",
    because: { "clone.shared.non-creator-403": "status" },
    behaviour: { mayCloneShared: () => true },
  },
  {
    name: "clone-shared-unpublished-accepted",
    breaks: "E10 rule 6; Errors 2",
    description: "a shared clone of a workbook without a published dashboard is answered 200",
    because: { "clone.shared.unpublished-400": "status" },
    behaviour: { sharedCloneSourceUsable: () => true },
  },
  {
    name: "clone-shared-403-yet-created",
    breaks: "E10 rule 6; Errors 2",
    description: "shared: true from a caller that is not a creator-mode embed session answers 403, but the shared clone is made first",
    because: { "clone.shared.non-creator-403": "nothing-created" },
    routes: ["E10"],
    behaviour: { mayCloneShared: () => true },
    handle: async ({ req, next }) => {
      const reply = await next();
      const refused = req.body?.shared === true && !req.user.creatorMode && reply.status === 200;
      return refused ? { status: 403, body: { error: "shared: true is for creator-mode embed sessions only" } } : reply;
    },
  },
  {
    name: "clone-shared-unpublished-400-yet-created",
    breaks: "E10 rule 6; Errors 2",
    description: "a shared clone of a workbook without a published dashboard answers 400, but an empty clone is made first",
    because: { "clone.shared.unpublished-400": "nothing-created" },
    routes: ["E10"],
    behaviour: { sharedCloneSourceUsable: () => true },
    handle: async ({ req, app, next }) => {
      const source = app.store.items.get(Number(req.params.workbookId));
      const unpublished = req.body?.shared === true && source?.sharedWorkspace === true && source.publishedDashboard == null;
      const reply = await next();
      return unpublished && reply.status === 200 ? { status: 400, body: { error: `workbook ${source!.id} has no published dashboard to clone from` } } : reply;
    },
  },
  {
    name: "clone-limit-ignored",
    breaks: "E10 rule 7",
    description: "the plan's workbook limit is not enforced on clone",
    because: { "clone.limit.reached-400": "status" },
    behaviour: { workbookLimitReached: () => false },
  },
  {
    name: "clone-missing-answers-500",
    breaks: "E10 rule 8; Errors 2",
    description: "a missing source workbook (or one of another deployment) is answered 500 instead of 404",
    because: { "clone.missing.unknown-id-404": "status", "clone.missing.other-deployment-404": "status" },
    routes: ["E10"],
    handle: refusalAnsweredAs(500, notFound("workbook")),
  },
  {
    name: "clone-missing-answers-403",
    breaks: "E10 rule 8; Errors 2",
    description: "cloning a missing workbook (or one of another deployment) answers 403, as if access were denied, instead of 404",
    because: { "clone.missing.unknown-id-404": "status", "clone.missing.other-deployment-404": "status" },
    routes: ["E10"],
    handle: refusalAnsweredAs(403, notFound("workbook")),
  },
  {
    name: "clone-other-deployment-workbook",
    breaks: "E10 rule 8",
    description: "a workbook of another deployment is cloned under the deployment of the path",
    because: { "clone.missing.other-deployment-404": "status" },
    behaviour: { itemBelongsTo: () => true },
  },
  {
    name: "clone-limit-400-yet-created",
    breaks: "E10 rule 7",
    description: "a clone at the plan's workbook limit answers 400, but the clone (and its reports) is created first",
    because: { "clone.limit.reached-400": "nothing-created" },
    routes: ["E10"],
    handle: builtThenRefused,
  },
  {
    name: "clone-role-unchecked",
    breaks: "E10 rule 5 (AI BI User or higher); Authentication 4",
    description: "a caller below the AI BI User role may clone any workbook it can read",
    because: { "clone.access.viewer-refused": "role-refused" },
    routes: ["E10"],
    handle: ({ req, next }) => {
      req.user = { ...req.user, aiBiUser: true };
      return next();
    },
  },
  {
    name: "clone-rewrites-source-draft",
    breaks: "E10 rule 2; States and transitions (clone: source unchanged)",
    description:
      "a clone's draft references are rewritten on the source's draft, not on a copy: after a clone, the source's draft names the clone's reports (only at a source's first clone: later ones find none of its own reports in its draft)",
    because: { "clone.independence.source-unchanged": "source-unchanged" },
    routes: ["E10"],
    handle: async ({ req, app, next }) => {
      const reply = await next();
      const source = app.store.items.get(Number(req.params.workbookId));
      const clone = reply.status === 200 ? app.store.items.get((reply.body as { id: number }).id) : undefined;
      if (source?.dashboardDraft && clone?.dashboardDraft) source.dashboardDraft = structuredClone(clone.dashboardDraft);
      return reply;
    },
  },
  {
    name: "shared-clone-draft-from-source",
    breaks: "E10 rule 6 (the same config seeds the draft; the unpublished draft is not copied)",
    description: "a shared clone's draft is a copy of the source's own draft, not of its published config",
    because: { "clone.shared.draft-from-published": "draft-copied" },
    routes: ["E10"],
    handle: afterClone((clone, source) => {
      if (clone.publishedDashboard?.fromSharedWorkspace) clone.dashboardDraft = structuredClone(source.dashboardDraft);
    }),
  },
  {
    name: "shared-clone-owned-by-source-owner",
    breaks: "E10 rule 5 (the caller owns the new workbook)",
    description: "a shared clone is owned by the source's owner, not by the creator-mode caller",
    because: { "clone.shared.draft-from-published": "owner" },
    routes: ["E10"],
    handle: afterClone((clone, source) => {
      if (clone.publishedDashboard?.fromSharedWorkspace) clone.createdBy = source.createdBy;
    }),
  },
  {
    name: "clone-changes-source-once",
    breaks: "E10 rule 2; States and transitions (clone: source unchanged)",
    description: "the first clone of each workbook renames its source (a one-time migration of the source); later clones of it leave it alone",
    because: { "clone.independence.source-unchanged": "source-unchanged" },
    routes: ["E10"],
    handle: async ({ req, app, next }) => {
      const reply = await next();
      const source = app.store.items.get(Number(req.params.workbookId));
      const done = clonedSources.get(app) ?? new Set<number>();
      clonedSources.set(app, done);
      if (reply.status !== 200 || !source || done.has(source.id)) return reply;
      done.add(source.id);
      source.name = `${source.name} (migrated)`;
      return reply;
    },
  },
  {
    name: "clone-answer-meta-empty",
    breaks: "E10 (Response: the new Workbook)",
    description: "the clone is stored with the source's meta, but its answer shows meta {}",
    because: { "clone.answer.is-the-stored-clone": "answer-as-stored" },
    routes: ["E10"],
    respond: ({ status, body }) => (status === 200 && body?.id !== undefined ? { ...body, meta: {} } : body),
  },
  {
    name: "clone-answer-allow-embed-copied",
    breaks: "E10 rule 3",
    description: "the cloned dashboard is stored with allowEmbed false, but the clone's answer shows the source's true",
    because: { "clone.embed.allow-embed-false": "allow-embed" },
    routes: ["E10"],
    respond: ({ status, body }) =>
      status === 200 && body?.publishedDashboard ? { ...body, publishedDashboard: { ...body.publishedDashboard, allowEmbed: true } } : body,
  },
  {
    name: "clone-source-any-item",
    breaks: "E10 rule 8",
    description: "the source is looked up among every workspace item of the deployment: a folder's id clones the folder as a workbook named `Copy of {folder}`",
    because: { "clone.missing.not-a-workbook": "client-error" },
    routes: ["E10"],
    handle: async ({ req, app, next }) => {
      const item = app.store.items.get(Number(req.params.workbookId));
      if (item?.type !== "FOLDER") return next();
      item.type = "WORKBOOK";
      try {
        return await next();
      } finally {
        item.type = "FOLDER";
      }
    },
  },
  {
    name: "clone-id-parsed-leniently",
    breaks: "E10 rule 8",
    description: "the workbook id is read as its leading digits: a path segment `12abc` clones workbook 12",
    because: { "clone.missing.not-a-workbook": "client-error" },
    routes: ["E10"],
    handle: ({ req, next }) => {
      const digits = /^(\d+)\D/.exec(req.params.workbookId)?.[1];
      if (digits) req.params.workbookId = digits;
      return next();
    },
  },
];

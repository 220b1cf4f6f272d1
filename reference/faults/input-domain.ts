import { cleanBehaviour } from "../behaviour.js";
import type { Fault } from "../http.js";
import { servedSpec } from "./spec-document.js";

/**
 * Faults one step outside the inputs and answers the checks used to try (issue 29): each is a
 * realistic server bug that sits in a class of an input (a number far beyond a plausible cap, an
 * empty string, a part of a stored value, a letter outside ASCII) or an answer (a later page, a
 * deeper folder, a second clone) that no check sent or judged.
 */

/** Rewrites the Workbook records of a workspace answer (a record, a list's items and data, a move's moved). */
function eachRecord(f: (w: any) => any): NonNullable<Fault["respond"]> {
  return ({ status, body }) => {
    if (status !== 200 || typeof body !== "object" || body === null) return body;
    const lists = ["items", "data", "moved"].filter((k) => Array.isArray(body[k]));
    if (!lists.length) return typeof body.id === "number" ? f(body) : body;
    return { ...body, ...Object.fromEntries(lists.map((k) => [k, body[k].map(f)])) };
  };
}

/** Thirty days: a cap a server might set on token lifetimes without saying so. */
const LIFETIME_CAP_SECONDS = 30 * 86_400;

export const inputDomainFaults: Fault[] = [
  {
    name: "token-lifetime-capped",
    breaks: "E3; Resources / Metadata token result",
    description: "expires_in above thirty days is silently capped: expires_at is created_at plus thirty days",
    because: { "tokens.lifetime.any-expires-in": "lifetime" },
    routes: ["E3"],
    respond: ({ status, body }) => {
      const data = body?.data;
      if (status !== 200 || !data) return body;
      const created = Date.parse(data.created_at);
      if (Date.parse(data.expires_at) - created <= LIFETIME_CAP_SECONDS * 1000) return body;
      return { ...body, data: { ...data, expires_at: new Date(created + LIFETIME_CAP_SECONDS * 1000).toISOString() } };
    },
  },
  {
    name: "template-variable-empty-dropped",
    breaks: "E6 (templateVariables merged key by key)",
    description: 'a templateVariables key sent with the value "" is dropped instead of stored as ""',
    because: { "deployment-update.merge.template-variables": "merged-key-by-key" },
    behaviour: {
      mergeSettings: (stored, patch) => {
        const merged = cleanBehaviour.mergeSettings(stored, patch);
        const sent = Object.entries(patch.templateVariables ?? {}).filter(([, v]) => v === "");
        for (const [k] of sent) delete merged.templateVariables[k];
        return merged;
      },
    },
  },
  {
    name: "template-variable-long-truncated",
    breaks: "E6 (templateVariables merged key by key)",
    description: "a templateVariables value longer than 255 characters is stored cut to its first 255 (a VARCHAR(255) column)",
    because: { "deployment-update.merge.template-variables": "merged-key-by-key" },
    behaviour: {
      mergeSettings: (stored, patch) => {
        const merged = cleanBehaviour.mergeSettings(stored, patch);
        for (const [k, v] of Object.entries(patch.templateVariables ?? {}))
          if (typeof v === "string" && v.length > 255) merged.templateVariables[k] = v.slice(0, 255);
        return merged;
      },
    },
  },
  {
    name: "staging-branch-name-like",
    breaks: "E4 (only shared branches can be enabled; branchName names the branch)",
    description:
      "a branchName no branch has exactly is matched as a LIKE '%name%' pattern: an empty name matches every branch, and the first shared one is toggled",
    because: { "staging.request.no-such-branch-refused": "client-error" },
    routes: ["E4"],
    handle: ({ req, app, next }) => {
      const body = req.body as { branchName?: unknown } | undefined;
      const name = body?.branchName;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      if (typeof name !== "string" || !body || !dep || dep.branches.some((b) => b.name === name)) return next();
      const like = dep.branches.find((b) => b.kind === "shared" && b.name.includes(name));
      if (like) body.branchName = like.name;
      return next();
    },
  },
  {
    name: "deployment-channel-stored-before-check",
    breaks: "E6 rule 2; E5 (the channels the versions list)",
    description:
      "a releaseChannel no listed version is in is stored before it is checked: the update answers 400, and the deployment keeps the unknown channel",
    because: { "deployment-update.channel.unlisted-refused": "settings-unchanged" },
    routes: ["E6"],
    handle: ({ req, app, next }) => {
      const channel = (req.body as { releaseChannel?: unknown } | undefined)?.releaseChannel;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      if (typeof channel === "string" && dep && !dep.versions.some((v) => v.releaseChannel === channel))
        dep.settings = { ...dep.settings, releaseChannel: channel };
      return next();
    },
  },
  {
    name: "audit-user-email-substring",
    breaks: "E7 (userEmail filter)",
    description: "userEmail matches every email that contains the value, not the user's email",
    because: { "audit.filter.user-email": "partial-email-matched" },
    behaviour: {
      auditRowMatches: (e, f) =>
        cleanBehaviour.auditRowMatches(e, { ...f, userEmail: undefined }) &&
        (f.userEmail === undefined || e.userEmail.toLowerCase().includes(f.userEmail.toLowerCase())),
    },
  },
  {
    name: "audit-event-name-suffix",
    breaks: "E7 (eventName: event type filter)",
    description: "eventName matches every event type that ends with the value (a LIKE '%value' pattern): `in` keeps the `Logged in` events",
    because: { "audit.filter.event-name-classes": "other-events" },
    behaviour: {
      auditRowMatches: (e, f) =>
        cleanBehaviour.auditRowMatches(e, { ...f, eventName: undefined }) && (f.eventName === undefined || e.eventName.endsWith(f.eventName)),
    },
  },
  {
    name: "audit-search-unindexed-unfiltered",
    breaks: "E7 (search: full-text over event data)",
    description: "a search value that is no whole word of any event is not in the full-text index, and the export falls back to every row",
    because: { "audit.filter.search-classes": "row-outside-filter" },
    routes: ["E7"],
    handle: ({ req, app, next }) => {
      const search = req.query.get("search")?.toLowerCase();
      const words = (e: object) =>
        Object.values(e)
          .join(" ")
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u);
      if (search && !app.store.audit.some((e) => words(e).includes(search))) req.query.delete("search");
      return next();
    },
  },
  {
    name: "folder-path-first-ancestor-dropped",
    breaks: "Resources / Workbook (folderPath: ancestors of the containing folder)",
    description: "folderPath leaves out the outermost of two or more ancestors, on every read path",
    because: { "model.workspace.sequence": "folder-path" },
    routes: ["E8", "E9", "E10", "E11", "E12"],
    respond: eachRecord((w) => (Array.isArray(w?.folderPath) && w.folderPath.length >= 2 ? { ...w, folderPath: w.folderPath.slice(1) } : w)),
  },
  {
    name: "slug-ascii-lowercase",
    breaks: "E11 rule 1",
    description: "the slug is lowercased for A-Z only: `Ä-x` and `ä-x` hold two workbooks",
    because: { "upsert.slug.lowercased-non-ascii": "same-id" },
    behaviour: { normaliseSlug: (slug) => slug.trim().replace(/[A-Z]+/g, (s) => s.toLowerCase()) },
  },
  {
    name: "env-vars-data-first-page-only",
    breaks: "E13 (data is a deprecated copy of items); Versioning 2",
    description: "the deprecated data copy is sent on the first page and left out of every later one",
    because: { "pagination.legacy.kept-per-server": "legacy-field-dropped" },
    feeds: ["env-vars.legacy.data-matches-items"],
    routes: ["E13"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !req.query.get("after") || !body || !("data" in body)) return body;
      const { data, ...rest } = body;
      return rest;
    },
  },
  {
    name: "workbooks-count-last-page-plus-one",
    breaks: "E8 (count: total accessible ignoring pagination)",
    description: "count is one above the total on the last page of a walk (a page reached with after), right on every other",
    because: { "workbooks.list.count-matches-walk": "count-matches" },
    routes: ["E8"],
    respond: ({ status, body, req }) =>
      status === 200 && req.query.get("after") && body?.pageInfo?.hasNextPage === false && typeof body.count === "number"
        ? { ...body, count: body.count + 1 }
        : body,
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
    name: "spec-pre-0-3-0-path",
    breaks: "Versioning 3",
    description: "the served document still writes embed tenant deletion with its trailing slash, the path 0.3.0 changed",
    because: { "spec.document.revision-paths": "pre-revision-path" },
    routes: ["E14"],
    respond: servedSpec((doc) => {
      const path = Object.keys(doc.paths).find((p) => /^\/api\/v1\/embed-tenants\/\{[^}]+\}$/.test(p) && doc.paths[p].delete);
      if (!path) return;
      doc.paths[`${path}/`] = { delete: doc.paths[path].delete };
      delete doc.paths[path].delete;
    }),
  },
];

/** The workbooks each server has cloned (clone-changes-source-once changes a source at its first clone only). */
const clonedSources = new WeakMap<object, Set<number>>();

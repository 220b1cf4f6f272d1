import { BUILD_PREFIX } from "../../core/api/operations.js";
import { laterPage } from "./kit/invariants.js";
import { deploymentItem } from "../routes/deployments.js";
import { withoutOffsets } from "../shape-variants.js";
import type { Fault } from "../http.js";
import type { DeploymentRecord } from "../store.js";
import { cleanBehaviour } from "../behaviour.js";

/** Per reference app, the deployments deleted, kept as tombstones (the faults of a delete not applied everywhere). */
const tombstones = new WeakMap<object, DeploymentRecord[]>();
const tombstonesOf = (app: object): DeploymentRecord[] => {
  const dead = tombstones.get(app) ?? [];
  tombstones.set(app, dead);
  return dead;
};

/** A deployment delete, applied; the deployment is kept as a tombstone once it is answered 2xx. */
const keptOnDelete: NonNullable<Fault["handle"]> = async ({ req, app, next }) => {
  const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
  const reply = await next();
  if (dep && reply.status < 300) tombstonesOf(app).push(dep);
  return reply;
};

/** The faults of the group deployments (suites/deployments/): each makes a check of it fail, for the reason its `because` names. */
export const deploymentsFaults: Fault[] = [
  {
    name: "deleted-deployment-still-listed",
    breaks: "E1 (Lists deployments accessible to the caller); E14 (delete a deployment)",
    description: "a deleted deployment is kept as a tombstone that E1 still lists and counts, though every read under it answers 404",
    because: { "deployments.list.deleted-not-listed": "deleted-deployment-listed" },
    operations: ["deleteDeployment", "listDeployments"],
    handle: async ({ req, app, next }) => {
      if (req.operation === "deleteDeployment") return keptOnDelete({ req, app, next });
      const dead = tombstonesOf(app);
      const reply = await next();
      const body = reply.body as { data: { deployments: unknown[] }; pagination: { total: number } };
      if (reply.status !== 200 || !dead.length) return reply;
      return {
        ...reply,
        body: {
          ...body,
          data: { deployments: [...body.data.deployments, ...dead.map(deploymentItem)] },
          pagination: { ...body.pagination, total: body.pagination.total + dead.length },
        },
      };
    },
  },
  {
    name: "deleted-deployment-served-on-build",
    breaks: "E14 (delete a deployment); Authentication 1 (two path prefixes)",
    description:
      "a deleted deployment is gone on /api/v1, but /build/api/v1 still serves its branches and data-model files (the lookup there skips the deleted flag)",
    because: { "deployments.deleted.gone-on-both-prefixes": "deleted-served" },
    operations: ["deleteDeployment", "listBranches", "listDataModelFiles"],
    handle: async ({ req, app, next }) => {
      if (req.operation === "deleteDeployment") return keptOnDelete({ req, app, next });
      const dep = tombstonesOf(app).find((d) => String(d.id) === req.params.deploymentId);
      if (!dep) return next();
      app.store.deployments.push(dep);
      try {
        return await next();
      } finally {
        app.store.deployments.splice(app.store.deployments.indexOf(dep), 1);
      }
    },
  },
  {
    name: "deployments-list-ignores-scope",
    breaks: "E1",
    description: "E1 lists every deployment to a key scoped to some of them, though the others refuse it with 403",
    because: { "deployments.list.only-accessible": "lists-unreachable" },
    behaviour: { listedDeployments: (_, all) => [...all] },
  },
  {
    name: "deployments-list-ignores-members",
    breaks: "E1",
    description:
      "E1 lists every deployment to a user below the AI BI User role whom a deployment's members leave out, though that deployment refuses the key with 403",
    because: { "deployments.list.only-accessible": "lists-unreachable" },
    behaviour: {
      listedDeployments: (user, all) => (user.aiBiUser ? cleanBehaviour.listedDeployments(user, all) : [...all]),
    },
  },
  {
    name: "scope-unchecked-on-build",
    breaks: "Authentication 1; facts, Authentication (403 for a key scoped to other deployments)",
    description: "a key scoped to some deployments is refused the others on /api/v1 but served them on /build/api/v1",
    because: { "deployments.scoping.every-read": "read-served" },
    behaviour: {
      reachesDeployment: (user, id, path) => path?.startsWith(BUILD_PREFIX) || cleanBehaviour.reachesDeployment(user, id, path),
    },
  },
  {
    name: "scope-unchecked-on-workbooks",
    breaks: "facts, Authentication (403 for a key scoped to other deployments); E8; E9",
    description: "a key scoped to some deployments is refused the others' environments, but served their workbooks (E8, E9)",
    because: { "deployments.scoping.every-read": "read-served" },
    behaviour: {
      reachesDeployment: (user, id, path) => /\/workbooks(\/|$)/.test(path ?? "") || cleanBehaviour.reachesDeployment(user, id, path),
    },
  },
  {
    name: "deployments-list-empty-for-scoped-key",
    breaks: "E1",
    description: "E1 lists nothing to a key scoped to some deployments, though it reads them",
    because: { "deployments.list.every-accessible": "omits-reachable" },
    behaviour: { listedDeployments: (user, all) => (user.deployments ? [] : [...all]) },
  },
  {
    name: "workbooks-later-pages-other-deployment",
    breaks: "E8; Resources / Workbook (deploymentId)",
    description: "pages of the workbooks list after the first name the next deployment as the deploymentId of their last workbook (in items and data alike)",
    feeds: ["workbooks.list.cursor-walk"],
    because: { "deployments.scoping.every-answer": "other-deployment" },
    routes: ["E8"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !laterPage(req.query) || !Array.isArray(body?.items) || !body.items.length) return body;
      const last = body.items.length - 1;
      const moved = (list: any[]) => list.map((w, i) => (i === last ? { ...w, deploymentId: Number(w.deploymentId) + 1 } : w));
      return { ...body, items: moved(body.items), data: Array.isArray(body.data) ? moved(body.data) : body.data };
    },
  },
  {
    name: "offset-limit-two-starts-late",
    breaks: "Pagination styles 1; E1",
    description: "an E1 page of limit=2 past the first starts one deployment late",
    because: { "deployments.list.any-limit": "missing" },
    routes: ["E1"],
    respond: ({ status, body, req, app }) => {
      const offset = Number(req.query.get("offset") ?? 0);
      if (status !== 200 || req.query.get("limit") !== "2" || offset <= 0) return body;
      const late = app.store.deployments.slice(offset + 1, offset + 3).map((d) => ({ id: String(d.id), name: d.name, created_at: d.created_at }));
      return { ...body, data: { ...body.data, deployments: late } };
    },
  },
  {
    name: "offset-limit-two-cap-ignored",
    breaks: "Pagination styles 1; E1; E2",
    description: "an offset page at offset 0 with limit=2 holds three items: E1's deployments and E2's deprecated data",
    because: { "deployments.list.any-limit": "page-cap", "environments.legacy.any-limit": "page-cap" },
    routes: ["E1", "E2"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200 || req.query.get("limit") !== "2" || Number(req.query.get("offset") ?? 0) !== 0) return body;
      if (Array.isArray(body?.data?.deployments))
        return { ...body, data: { ...body.data, deployments: app.store.deployments.slice(0, 3).map(deploymentItem) } };
      // Without first, items is the whole (type-filtered) list: the legacy window is cut from it.
      return Array.isArray(body?.data) && !req.query.has("first") ? { ...body, data: body.items.slice(0, 3) } : body;
    },
  },
  {
    name: "deployments-data-array",
    breaks: "E1",
    description: "E1 answers data as an array of deployments (the published document's shape) beside pagination, instead of data.deployments",
    because: { "deployments.list.spec-shape": "published-shape" },
    routes: ["E1"],
    respond: ({ status, body }) => (status === 200 && Array.isArray(body?.data?.deployments) ? { ...body, data: body.data.deployments } : body),
  },
  {
    name: "deployments-created-at-missing",
    breaks: "E1",
    description: "deployment list items lack created_at",
    because: { "deployments.list.schema": "schema:DeploymentsListResponse" },
    routes: ["E1"],
    respond: ({ body }) => ({ ...body, data: { deployments: body.data.deployments.map(({ created_at, ...d }: any) => d) } }),
  },
  {
    name: "deployments-created-at-naive",
    breaks: "Resources / Deployment (created_at: ISO 8601 date-time; an offset makes it an instant: SHOULD)",
    description: "created_at carries no UTC offset (2026-01-01T00:00:00.000), as in the variant naive-timestamps",
    because: { "deployments.list.created-at-offset": "utc-offset" },
    routes: ["E1"],
    respond: ({ body }) => withoutOffsets(body),
  },
  {
    name: "offset-default-limit-10",
    breaks: "Limits (default page size 20)",
    description: "offset lists default to 10 items a page",
    because: { "deployments.list.defaults": "default-limit" },
    routes: ["E1", "E2"],
    handle: ({ req, next }) => {
      if (!req.query.get("limit")) req.query.set("limit", "10");
      return next();
    },
  },
  {
    name: "offset-alone-default-limit-9",
    breaks: "Limits (default page size 20)",
    description: "with offset sent and limit left out, the deployments list pages by 9 (the cursor lists' default); without offset, by 20",
    because: { "deployments.list.defaults": "default-limit" },
    routes: ["E1"],
    handle: ({ req, next }) => {
      if (req.query.get("offset") !== null && !req.query.get("limit")) req.query.set("limit", "9");
      return next();
    },
  },
  {
    name: "deployments-limit-ignored",
    breaks: "E1; Pagination styles 1",
    description: "the deployments list returns every deployment the caller may access whatever the limit",
    because: { "deployments.list.limit-honoured": "limit-caps" },
    routes: ["E1"],
    respond: ({ body, app, req }) => ({
      ...body,
      data: {
        deployments: app.b.listedDeployments(req.user, app.store.deployments).map((d) => ({ id: String(d.id), name: d.name, created_at: d.created_at })),
      },
    }),
  },
  {
    name: "deployments-total-counts-inaccessible",
    breaks: "E1 (Lists deployments accessible to the caller); Pagination styles 1",
    description: "pagination.total counts every deployment of the account, not those the caller may access: only a key scoped to fewer shows it",
    because: { "deployments.list.total-consistent": "total" },
    routes: ["E1"],
    respond: ({ body, app }) => ({ ...body, pagination: { ...body.pagination, total: app.store.deployments.length } }),
  },
  {
    name: "deployments-total-off-by-one",
    breaks: "E1; Pagination styles 1",
    description: "pagination.total counts one deployment too many",
    because: { "deployments.list.total-consistent": "total" },
    routes: ["E1"],
    respond: ({ body }) => ({ ...body, pagination: { ...body.pagination, total: body.pagination.total + 1 } }),
  },
  {
    name: "offset-past-end-wraps",
    breaks: "Pagination styles 1",
    description: "a page that starts past the end wraps around to the first items",
    because: { "deployments.list.offset-past-end": "past-end-empty" },
    behaviour: { pageSlice: (list, start, count) => (start >= list.length ? list.slice(0, count) : list.slice(start, start + count)) },
  },
  {
    name: "minimums-not-enforced",
    breaks: "Pagination styles 1 and 2 (minimums)",
    description: "limit, offset and first below their minimums are accepted instead of rejected",
    because: { "deployments.list.limit-zero-rejected": "client-error", "deployments.list.negative-offset-rejected": "client-error" },
    behaviour: { belowMinimum: () => false },
  },
];

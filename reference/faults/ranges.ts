import type { Fault } from "../http.js";
import { cleanBehaviour } from "../behaviour.js";
import { deploymentItem, versionEntries } from "../routes/deployments.js";

/**
 * Faults that keep a rule at the points the examples look at and break it elsewhere in its range:
 * another page size, a page past the first, another omitted field, another endpoint. Each is
 * caught only by the check that walks the whole range (issue 13, section 2).
 */
export const rangeFaults: Fault[] = [
  {
    name: "cursor-page-cap-past-first-page",
    breaks: "Pagination styles 2",
    description: "a cursor page after the first holds one item more than first when first is 3 or more (the cursor moves past it: nothing is lost or repeated)",
    because: { "pagination.cursor.any-page-size": "page-cap" },
    behaviour: { pageSlice: (list, start, count) => list.slice(start, start + count + (count >= 3 && start > 0 ? 1 : 0)) },
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
    name: "list-filter-dropped-after-first-page",
    breaks: "E2 (query type); E8 (folderId)",
    description: "E2's type and E8's folderId filter only the first page: a page asked with after, or at an offset, lists unfiltered",
    because: { "environments.filter.every-page": "filter-every-page", "workbooks.list.folder-filter-every-page": "filter-every-page" },
    routes: ["E2", "E8"],
    handle: ({ req, next }) => {
      if (req.query.get("after") || Number(req.query.get("offset") ?? 0) > 0) for (const filter of ["type", "folderId"]) req.query.delete(filter);
      return next();
    },
  },
  {
    name: "cursor-first-one-ends-early",
    breaks: "Pagination styles 2; E8",
    description:
      "walked at first=1, E8's page holding the last workbook but one says hasNextPage false: the last workbook is never served (every other page size ends right)",
    because: { "pagination.cursor.any-page-size": "missing" },
    routes: ["E8"],
    respond: ({ status, body, req }) => {
      const end = typeof body?.pageInfo?.endCursor === "string" ? JSON.parse(Buffer.from(body.pageInfo.endCursor, "base64url").toString("utf8")).p : undefined;
      if (status !== 200 || req.query.get("first") !== "1" || !body.pageInfo.hasNextPage || end !== body.count - 1) return body;
      return { ...body, pageInfo: { ...body.pageInfo, hasNextPage: false } };
    },
  },
];

/** E11 rule 2 and E6 (partial merge), for the fields the examples never left out. */
export const omittedFieldFaults: Fault[] = [
  {
    name: "upsert-omitted-folder-to-root",
    breaks: "E11 rule 2",
    description: "an update that does not send folderId moves the workbook to the root (name and meta are kept when omitted)",
    because: { "upsert.update.omitted-field-kept": "kept:folderId" },
    behaviour: {
      upsertFields: (current, sent) => ({ ...cleanBehaviour.upsertFields(current, sent), folderId: sent.folderId === undefined ? null : sent.folderId }),
    },
  },
  {
    name: "update-without-version-moves-to-latest",
    breaks: "E6 (partial merge)",
    description:
      "an update that sends neither releaseChannel nor releaseChannelVersion moves the deployment to its channel's latest version and drops the hold",
    because: { "deployment-update.merge.omitted-fields-kept": "kept:version" },
    routes: ["E6"],
    respond: ({ status, body, req, app }) => {
      if (
        req.method !== "PUT" ||
        status !== 200 ||
        typeof req.body !== "object" ||
        req.body === null ||
        "releaseChannel" in req.body ||
        "releaseChannelVersion" in req.body
      )
        return body;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      const latest = dep && versionEntries(dep).find((e) => e.releaseChannel === dep.settings.releaseChannel && e.isLatestInChannel);
      if (!dep || !latest) return body;
      dep.settings = {
        ...dep.settings,
        releaseChannelVersion: latest.releaseChannelVersion,
        image: latest.releaseChannelVersion,
        releaseChannelVersionHold: false,
      };
      return { ...body, ...dep.settings };
    },
  },
];

/** Authentication 3 at an endpoint the example did not try. */
export const authRangeFaults: Fault[] = [
  {
    name: "metadata-token-accepted-on-env-vars",
    breaks: "Authentication 3",
    description: "a bearer JWT (a metadata token) is taken as the first user's API key on the env-vars list (E13) only; E1 and the rest refuse it",
    because: { "tokens.auth.not-an-api-key": "metadata-token-refused" },
    behaviour: {
      authenticate: (header, store, request) =>
        cleanBehaviour.authenticate(header, store) ??
        (/^Bearer eyJ/.test(header ?? "") && (request?.operation === "listEnvVars" || request?.operation === "setEnvVars") ? store.users[0] : undefined),
    },
  },
];

/** Levels (issue 13, section 3): a shape the spec does not give, tolerated but named. */
export const levelFaults: Fault[] = [
  {
    name: "deployments-data-array",
    breaks: "E1",
    description: "E1 answers data as an array of deployments (the published document's shape) beside pagination, instead of data.deployments",
    because: { "deployments.list.spec-shape": "published-shape" },
    routes: ["E1"],
    respond: ({ status, body }) => (status === 200 && Array.isArray(body?.data?.deployments) ? { ...body, data: body.data.deployments } : body),
  },
];

/** Limits (DashboardAppSource entry: max 255): a draft cut to fit, or kept whole. */
const ENTRY_MAX = 255;
function entryCut(draft: unknown): unknown {
  const entry = (draft as any)?.app?.entry;
  return typeof entry === "string" && entry.length > ENTRY_MAX
    ? { ...(draft as any), app: { ...(draft as any).app, entry: entry.slice(0, ENTRY_MAX) } }
    : draft;
}

export const limitFaults: Fault[] = [
  {
    name: "app-entry-truncated",
    breaks: "Limits (Dashboard app entry: max 255)",
    description: "a dashboard draft's app entry over 255 characters is cut to 255 and stored, the upsert answering 200",
    because: { "upsert.draft.app-entry-over-255-not-stored": "entry-truncated", "upsert.draft.app-entry-over-255-4xx": "client-error" },
    behaviour: {
      dashboardDraftProblem: (draft) => cleanBehaviour.dashboardDraftProblem(entryCut(draft)),
      convertDashboardDraft: (draft) => cleanBehaviour.convertDashboardDraft(entryCut(draft)),
    },
  },
  {
    name: "app-entry-unbounded",
    breaks: "Limits (Dashboard app entry: max 255)",
    description: "a dashboard draft's app entry is taken whatever its length",
    because: { "upsert.draft.app-entry-over-255-not-stored": "entry-stored" },
    behaviour: { dashboardDraftProblem: (draft) => cleanBehaviour.dashboardDraftProblem(entryCut(draft)) },
  },
  {
    name: "entry-refused-at-255",
    breaks: "Limits (Dashboard app entry: max 255)",
    description: "the entry limit is off by one: an app entry of exactly 255 characters is refused with a 400",
    because: { "upsert.draft.app-entry-255-kept": "entry-at-limit-accepted" },
    behaviour: {
      dashboardDraftProblem: (draft) =>
        (draft as any)?.app?.entry?.length >= ENTRY_MAX
          ? `app.entry must be shorter than ${ENTRY_MAX} characters`
          : cleanBehaviour.dashboardDraftProblem(draft),
    },
  },
  {
    name: "entry-truncated-at-255",
    breaks: "Limits (Dashboard app entry: max 255)",
    description: "an app entry of exactly 255 characters is accepted but stored cut to 254 (longer ones are refused as they should be)",
    because: { "upsert.draft.app-entry-255-kept": "entry-kept" },
    behaviour: {
      convertDashboardDraft: (draft) => {
        const entry = (draft as any)?.app?.entry;
        return cleanBehaviour.convertDashboardDraft(
          typeof entry === "string" && entry.length === ENTRY_MAX
            ? { ...(draft as any), app: { ...(draft as any).app, entry: entry.slice(0, ENTRY_MAX - 1) } }
            : draft,
        );
      },
    },
  },
];

import { trailingEmptyPage } from "../shape-variants.js";
import { cleanBehaviour } from "../behaviour.js";
import type { Fault } from "../http.js";

/** type=T filters items, while the deprecated `fields` come from the unfiltered list, for the queries `applies` takes. */
function legacyFromUnfiltered(applies: (query: URLSearchParams) => boolean, fields: string[]): NonNullable<Fault["handle"]> {
  return async ({ req, next }) => {
    const reply = await next();
    const type = req.query.get("type");
    if (type === null || reply.status !== 200 || !applies(req.query)) return reply;
    req.query.delete("type");
    const whole = (await next()).body as Record<string, unknown>;
    req.query.set("type", type);
    return { ...reply, body: { ...(reply.body as object), ...Object.fromEntries(fields.map((f) => [f, whole[f]])) } };
  };
}

/** The faults of the group environments (suites/environments/): each makes a check of it fail, for the reason its `because` names. */
export const environmentsFaults: Fault[] = [
  {
    name: "list-filter-dropped-after-first-page",
    breaks: "E2 (query type); E8 (folderId)",
    description: "E2's type and E8's folderId filter only the first page: a page asked with after, or at an offset, lists unfiltered",
    because: {
      "environments.filter.every-page": "filter-every-page",
      "environments.filter.every-page-own-staging": "filter-every-page",
      "workbooks.list.folder-filter-every-page": "filter-every-page",
    },
    routes: ["E2", "E8"],
    handle: ({ req, next }) => {
      if (req.query.get("after") || Number(req.query.get("offset") ?? 0) > 0) for (const filter of ["type", "folderId"]) req.query.delete(filter);
      return next();
    },
  },
  // E2: environments.
  {
    name: "environments-pageinfo-missing",
    breaks: "E2",
    description: "the environments list drops pageInfo beside items",
    because: { "environments.list.schema": "schema:PageInfo" },
    routes: ["E2"],
    respond: ({ body }) => {
      const { pageInfo: _dropped, ...rest } = body;
      return rest;
    },
  },
  {
    name: "environments-without-id",
    breaks: "Resources / Environment (id; required-ness not shown: SHOULD)",
    description: "environments are listed without their id",
    because: { "environments.list.ids": "ids" },
    routes: ["E2"],
    respond: ({ body }) => {
      const strip = (list: unknown) => (Array.isArray(list) ? list.map(({ id: _id, ...e }: any) => e) : list);
      return { ...body, items: strip(body.items), data: strip(body.data) };
    },
  },
  {
    name: "environments-type-filter-ignored",
    breaks: "E2 (query type)",
    description: "type=T lists environments of every type",
    because: { "environments.filter.only-that-type": "only-type" },
    behaviour: { environmentMatchesType: () => true },
  },
  {
    name: "environments-type-filter-drops-last",
    breaks: "E2 (query type)",
    description: "a type-filtered list loses its last environment",
    because: { "environments.filter.all-of-that-type": "all-of-type" },
    routes: ["E2"],
    respond: ({ body, req }) => (req.query.has("type") ? { ...body, items: body.items.slice(0, -1), data: body.data.slice(0, -1) } : body),
  },
  {
    name: "environments-type-filter-items-only",
    breaks: "E2 (query type); Versioning 2 (deprecated fields kept)",
    description: "type=T filters items, while the deprecated data and its pagination come from the unfiltered list",
    because: { "environments.legacy.consistent": "data-copy", "environments.filter.only-that-type": "only-type" },
    routes: ["E2"],
    handle: legacyFromUnfiltered(() => true, ["data", "pagination"]),
  },
  {
    name: "environments-type-filter-lost-on-offset-pages",
    breaks: "E2 (query type)",
    description:
      "type=T filters items, and the deprecated data as well when it is not paged; with offset or limit in the query, data is sliced from the unfiltered list",
    because: { "environments.filter.only-that-type": "only-type" },
    routes: ["E2"],
    handle: legacyFromUnfiltered((q) => q.has("offset") || q.has("limit"), ["data"]),
  },
  {
    name: "page-two-of-size-2-starts-late",
    breaks: "Pagination styles 2",
    description: "the second page of size 2 starts one item late: one item is skipped and the next page repeats one (every list that slices)",
    because: { "environments.cursor.complete": "repeated", "env-vars.cursor.complete": "repeated" },
    behaviour: {
      pageSlice: (list, start, count) => (count === 2 && start === 2 ? list.slice(start + 1, start + 1 + count) : list.slice(start, start + count)),
    },
  },
  {
    name: "environments-end-cursor-repeats",
    breaks: "E2; Pagination styles 2",
    description: "a page after the first answers the cursor it was asked with as its endCursor, so a walk never ends",
    because: { "environments.cursor.complete": "walk:repeated-cursor" },
    routes: ["E2"],
    respond: ({ body, req }) => (req.query.has("after") ? { ...body, pageInfo: { ...body.pageInfo, endCursor: req.query.get("after") } } : body),
  },
  {
    name: "environments-has-next-stuck",
    breaks: "Resources / PageInfo",
    description: "hasNextPage is true on every page, the last one too",
    because: { "environments.cursor.page-info": "walk:no-cursor", "environments.cursor.page-info-exact": "walk:no-cursor" },
    routes: ["E2"],
    respond: ({ body }) => ({ ...body, pageInfo: { ...body.pageInfo, hasNextPage: true } }),
  },
  {
    name: "environments-trailing-empty-page",
    breaks: "Resources / PageInfo (hasNextPage false on the last page: SHOULD)",
    description: "a full last page still says hasNextPage: true, and an empty page follows (the variant trailing-empty-page, a SHOULD finding)",
    because: { "environments.cursor.page-info-exact": "last-page" },
    routes: ["E2"],
    respond: ({ body, req }) => trailingEmptyPage(body, req),
  },
  {
    name: "environments-one-full-page-has-next",
    breaks: "Resources / PageInfo (hasNextPage false on the last page: SHOULD)",
    description:
      "a first page that holds every environment, exactly full, still says hasNextPage: true (an empty page follows); pages of a walk in several are right",
    because: { "environments.cursor.page-info-exact": "last-page" },
    routes: ["E2"],
    respond: ({ body, req }) => (req.query.has("after") ? body : trailingEmptyPage(body, req)),
  },
  {
    name: "environments-has-next-early",
    breaks: "Resources / PageInfo; Pagination styles 2",
    description: "hasNextPage is false on every page after the first, while environments remain",
    because: { "environments.cursor.complete": "missing", "environments.cursor.page-info": "has-next-page" },
    routes: ["E2"],
    respond: ({ body, req }) => (req.query.has("after") ? { ...body, pageInfo: { ...body.pageInfo, hasNextPage: false } } : body),
  },
  {
    name: "environments-first-ignored",
    breaks: "E2; Pagination styles 2",
    description: "the cursor page is served from the legacy offset window, whatever first asks for",
    because: { "environments.cursor.first-caps-page": "first-caps" },
    routes: ["E2"],
    respond: ({ body, req }) =>
      req.query.has("first") ? { ...body, items: body.data, pageInfo: { ...body.pageInfo, hasNextPage: false, endCursor: null } } : body,
  },
  {
    name: "environments-total-counts-page",
    breaks: "E2; Pagination styles 1",
    description: "pagination.total counts the legacy page, not the whole list",
    because: { "environments.legacy.consistent": "total" },
    routes: ["E2"],
    respond: ({ body }) => (body.pagination ? { ...body, pagination: { ...body.pagination, total: body.data.length } } : body),
  },
  {
    name: "staging-environment-reported-as-development",
    breaks: "E2; States (always-on staging)",
    description: "the environment of an always-on staging branch is listed with type development",
    because: { "environments.staging.listed": "staging-listed" },
    behaviour: { environmentsOf: (dep) => cleanBehaviour.environmentsOf(dep).map((e) => (e.type === "staging" ? { ...e, type: "development" as const } : e)) },
  },
  // Every value of E2's type enum, each broken alone: the filter check must judge each one.
  ...(["production", "staging", "development"] as const).map(
    (type): Fault => ({
      name: `environments-type-${type}-filter-ignored`,
      breaks: "E2 (query type)",
      description: `type=${type} lists environments of every type (the other two values filter)`,
      because: { "environments.filter.only-that-type": "only-type" },
      behaviour: { environmentMatchesType: (env, asked) => asked === type || cleanBehaviour.environmentMatchesType(env, asked) },
    }),
  ),
  {
    name: "environments-negative-offset-accepted",
    breaks: "E2 (two parameters with minimum 0: offset, limit in the served document)",
    description: "the environments list reads offset=-1 as no offset: 200 with the first page",
    because: { "environments.list.bounds-below-minimum-rejected": "client-error" },
    operations: ["listEnvironments"],
    handle: ({ req, next }) => {
      if (Number(req.query.get("offset")) < 0) req.query.delete("offset");
      return next();
    },
  },
];

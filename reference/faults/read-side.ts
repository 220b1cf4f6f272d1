import { cleanBehaviour } from "../behaviour.js";
import type { Fault } from "../http.js";
import { trailingEmptyPage, withoutOffsets } from "../shape-variants.js";
import { MASK } from "../../core/api/operations.js";
import { authenticationFaults } from "./authentication.js";
import { specDocumentFaults } from "./spec-document.js";

/** Faults of the read-side lists: E1, E2, E5, E13. */
const listFaults: Fault[] = [
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
    name: "deployments-limit-ignored",
    breaks: "E1; Pagination styles 1",
    description: "the deployments list returns every deployment whatever the limit",
    because: { "deployments.list.limit-honoured": "limit-caps" },
    routes: ["E1"],
    respond: ({ body, app }) => ({
      ...body,
      data: { deployments: app.store.deployments.map((d) => ({ id: String(d.id), name: d.name, created_at: d.created_at })) },
    }),
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

  // E5: versions.
  {
    name: "versions-flag-renamed",
    breaks: "Resources / Deployment version entry",
    description: "entries carry `current` instead of isCurrent",
    because: { "versions.list.schema": "schema:VersionsListResponse" },
    routes: ["E5"],
    respond: ({ body }) => ({ data: body.data.map(({ isCurrent, ...v }: any) => ({ ...v, current: isCurrent })) }),
  },
  {
    name: "versions-two-current",
    breaks: "E5; Resources / Deployment version entry",
    description: "a second version is marked isCurrent",
    because: { "versions.current.at-most-one": "one-current" },
    routes: ["E5"],
    respond: ({ body }) => {
      const other = body.data.findIndex((v: any) => !v.isCurrent);
      return { data: body.data.map((v: any, i: number) => (i === other ? { ...v, isCurrent: true } : v)) };
    },
  },
  {
    name: "versions-none-current",
    breaks: "E5",
    description: "no version is marked isCurrent",
    because: { "versions.current.listed": "current-listed" },
    routes: ["E5"],
    respond: ({ body }) => ({ data: body.data.map((v: any) => ({ ...v, isCurrent: false })) }),
  },
  {
    name: "versions-every-entry-latest-in-channel",
    breaks: "Resources / Deployment version entry (isLatestInChannel)",
    description: "every version of the first entry's channel is marked latest",
    because: { "versions.latest.at-most-one-per-channel": "one-latest" },
    routes: ["E5"],
    respond: ({ body }) => ({ data: body.data.map((v: any) => (v.releaseChannel === body.data[0].releaseChannel ? { ...v, isLatestInChannel: true } : v)) }),
  },
  {
    name: "versions-channel-without-latest",
    breaks: "E5 (head of each channel)",
    description: "no version of the first entry's channel is marked latest",
    because: { "versions.latest.one-per-channel": "latest-marked" },
    routes: ["E5"],
    respond: ({ body }) => ({ data: body.data.map((v: any) => (v.releaseChannel === body.data[0].releaseChannel ? { ...v, isLatestInChannel: false } : v)) }),
  },
  {
    name: "versions-reference-names-current",
    breaks: "Resources / Deployment version entry (releaseChannelVersion)",
    description: "every entry's releaseChannelVersion is the image of the current version",
    because: { "versions.reference.names-version": "names-version" },
    routes: ["E5"],
    respond: ({ body }) => {
      const current = body.data.find((v: any) => v.isCurrent)?.releaseChannelVersion;
      return { data: body.data.map((v: any) => ({ ...v, releaseChannelVersion: current })) };
    },
  },

  // E13: environment variables.
  {
    name: "env-vars-secret-values-null",
    breaks: "E13; Resources / Environment variable",
    description: "secret-named variables read null instead of [ENCRYPTED]",
    because: { "env-vars.list.schema": "schema:EnvVarsListResponse", "env-vars.mask.every-answer": "secret-unmasked" },
    routes: ["E13"],
    respond: ({ body }) => {
      const nulled = (list: any[]) => list.map((v) => (v.value === MASK ? { ...v, value: null } : v));
      return { ...body, items: nulled(body.items), data: nulled(body.data) };
    },
  },
  {
    name: "env-vars-credential-unmasked",
    breaks: "Resources / Environment variable",
    description: "names containing CREDENTIAL are not treated as secret",
    feeds: ["env-vars.cursor.complete"],
    because: { "env-vars.mask.every-answer": "secret-unmasked" },
    behaviour: { isSecretName: (name) => /PASS|SECRET|TOKEN|KEY/i.test(name) },
  },
  {
    name: "env-vars-mask-case-sensitive",
    breaks: "Resources / Environment variable",
    description: "markers are matched in upper case only: webhook_secret reads its value",
    because: { "env-vars.mask.any-case": "masking" },
    behaviour: { isSecretName: (name) => /PASS|SECRET|TOKEN|KEY|CREDENTIAL/.test(name) },
  },
  {
    name: "env-vars-everything-masked",
    breaks: "Resources / Environment variable",
    description: "every value reads [ENCRYPTED], plain ones too",
    because: { "env-vars.mask.plain-unmasked": "masking" },
    behaviour: { isSecretName: () => true },
  },
  {
    name: "env-vars-data-unmasked",
    breaks: "E13 (data is a copy of items); Resources / Environment variable",
    description: "the deprecated data copy carries the stored values, secrets unmasked",
    because: { "env-vars.mask.every-answer": "secret-unmasked", "env-vars.legacy.data-matches-items": "data-copy" },
    routes: ["E13"],
    respond: ({ body, req, app }) => {
      const stored = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId)?.envVars ?? [];
      return { ...body, data: body.items.map((v: any) => ({ ...v, value: stored.find((s) => s.name === v.name)?.value ?? v.value })) };
    },
  },
];

/** Every value of E2's type enum, each broken alone: the filter check must judge each one. */
const environmentTypeFaults: Fault[] = (["production", "staging", "development"] as const).map(
  (type): Fault => ({
    name: `environments-type-${type}-filter-ignored`,
    breaks: "E2 (query type)",
    description: `type=${type} lists environments of every type (the other two values filter)`,
    because: { "environments.filter.only-that-type": "only-type" },
    behaviour: { environmentMatchesType: (env, asked) => asked === type || cleanBehaviour.environmentMatchesType(env, asked) },
  }),
);

/** Faults of the read-side endpoints (E1, E2, E5, E8, E9, E13, spec, authentication). */
export const readSideFaults: Fault[] = [...listFaults, ...specDocumentFaults, ...authenticationFaults, ...environmentTypeFaults];

import type { Fault } from "../faults.js";

/** Faults of the read-side endpoints (E1, E2, E5, E8, E9, E13, spec, authentication). */
export const readSideFaults: Fault[] = [
  {
    name: "deployments-created-at-missing",
    breaks: "E1",
    description: "deployment list items lack created_at",
    catches: ["deployments.list.schema"],
    routes: ["E1"],
    respond: ({ body }) => ({ ...body, data: { deployments: body.data.deployments.map(({ created_at, ...d }: any) => d) } }),
  },
  {
    name: "offset-default-limit-10",
    breaks: "Limits (default page size 20)",
    description: "offset lists default to 10 items a page",
    catches: ["deployments.list.defaults"],
    behaviour: { offsetDefaults: () => ({ offset: 0, limit: 10 }) },
  },
  {
    name: "deployments-limit-ignored",
    breaks: "E1; Pagination styles 1",
    description: "the deployments list returns every deployment whatever the limit",
    catches: ["deployments.list.limit-honoured", "deployments.list.total-consistent"],
    routes: ["E1"],
    respond: ({ body, app }) => ({ ...body, data: { deployments: app.store.deployments.map((d) => ({ id: String(d.id), name: d.name, created_at: d.created_at })) } }),
  },
  {
    name: "deployments-total-off-by-one",
    breaks: "E1; Pagination styles 1",
    description: "pagination.total counts one deployment too many",
    catches: ["deployments.list.total-consistent"],
    routes: ["E1"],
    respond: ({ body }) => ({ ...body, pagination: { ...body.pagination, total: body.pagination.total + 1 } }),
  },
  {
    name: "offset-past-end-wraps",
    breaks: "Pagination styles 1",
    description: "a page that starts past the end wraps around to the first items",
    catches: ["deployments.list.offset-past-end"],
    behaviour: { pageSlice: (list, start, count) => (start >= list.length ? list.slice(0, count) : list.slice(start, start + count)) },
  },
  {
    name: "minimums-not-enforced",
    breaks: "Pagination styles 1 and 2 (minimums)",
    description: "limit, offset and first below their minimums are accepted instead of rejected",
    catches: ["deployments.list.limit-zero-rejected", "deployments.list.negative-offset-rejected"],
    behaviour: { belowMinimum: () => false },
  },
];

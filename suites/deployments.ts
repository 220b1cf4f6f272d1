import { group } from "../core/check.js";
import { walkOffset } from "../core/pagination.js";

const LIST = "/api/v1/deployments";
const deploymentsOf = (body: any) => body?.data?.deployments;

export const deploymentChecks = group("deployments", [
  {
    id: "deployments.list.schema",
    spec: "E1",
    level: "MUST",
    title: "The deployments list answers 200 with data.deployments (id, name, created_at) and pagination",
    async run({ api, expect }) {
      expect.ok(await api.get(LIST), "DeploymentsListResponse");
    },
  },
  {
    id: "deployments.list.defaults",
    spec: "Limits; Pagination styles 1",
    level: "MUST",
    title: "Without offset and limit, the list starts at offset 0 with a page size of 20",
    async run({ api, expect }) {
      const res = await api.get(LIST);
      const body = expect.ok(res, "DeploymentsListResponse");
      expect.equal(body.pagination.offset, 0, "pagination.offset defaults to 0", res);
      expect.equal(body.pagination.limit, 20, "pagination.limit defaults to 20", res);
      expect.that(deploymentsOf(body).length <= 20, "a default page holds at most 20 deployments", { expected: "<= 20", got: deploymentsOf(body).length, res });
    },
  },
  {
    id: "deployments.list.limit-honoured",
    spec: "E1; Pagination styles 1",
    level: "MUST",
    title: "limit caps the page and is echoed in pagination.limit",
    async run({ api, expect }) {
      const res = await api.get(LIST, { limit: 1 });
      const body = expect.ok(res, "DeploymentsListResponse");
      expect.that(deploymentsOf(body).length <= 1, "limit=1 returns at most one deployment", { expected: "<= 1 item", got: deploymentsOf(body).length, res });
      expect.equal(body.pagination.limit, 1, "pagination.limit echoes the limit sent", res);
    },
  },
  {
    id: "deployments.list.total-consistent",
    spec: "E1; Pagination styles 1",
    level: "MUST",
    title: "Walking the list page by page yields pagination.total distinct deployments, with the same total on every page",
    async run({ api, expect }) {
      // One deployment a page, unless that walk would outrun the run's page budget (--max-pages):
      // on a tenant with very many, pages as small as the budget allows still walk the whole list.
      const total = (await api.get(LIST, { limit: 1 })).body?.pagination?.total;
      const limit = typeof total === "number" && total >= api.pageBudget ? Math.ceil(total / (api.pageBudget - 1)) : 1;
      const walk = await walkOffset(api, LIST, limit, deploymentsOf);
      const totals = walk.pages.map((p) => p.body?.pagination?.total);
      expect.that(new Set(totals).size === 1, "pagination.total is the same on every page", { expected: "one total", got: totals, res: walk.pages.at(-1) });
      const ids = walk.items.map((d: any) => d?.id);
      expect.equal(new Set(ids).size, ids.length, "no deployment appears on two pages", walk.pages.at(-1));
      expect.equal(ids.length, totals[0], "the walk yields pagination.total deployments", walk.pages.at(-1));
    },
  },
  {
    id: "deployments.list.offset-past-end",
    spec: "E1; Pagination styles 1",
    level: "MUST",
    title: "An offset at or past the total gives an empty page",
    async run({ api, expect }) {
      const first = expect.ok(await api.get(LIST), "DeploymentsListResponse");
      const res = await api.get(LIST, { offset: first.pagination.total, limit: 5 });
      const body = expect.ok(res, "DeploymentsListResponse");
      expect.equal(deploymentsOf(body).length, 0, `offset=${first.pagination.total} (the total) returns no deployments`, res);
    },
  },
  {
    id: "deployments.list.limit-zero-rejected",
    spec: "Pagination styles 1 (limit minimum 1)",
    level: "SHOULD",
    title: "limit=0, below the minimum of 1, is rejected with a 4xx",
    async run({ api, expect }) {
      expect.clientError(await api.get(LIST, { limit: 0 }));
    },
  },
  {
    id: "deployments.list.negative-offset-rejected",
    spec: "Pagination styles 1 (offset minimum 0)",
    level: "SHOULD",
    title: "offset=-1, below the minimum of 0, is rejected with a 4xx",
    async run({ api, expect }) {
      expect.clientError(await api.get(LIST, { offset: -1 }));
    },
  },
]);

import { group } from "../../core/check/check.js";
import { DEPLOYMENTS_PATH as LIST, deploymentsOf as listed } from "../../core/transport/deployments.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkOffset } from "../../core/transport/pagination.js";
import { parseTimestamp } from "../../core/api/timestamps.js";

/** The deployments of a page whose schema was checked: either documented shape has them. */
const deploymentsOf = (body: any): any[] => listed(body) ?? [];

/** The offset pagination of a page; the published document's shape may leave it out. */
function paginationOf(body: any, res: Response): { offset: number; limit: number; total: number } {
  if (!body?.pagination)
    throw new NotExercised(
      `the deployments list answered without pagination (${res.exchange.method} ${res.exchange.url}): there are no offset fields to check`,
    );
  return body.pagination;
}

export const deploymentChecks = group("deployments", [
  {
    id: "deployments.list.schema",
    spec: "E1",
    level: "MUST",
    title: "The deployments list answers 200 with data.deployments (id, name, created_at) and pagination, or in the published document's shape",
    async run({ api, expect }) {
      expect.ok(await api.get(LIST), "DeploymentsListResponse");
    },
  },
  {
    id: "deployments.list.spec-shape",
    spec: "E1 (Response 200: data.deployments and pagination)",
    // SHOULD: the platform's published document shows data as an array (with items); the spec's
    // shape is data.deployments. Both are read everywhere; the published one is a finding, not a failure.
    level: "SHOULD",
    title: "The deployments list answers in the spec's shape, data.deployments with pagination, not the published document's (data as an array, items)",
    async run({ api, expect }) {
      const res = await api.get(LIST);
      const body = expect.ok(res, "DeploymentsListResponse");
      const spec = Array.isArray(body?.data?.deployments) && typeof body?.pagination === "object" && body.pagination !== null;
      expect.that(spec, "answers the published shape; the spec's is data.deployments + pagination", {
        expected: "{data: {deployments: [...]}, pagination: {...}}",
        got: `data ${Array.isArray(body?.data) ? "an array" : typeof body?.data}${"items" in (body ?? {}) ? ", items" : ""}, pagination ${body?.pagination === undefined ? "absent" : typeof body.pagination}`,
        res,
        reason: "published-shape",
      });
    },
  },
  {
    id: "deployments.list.created-at-offset",
    spec: "Resources / Deployment (created_at: ISO 8601 date-time)",
    level: "SHOULD",
    title: "created_at is a date-time that names its UTC offset (Z or ±hh:mm): one instant wherever it is read",
    async run({ api, expect }) {
      const res = await api.get(LIST);
      const times = deploymentsOf(expect.ok(res, "DeploymentsListResponse"))
        .map((d) => d?.created_at)
        .filter((t): t is string => typeof t === "string");
      if (!times.length) throw new NotExercised("no deployment of the first page carries created_at (the published document's shape leaves it out)");
      const naive = times.filter((t) => !parseTimestamp(t)?.hasOffset);
      expect.that(naive.length === 0, "every created_at names its UTC offset", {
        reason: "utc-offset",
        expected: "a date-time with Z or ±hh:mm, e.g. 2024-01-15T10:30:00Z",
        got: naive.slice(0, 3),
        res,
      });
    },
  },
  {
    id: "deployments.list.defaults",
    spec: "Limits; Pagination styles 1",
    level: "MUST",
    title:
      "Each parameter left out takes its default, whatever the other: without offset and limit, with offset 0 alone, and with a limit alone, the list starts at offset 0 and pages by 20",
    async run({ api, expect }) {
      // A default is the parameter's own: a server may give limit one default when offset is sent and another when it is not.
      for (const query of [{}, { offset: 0 }, { limit: 5 }] as Record<string, number>[]) {
        const sent = Object.keys(query).length ? `with only ${Object.entries(query).map(([k, v]) => `${k}=${v}`)}` : "without offset and limit";
        const res = await api.get(LIST, query);
        const body = expect.ok(res, "DeploymentsListResponse");
        if (query.offset === undefined)
          expect.equal(paginationOf(body, res).offset, 0, `pagination.offset defaults to 0 (${sent})`, { res: res, reason: "default-offset" });
        if (query.limit !== undefined) continue;
        expect.equal(body.pagination.limit, 20, `pagination.limit defaults to 20 (${sent})`, { res, reason: "default-limit" });
        expect.that(deploymentsOf(body).length <= 20, `a default page holds at most 20 deployments (${sent})`, {
          expected: "<= 20",
          got: deploymentsOf(body).length,
          res,
          reason: "default-page-size",
        });
      }
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
      expect.that(deploymentsOf(body).length <= 1, "limit=1 returns at most one deployment", {
        reason: "limit-caps",
        expected: "<= 1 item",
        got: deploymentsOf(body).length,
        res,
      });
      expect.equal(paginationOf(body, res).limit, 1, "pagination.limit echoes the limit sent", { res: res, reason: "limit-echoed" });
    },
  },
  {
    id: "deployments.list.total-consistent",
    spec: "E1 (Lists deployments accessible to the caller); Pagination styles 1",
    level: "MUST",
    title: "Walking the list page by page yields pagination.total distinct deployments, with the same total on every page, for every key",
    async run(ctx) {
      // Every key the run has: what a key may access differs, and so does its total (a scoped key's most of all).
      const keys = [{ who: "the main key", api: ctx.api }, ...ctx.callers().map(({ role, api }) => ({ who: `tokens.${role}`, api }))];
      let walked = 0;
      for (const { who, api } of keys) {
        // One deployment a page, unless that walk would outrun the run's page budget (--max-pages):
        // on a tenant with very many, pages as small as the budget allows still walk the whole list.
        const first = await api.get(LIST, { limit: 1 });
        // A key E1 refuses (a deactivated user, a role below the list) has no total to judge.
        if (first.status !== 200 || !first.isJson) continue;
        const total = first.body?.pagination?.total;
        const limit = typeof total === "number" && total >= api.pageBudget ? Math.ceil(total / (api.pageBudget - 1)) : 1;
        const walk = await walkOffset(api, LIST, limit, listed);
        paginationOf(walk.pages[0].body, walk.pages[0]);
        walked++;
        const totals = walk.pages.map((p) => p.body?.pagination?.total);
        ctx.expect.that(new Set(totals).size === 1, `${who}: pagination.total is the same on every page`, {
          expected: "one total",
          got: totals,
          res: walk.pages.at(-1),
          reason: "total",
        });
        const ids = walk.items.map((d: any) => d?.id);
        ctx.expect.equal(new Set(ids).size, ids.length, `${who}: no deployment appears on two pages`, {
          res: walk.pages.at(-1),
          reason: "listed-once-per-walk",
        });
        ctx.expect.equal(ids.length, totals[0], `${who}: the walk yields pagination.total deployments`, { res: walk.pages.at(-1), reason: "total" });
      }
      if (!walked) throw new NotExercised("no key the run has was answered E1's list with 200 and JSON");
    },
  },
  {
    id: "deployments.list.offset-past-end",
    spec: "E1; Pagination styles 1",
    level: "MUST",
    title: "An offset at or past the total gives an empty page",
    async run({ api, expect }) {
      const head = await api.get(LIST);
      const { total } = paginationOf(expect.ok(head, "DeploymentsListResponse"), head);
      const res = await api.get(LIST, { offset: total, limit: 5 });
      const body = expect.ok(res, "DeploymentsListResponse");
      expect.equal(deploymentsOf(body).length, 0, `offset=${total} (the total) returns no deployments`, { res, reason: "past-end-empty" });
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

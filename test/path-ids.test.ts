import { describe, expect, it } from "vitest";
import { Schemas } from "../core/api/schemas.js";
import { selectChecks } from "../core/run/select.js";
import { runChecks } from "../core/run/runner.js";
import { catalogue } from "../suites/index.js";
import { refusingProxy } from "./refusing-proxy.js";
import type { Api } from "../core/transport/api.js";
import type { Operation } from "../core/served/served-document.js";
import { runPrefixOf } from "../core/model/names.js";
import { PathIds } from "../suites/lib/path-ids.js";

/**
 * Ids for a document's path placeholders (suites/lib/path-ids.ts), from lists that other checks of
 * the run change while they are read. Found by the seed sweep: the reference listing newest first
 * (variant newest-first, seeds 5 and 65537), the workbooks list began with a hundred scratch
 * workbooks of a bulk-move check, removed at once while documented.reads.match-document walked it
 * by cursor; the walk ended empty, the read took a removed workbook, and its 404 was a false alarm.
 */
const SEED = 5;
const OWN = runPrefixOf(SEED);
const LIST = "/api/v1/deployments/{deploymentId}/workbooks";
const ONE = `${LIST}/{workbookId}`;
const ops = [
  { method: "GET", path: LIST, parameters: [{ in: "query", name: "after" }] },
  { method: "GET", path: ONE, parameters: [] },
] as unknown as Operation[];

/** A list by position (the cursor is the index of the next record), ten a page, newest first. */
function listing(records: () => { id: number; name: string }[], afterEachPage: (page: number) => void = () => {}) {
  let pages = 0;
  const api = {
    async get(_path: string, query: Record<string, string> = {}) {
      const from = Number(query.after ?? 0);
      const all = records();
      const items = all.slice(from, from + 10);
      afterEachPage(++pages);
      const hasNextPage = from + 10 < all.length;
      return { status: 200, isJson: true, body: { items, pageInfo: { hasNextPage, endCursor: hasNextPage ? String(from + 10) : null } } };
    },
  };
  return api as unknown as Api;
}

/** Ids over a list, the deployment under test "1", as the run of SEED takes them. */
const idsOver = (api: Api) => new PathIds(api, ops, "1", OWN);

const tenants = [{ id: 1, name: "Revenue review" }];
const scratch = Array.from({ length: 30 }, (_, i) => ({ id: 100 + i, name: `${OWN}workbook-${i}` }));

describe("ids for path placeholders while other checks change the lists", () => {
  it("a walk that met only the run's own objects, removed under it, reads the list again and takes the tenant's", async () => {
    let records = [...scratch].reverse().concat(tenants);
    // The run's scratch workbooks are removed after the first page: the cursor (position 10) now skips past the tenant's.
    const ids = idsOver(
      listing(
        () => records,
        (page) => {
          if (page === 1) records = [...tenants];
        },
      ),
    );
    const path = await ids.fill(ONE);
    expect(path).toBe("/api/v1/deployments/1/workbooks/1");
    expect(ids.namesRunOwn(path!)).toBe(false);
  });

  it("where only the run's own objects are listed, takes one and says so: a 404 to it may be another check's removal", async () => {
    const ids = idsOver(listing(() => scratch.slice(0, 3)));
    const path = await ids.fill(ONE);
    expect(path).toBe("/api/v1/deployments/1/workbooks/100");
    expect(ids.namesRunOwn(path!)).toBe(true);
    expect(ids.namesRunOwn("/api/v1/deployments/1/workbooks/1")).toBe(false);
  });

  it("documented.reads.match-document does not judge a 404 to an object of the run's own that another check removed", async () => {
    // The reference behind a proxy whose workbooks list shows only a workbook named as this run's
    // (seed 42), already gone: reading it by id is answered 404.
    const own = runPrefixOf(42);
    let readsOfTheRemoved = 0;
    const proxy = await refusingProxy(
      (req, url) => {
        if (req.method === "GET" && /\/workbooks\/999999(\/|$)/.test(url.pathname)) readsOfTheRemoved++;
        return undefined;
      },
      { seed: 42 },
      {
        answer: (req, url, body) => {
          if (req.method !== "GET" || !/^\/api\/v1\/deployments\/[^/]+\/workbooks\/?$/.test(url.pathname)) return body;
          const list = JSON.parse(body.toString("utf8"));
          const gone = { ...list.items[0], id: 999_999, name: `${own}removed-meanwhile` };
          return Buffer.from(JSON.stringify({ ...list, items: [gone], pageInfo: { ...list.pageInfo, hasNextPage: false, endCursor: null } }));
        },
      },
    );
    try {
      const { results } = await runChecks(selectChecks(catalogue, undefined, ["documented.reads.match-document"]), proxy.settings, await Schemas.load());
      const [r] = results;
      expect(readsOfTheRemoved, "the check read the removed workbook").toBeGreaterThan(0);
      expect([r.status, r.message]).toEqual(["passed", ""]);
    } finally {
      await proxy.close();
    }
  });
});

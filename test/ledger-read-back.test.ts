import { describe, expect, it } from "vitest";
import type { Api } from "../core/transport/api.js";
import { type ItemRef, listAll, seenItems, workspacePaths } from "../core/ledger/ownership.js";

const PREFIX = "cf-1-abcdef";
const DEP = "1";

/**
 * A tenant whose E8 list holds `others` workbooks not the run's (pages of 100), then `listedOwn` of
 * the run's; E9 reads any of the run's ids as its own. Counts the list pages and the reads asked.
 */
function tenant(others: number, listedOwn: number[]) {
  const asked = { pages: 0, reads: 0 };
  const all = [
    ...Array.from({ length: others }, (_, i) => ({ id: 10_000 + i, name: `Revenue ${i}` })),
    ...listedOwn.map((id) => ({ id, name: `${PREFIX}-wb-${id}` })),
  ];
  const api = {
    get: async (path: string, query: Record<string, unknown> = {}) => {
      if (path === workspacePaths.workbooks(DEP)) {
        asked.pages++;
        const from = Number(query.after ?? 0);
        const size = Number(query.first ?? 20);
        const more = from + size < all.length;
        return {
          status: 200,
          isJson: true,
          headers: {},
          text: "",
          body: { items: all.slice(from, from + size), pageInfo: { hasNextPage: more, endCursor: more ? String(from + size) : null } },
        };
      }
      asked.reads++;
      const id = Number(path.split("/").at(-1));
      return { status: 200, isJson: true, headers: {}, text: "", body: { id, name: `${PREFIX}-wb-${id}`, deploymentId: 1 } };
    },
  } as unknown as Api;
  return { api, asked };
}

const workbooks = (n: number): ItemRef[] => Array.from({ length: n }, (_, i) => ({ type: "WORKBOOK", id: i + 1 }));

describe("the ledger's read-back of workbooks costs what it confirms, not the tenant's size (rule 8)", () => {
  it("a few workbooks are each read (E9), with no walk of a tenant's whole list", async () => {
    const { api, asked } = tenant(10_000, []);
    const items = workbooks(4);
    const seen = await seenItems(api, DEP, items, PREFIX);
    expect(items.map((i) => seen.get(i)?.own)).toEqual([true, true, true, true]);
    expect(asked).toEqual({ pages: 0, reads: 4 });
  });

  it("a bulk move's hundred: a walk of as many pages as the reads would take, then E9 for what it did not show", async () => {
    const { api, asked } = tenant(10_000, []);
    const items = workbooks(100);
    const seen = await seenItems(api, DEP, items, PREFIX);
    expect(items.every((i) => seen.get(i)?.own)).toBe(true);
    expect(asked).toEqual({ pages: 13, reads: 100 });
  });

  it("on a small tenant the walk shows them all: a page or two, no read", async () => {
    const items = workbooks(100);
    const { api, asked } = tenant(
      50,
      items.map((i) => i.id),
    );
    const seen = await seenItems(api, DEP, items, PREFIX);
    expect(items.every((i) => seen.get(i)?.own)).toBe(true);
    expect(asked).toEqual({ pages: 2, reads: 0 });
  });
});

describe("the ledger's walk of a list paged by offset (E1's deployments: offset, limit, pagination.total)", () => {
  /** A list of `n` entries, paged by offset: 20 a page unless asked for a limit, no cursor; `first` ignored. */
  function offsetList(n: number) {
    const asked: Record<string, unknown>[] = [];
    const api = {
      get: async (_path: string, query: Record<string, unknown> = {}) => {
        asked.push(query);
        const offset = Number(query.offset ?? 0);
        const limit = Number(query.limit ?? 20);
        const page = Array.from({ length: Math.max(0, Math.min(limit, n - offset)) }, (_, i) => ({ id: String(offset + i + 1) }));
        return { status: 200, isJson: true, headers: {}, text: "", body: { data: { deployments: page }, pagination: { offset, limit, total: n } } };
      },
    } as unknown as Api;
    return { api, asked };
  }

  it("reads on to the total, a hundred a page after the server's first: the newest of 1,003 is in it", async () => {
    const { api, asked } = offsetList(1_003);
    const all = await listAll(api, "/api/v1/deployments");
    expect(all).toHaveLength(1_003);
    expect(all.at(-1)).toEqual({ id: "1003" });
    expect(asked).toHaveLength(11);
    expect(asked[1]).toEqual({ offset: 20, limit: 100 });
  });

  it("a list that fits its first page costs one request", async () => {
    const { api, asked } = offsetList(3);
    expect(await listAll(api, "/api/v1/deployments")).toHaveLength(3);
    expect(asked).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import type { Api } from "../core/transport/api.js";
import { prefixedFolders } from "../core/ledger/ownership.js";

/** A folders list whose root holds a folder of id -1 (a server's "unfiled" pseudo-folder) and one of id 5. */
function fakeApi(asked: Record<string, unknown>[]): Api {
  const page = (items: unknown[]) => ({
    status: 200,
    isJson: true,
    headers: {},
    text: "",
    body: { items, pageInfo: { hasNextPage: false, hasPreviousPage: false } },
  });
  return {
    get: async (_path: string, query: Record<string, unknown> = {}) => {
      asked.push(query);
      return page(
        query.parentId === undefined
          ? [
              { id: -1, name: "Unfiled" },
              { id: 5, name: "other" },
            ]
          : [],
      );
    },
  } as unknown as Api;
}

describe("the sweep's reads obey the stated bounds (issue 28)", () => {
  it("lists the children of folders with ids of at least 0 only: no negative parentId is sent", async () => {
    const asked: Record<string, unknown>[] = [];
    await prefixedFolders(fakeApi(asked), "1", "cf-");
    const parents = asked.map((q) => q.parentId).filter((p) => p !== undefined);
    expect(parents).toEqual([5]);
  });
});

describe("a folder the run made inside one it was given is confirmed where it was made", () => {
  /** A tenant's tree: root folders 1..40 (none the run's), folder 7 holding the run's folder 99. */
  function tenantTree(asked: Record<string, unknown>[]): Api {
    const page = (items: unknown[]) => ({ status: 200, isJson: true, headers: {}, text: "", body: { items, pageInfo: { hasNextPage: false } } });
    return {
      get: async (_path: string, query: Record<string, unknown> = {}) => {
        asked.push(query);
        if (query.parentId === undefined) return page(Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `tenant ${i + 1}` })));
        return page(query.parentId === 7 ? [{ id: 99, name: "cf-run-folder", parentId: 7 }] : []);
      },
    } as unknown as Api;
  }

  it("lists the parent it names first and stops there; without it, the tenant's folders are walked until folder 7", async () => {
    const hinted: Record<string, unknown>[] = [];
    expect([...(await prefixedFolders(tenantTree(hinted), "1", "cf-", new Set([99]), 200, [7])).keys()]).toEqual([99]);
    expect(hinted.map((q) => q.parentId)).toEqual([7, undefined].slice(0, hinted.length));
    expect(hinted.length).toBeLessThanOrEqual(2);
    const walked: Record<string, unknown>[] = [];
    expect([...(await prefixedFolders(tenantTree(walked), "1", "cf-", new Set([99]))).keys()]).toEqual([99]);
    expect(walked.length).toBeGreaterThan(hinted.length);
  });
});

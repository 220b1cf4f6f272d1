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

import { describe, expect, it } from "vitest";
import type { Api } from "../core/api.js";
import { walkCursor, walkOffset } from "../core/pagination.js";

/**
 * Issue 20 §1: a walk adapts to what the server shows about page sizes (a 4xx above some size, a
 * clamp), and its page budget follows the list's length, not the size asked for.
 */
const LIST = Array.from({ length: 100 }, (_, i) => ({ id: i }));
const MAX = 25;
const CLAMP = 10;

/** A list server that refuses a page size above MAX with `refusal` and serves at most CLAMP items a page. */
function cappedServer(refusal = 422): Api & { sent: Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  const answer = (status: number, body: unknown) => ({ status, isJson: true, body, text: JSON.stringify(body), headers: {}, exchange: { method: "GET", url: "http://t/list", status } as any });
  return {
    sent,
    pageBudget: 1000,
    async get(_path: string, query: Record<string, any>) {
      sent.push(query);
      const size = Number(query.first ?? query.limit ?? 20);
      if (size > MAX) return answer(refusal, { error: `page size at most ${MAX}` });
      const start = query.after ? Number(query.after) : Number(query.offset ?? 0);
      const items = LIST.slice(start, start + Math.min(size, CLAMP));
      const end = start + items.length;
      return answer(200, { items, pageInfo: { hasNextPage: end < LIST.length, hasPreviousPage: start > 0, endCursor: String(end) }, data: items, pagination: { offset: start, limit: size, total: LIST.length } });
    },
  } as any;
}

describe("walks on a server that refuses large page sizes and clamps the rest", () => {
  for (const refusal of [400, 413, 422])
    it(`a cursor walk at first=80 (refused with ${refusal}) covers the list of 100 within its length-based budget`, async () => {
      const api = cappedServer(refusal);
      const walk = await walkCursor(api, "/list", { first: 80, listLength: LIST.length });
      expect(walk.items.map((x: any) => x.id)).toEqual(LIST.map((x) => x.id));
      expect(walk.first).toBeLessThanOrEqual(MAX);
    });

  it("an offset walk at limit=60 covers the list of 100 within its length-based budget", async () => {
    const walk = await walkOffset(cappedServer(), "/list", 60, (b) => b.data, { listLength: LIST.length });
    expect(walk.items.map((x: any) => x.id)).toEqual(LIST.map((x) => x.id));
  });

  it("a list that never ends still fails the walk, within the pages its length affords", async () => {
    const api = cappedServer();
    const endless = { ...api, get: async (p: string, q: any) => {
      const res: any = await api.get(p, q);
      if (res.status === 200) res.body = { ...res.body, pageInfo: { ...res.body.pageInfo, hasNextPage: true, endCursor: String(Number(q.after ?? 0) + 1) } };
      return res;
    } } as any;
    await expect(walkCursor(endless, "/list", { first: 5, listLength: 20 })).rejects.toMatchObject({ reason: "walk:endless" });
    expect(api.sent.length).toBeLessThanOrEqual(Math.ceil(20 / 5) + 2);
  });
});

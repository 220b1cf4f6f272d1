import { describe, expect, it } from "vitest";
import type { Api } from "../core/transport/api.js";
import { WALKS_BEFORE_ABSENCE, walkAgainUntil, walkCursor, walkOffset } from "../core/transport/pagination.js";

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
  const answer = (status: number, body: unknown) => ({
    status,
    isJson: true,
    body,
    text: JSON.stringify(body),
    headers: {},
    exchange: { method: "GET", url: "http://t/list", status } as any,
  });
  return {
    sent,
    pageBudget: 1000,
    takenPageSizes: new Map(),
    async get(_path: string, query: Record<string, any>) {
      sent.push(query);
      const size = Number(query.first ?? query.limit ?? 20);
      if (size > MAX) return answer(refusal, { error: `page size at most ${MAX}` });
      const start = query.after ? Number(query.after) : Number(query.offset ?? 0);
      const items = LIST.slice(start, start + Math.min(size, CLAMP));
      const end = start + items.length;
      return answer(200, {
        items,
        pageInfo: { hasNextPage: end < LIST.length, hasPreviousPage: start > 0, endCursor: String(end) },
        data: items,
        pagination: { offset: start, limit: size, total: LIST.length },
      });
    },
  } as any;
}

describe("walks on a server that refuses large page sizes and clamps the rest", () => {
  for (const refusal of [400, 413, 422])
    it(`a cursor walk at first=80 (refused with ${refusal}) covers the list of 100 within its length-based budget`, async () => {
      const api = cappedServer(refusal);
      const walk = await walkCursor<{ id: number }>(api, "/list", { first: 80, listLength: LIST.length });
      expect(walk.items.map((x) => x.id)).toEqual(LIST.map((x) => x.id));
      expect(walk.first).toBeLessThanOrEqual(MAX);
    });

  it("a later walk of the same list starts at the size the server took, not refused again", async () => {
    const api = cappedServer();
    await walkCursor(api, "/list", { first: 80 });
    const refusedBefore = api.sent.filter((q) => Number(q.first) > MAX).length;
    api.sent.length = 0;
    await walkCursor(api, "/list", { first: 80 });
    expect(refusedBefore).toBeGreaterThan(0);
    expect(api.sent.every((q) => Number(q.first) <= MAX)).toBe(true);
  });

  it("an offset walk at limit=60 covers the list of 100 within its length-based budget", async () => {
    const walk = await walkOffset(cappedServer(), "/list", 60, (b) => (b as { data?: { id: number }[] }).data, { listLength: LIST.length });
    expect(walk.items.map((x) => x.id)).toEqual(LIST.map((x) => x.id));
  });

  it("a list that never ends still fails the walk, within the pages its length affords", async () => {
    const api = cappedServer();
    const endless = {
      ...api,
      get: async (p: string, q: any) => {
        const res: any = await api.get(p, q);
        if (res.status === 200) res.body = { ...res.body, pageInfo: { ...res.body.pageInfo, hasNextPage: true, endCursor: String(Number(q.after ?? 0) + 1) } };
        return res;
      },
    } as any;
    await expect(walkCursor(endless, "/list", { first: 5, listLength: 20 })).rejects.toMatchObject({ reason: "walk:endless" });
    expect(api.sent.length).toBeLessThanOrEqual(Math.ceil(20 / 5) + 2);
  });
});

/**
 * A cursor that is a position (the spec leaves cursors opaque) skips an item when an item before
 * it is deleted between two pages, as the run's other checks do beside a check: the CI run of
 * 2026-11-24 read the run's own folder as missing from the root that way.
 */
describe("a search for one item on a list that changes beside the walk", () => {
  /** Folders 1-9, 3 a page by position; `deleting` (on the first walk only) drops folder 2 once page 1 is served. */
  function churningList(deleting: boolean) {
    let list = Array.from({ length: 9 }, (_, i) => ({ id: i + 1 }));
    let walks = 0;
    const answer = (body: unknown) => ({
      status: 200,
      isJson: true,
      body,
      text: JSON.stringify(body),
      headers: {},
      exchange: { method: "GET", url: "http://t/folders", status: 200 } as any,
    });
    const api = {
      pageBudget: 100,
      takenPageSizes: new Map(),
      async get(_path: string, query: Record<string, any>) {
        const start = query.after ? Number(query.after) : 0;
        if (start === 0) walks++;
        const items = list.slice(start, start + 3);
        if (deleting && walks === 1 && start === 0) list = list.filter((f) => f.id !== 2);
        const end = start + items.length;
        return answer({ items, pageInfo: { hasNextPage: end < list.length, endCursor: String(end) } });
      },
    } as any;
    return { api, walks: () => walks };
  }
  const holds = (id: number) => (walk: { items: any[] }) => walk.items.some((f) => f.id === id);

  it("one walk misses folder 4; the walk again finds it, so presence is not denied", async () => {
    const once = churningList(true);
    expect(holds(4)(await walkCursor(once.api, "/folders", { first: 3 }))).toBe(false);
    const again = churningList(true);
    const walk = await walkAgainUntil(() => walkCursor(again.api, "/folders", { first: 3 }), holds(4));
    expect(holds(4)(walk)).toBe(true);
    expect(again.walks()).toBe(2);
  });

  it(`an item no walk shows is absent after ${WALKS_BEFORE_ABSENCE} walks, and one that the first walk shows costs one`, async () => {
    const absent = churningList(false);
    expect(holds(42)(await walkAgainUntil(() => walkCursor(absent.api, "/folders", { first: 3 }), holds(42)))).toBe(false);
    expect(absent.walks()).toBe(WALKS_BEFORE_ABSENCE);
    const present = churningList(false);
    await walkAgainUntil(() => walkCursor(present.api, "/folders", { first: 3 }), holds(5));
    expect(present.walks()).toBe(1);
  });
});

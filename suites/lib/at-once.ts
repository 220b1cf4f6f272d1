/**
 * Requests that do not depend on each other, sent at once: at 40 ms a round trip, a check's time
 * is its longest chain of requests, not their count (issue 21, the budget). Whichever answers
 * first, the failure thrown is the first in the order given, as if they had gone one after
 * another: a verdict and its reason do not depend on which answer came back first.
 */
export async function atOnce<T extends readonly unknown[]>(tasks: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(tasks);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** Requests a check sends side by side when it has many that do not depend on each other: as many as the run's checks at once. */
export const REQUESTS_SIDE_BY_SIDE = 8;

/**
 * `send` for each item, REQUESTS_SIDE_BY_SIDE at a time: the answers in the items' order, and,
 * as atOnce, the first failure in that order.
 */
export async function sideBySide<T, R>(items: readonly T[], send: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += REQUESTS_SIDE_BY_SIDE)
    out.push(...(await atOnce(items.slice(i, i + REQUESTS_SIDE_BY_SIDE).map((item, j) => send(item, i + j)))));
  return out;
}

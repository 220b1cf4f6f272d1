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

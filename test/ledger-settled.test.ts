import { describe, expect, it } from "vitest";
import type { Api } from "../core/transport/api.js";
import { Scratch } from "../core/ledger/scratch.js";

/**
 * A server may give a freed id to the next object. What a check deleted itself and read gone is
 * settled in the ledger: at cleanup its id is not read again, so another check's object that now
 * holds it is neither removed nor reported as a leftover of this run.
 */
describe("an object the check removed itself", () => {
  const another = { status: 200, isJson: true, body: { id: 4, name: "cf-other-check-doc-1" } };
  const owned = (scratch: Scratch, removed: string[]) =>
    scratch.removeIfOwn({
      what: "DELETE /api/v1/deployments/4",
      read: async () => another,
      owns: () => false,
      remove: async () => void removed.push("4"),
      removal: "curl -X DELETE ...",
    });

  it("is settled: cleanup neither reads it again nor reports the object that now holds its id", async () => {
    const scratch = new Scratch("cf-test");
    const removed: string[] = [];
    owned(scratch, removed).removed();
    expect(scratch.pending).toBe(0);
    expect(await scratch.cleanup({} as Api)).toEqual([]);
    expect(removed).toEqual([]);
  });

  it("not settled, the same read is reported as not confirmed, and nothing is removed", async () => {
    const scratch = new Scratch("cf-test");
    const removed: string[] = [];
    owned(scratch, removed);
    const left = await scratch.cleanup({} as Api);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/not confirmed as this run's: DELETE \/api\/v1\/deployments\/4/);
    expect(removed).toEqual([]);
  });
});

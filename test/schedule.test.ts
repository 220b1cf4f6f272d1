import { describe, expect, it } from "vitest";
import type { Check } from "../core/check/check.js";
import type { Share } from "../core/model/needs.js";
import { conflict, runsApart, schedule, sharesOf } from "../core/run/schedule.js";
import { catalogue } from "../suites/index.js";

/**
 * The scheduler of --concurrency (core/run/schedule.ts): which shares keep two checks apart, and
 * that a run never overlaps two checks that conflict, while those that do not conflict overlap.
 */
describe("which shares keep two checks apart", () => {
  const cases: { a: Share[]; b: Share[]; apart: boolean }[] = [
    { a: [], b: [], apart: false },
    { a: ["exclusive"], b: [], apart: true },
    { a: ["exclusive"], b: ["exclusive"], apart: true },
    { a: ["exclusive:audit-log"], b: [], apart: true },
    { a: ["exclusive:audit-log"], b: ["read:workspace"], apart: true },
    { a: ["exclusive:audit-log"], b: ["exclusive:audit-log"], apart: false },
    { a: ["exclusive:audit-log"], b: ["exclusive:other"], apart: true },
    { a: ["exclusive:audit-log"], b: ["exclusive"], apart: true },
    { a: ["exclusive:audit-log", "write:x"], b: ["exclusive:audit-log", "read:x"], apart: true },
    { a: ["add:workspace"], b: ["add:workspace"], apart: false },
    { a: ["add:workspace"], b: ["read:workspace"], apart: true },
    { a: ["read:workspace"], b: ["read:workspace"], apart: false },
    { a: ["write:deployment"], b: ["write:deployment"], apart: true },
    { a: ["write:deployment"], b: ["add:workspace"], apart: false },
  ];
  for (const { a, b, apart } of cases)
    it(`${JSON.stringify(a)} and ${JSON.stringify(b)}: ${apart ? "apart" : "beside each other"}`, () => {
      expect(conflict(a, b)).toBe(apart);
      expect(conflict(b, a)).toBe(apart);
    });

  it("the audit log's checks run beside one another only, and first", () => {
    const audit = catalogue.filter((c) => c.group === "audit");
    expect(audit.length).toBeGreaterThan(1);
    for (const a of audit) {
      for (const b of audit) expect(conflict(sharesOf(a), sharesOf(b)), `${a.id} beside ${b.id}`).toBe(false);
      for (const other of catalogue.filter((c) => c.group !== "audit"))
        expect(conflict(sharesOf(a), sharesOf(other)), `${a.id} apart from ${other.id}`).toBe(true);
    }
    expect(catalogue.slice(0, audit.length).every((c) => runsApart(sharesOf(c)))).toBe(true);
  });
});

/** Checks that only wait, and the spans they ran in (in ticks of a fake clock: the order of starts and ends). */
function fakeRun(shares: Share[][]) {
  const checks = shares.map((s, i) => ({ id: `c${i}`, group: "g", needs: [], shares: s }) as unknown as Check);
  const spans: { start: number; end: number }[] = [];
  let tick = 0;
  const run = async (_: Check, i: number) => {
    const start = tick++;
    // Each check waits a few turns of the loop, so that whatever may overlap does.
    for (let k = 0; k < 5; k++) await new Promise((r) => setImmediate(r));
    spans[i] = { start, end: tick++ };
    return i;
  };
  return { checks, spans, run };
}

const overlap = (x: { start: number; end: number }, y: { start: number; end: number }) => x.start < y.end && y.start < x.end;

describe("a run never overlaps two checks that conflict, and overlaps those that do not", () => {
  it("exclusive checks run alone, those of one exclusive thing beside one another, and the rest beside each other", async () => {
    const shares: Share[][] = [
      ["exclusive:audit-log"],
      ["exclusive:audit-log"],
      ["exclusive"],
      ["add:workspace"],
      ["add:workspace"],
      ["read:workspace"],
      [],
      ["exclusive:audit-log"],
    ];
    const { checks, spans, run } = fakeRun(shares);
    const { done } = await schedule(checks, run, { concurrency: 8 });
    expect(done.size).toBe(shares.length);
    for (let i = 0; i < shares.length; i++)
      for (let j = i + 1; j < shares.length; j++)
        if (conflict(shares[i], shares[j])) expect(overlap(spans[i], spans[j]), `c${i} and c${j} overlap`).toBe(false);
    // What may overlap did: the first two of the audit log, the two adders, the reader beside the check that shares nothing.
    expect(overlap(spans[0], spans[1])).toBe(true);
    expect(overlap(spans[3], spans[4])).toBe(true);
    expect(overlap(spans[5], spans[6])).toBe(true);
    // A conflicting check keeps the catalogue's order: the last audit check after the exclusive one before it.
    expect(spans[7].start).toBeGreaterThan(spans[2].end);
  });
});

describe("what finished is told as it finishes, and the results in the catalogue's order", () => {
  it("a slow first check does not hold back the count of those that finished after it (issue 30, point 4)", async () => {
    const checks = [0, 1, 2].map((i) => ({ id: `c${i}`, group: "g", needs: [], shares: [] }) as unknown as Check);
    let releaseFirst = () => {};
    const firstHeld = new Promise<void>((r) => (releaseFirst = r));
    const finished: number[] = [];
    const reported: number[] = [];
    const run = async (_: Check, i: number) => {
      if (i === 0) await firstHeld;
      else for (let k = 0; k < 3; k++) await new Promise((r) => setImmediate(r));
      // The first is let go only once the other two were told finished: the count did not wait for it.
      if (i === 2) setImmediate(() => (expect(finished).toEqual([1, 2]), releaseFirst()));
      return i;
    };
    await schedule(checks, run, { concurrency: 3, onFinish: (i) => finished.push(i), onDone: (i) => reported.push(i) });
    expect(finished).toEqual([1, 2, 0]);
    expect(reported).toEqual([0, 1, 2]);
  });
});

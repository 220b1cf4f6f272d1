import { describe, expect, it } from "vitest";
import type { CheckResult } from "../core/run/result.js";
import { ConsoleReporter } from "../core/reporters/console.js";
import { buildReport } from "../core/run/report.js";
import { judged } from "../core/run/conformance.js";
import { NETWORK, NOT_RUN_LOST } from "../core/run/verdict.js";

const result = (id: string, status: CheckResult["status"], message = ""): CheckResult => ({
  id,
  group: id.split(".")[0],
  title: id,
  spec: "E1",
  level: "MUST",
  kind: "example",
  status,
  message,
  durationMs: 1,
});
const check = (id: string) => ({ id, group: id.split(".")[0] }) as never;

describe("progress without a terminal, and a server that went away", () => {
  it("a plain line as each group finishes, counting finished checks; nothing per pass", () => {
    const lines: string[] = [];
    const c = new ConsoleReporter((l) => lines.push(l), { gate: { strict: false } });
    c.start(1, "http://x", [check("a.one"), check("a.two"), check("b.one")]);
    for (const id of ["a.one", "b.one", "a.two"]) {
      c.starting(check(id));
      c.result(result(id, "passed"));
    }
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ {2}b done; 2\/3 checks done, \d+ s$/),
      expect.stringMatching(/^ {2}a done; 3\/3 checks done, \d+ s$/),
    ]);
  });

  it("one root line for the checks a dead server took with it; --verbose lists them", () => {
    const lost = [
      result("a.one", "errored", `${NETWORK}GET http://x/a: ECONNREFUSED`),
      ...Array.from({ length: 40 }, (_, i) => result(`b.n${i}`, "errored", `${NOT_RUN_LOST} (3 checks in a row lost it, then GET / answered nothing)`)),
    ];
    const report = judged(
      buildReport(
        { results: [result("z.ok", "passed"), ...lost], leftovers: [], interrupted: false, durationMs: 5, startedAt: "2026-01-01T00:00:00.000Z" },
        { name: "t", version: "0", baseUrl: "http://x", seed: 1, runs: 1, writes: false },
      ),
      { strict: false },
      {},
    );
    const quietLines: string[] = [];
    const c = new ConsoleReporter((l) => quietLines.push(l), { gate: { strict: false } });
    c.start(1, "http://x", 41);
    for (const r of lost) c.result(r);
    c.finish(report, report.gate.exitCode);
    expect(quietLines.filter((l) => /stopped answering/.test(l))).toEqual([
      "── the server stopped answering (3 checks in a row lost it, then GET / answered nothing): 1 checks lost it on the network, 40 not run (errored, no verdict; --verbose lists them)",
    ]);
    expect(quietLines.length).toBeLessThan(12);
    const verbose: string[] = [];
    new ConsoleReporter((l) => verbose.push(l), { gate: { strict: false }, verbose: true }).finish(report, report.gate.exitCode);
    expect(verbose.filter((l) => l.startsWith("── b.n")).length).toBe(40);
  });
});

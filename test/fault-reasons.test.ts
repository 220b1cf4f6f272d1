import { describe, expect, it } from "vitest";
import type { CheckResult } from "../core/result.js";
import { faults, type Fault } from "../reference/faults.js";
import { catalogue } from "../suites/index.js";
import { notAProof } from "./fault-proof.js";

/**
 * Fault proofs compare typed reasons (core/outcome.ts CheckFailure.reason), never text: a check
 * that fails another of its assertions, or none (its assertion deleted), proves nothing.
 */
const check = (id: string) => catalogue.find((c) => c.id === id)!;
const failed = (id: string, reason: string | undefined): CheckResult => ({ ...check(id), status: "failed", message: "m", durationMs: 0, reason }) as CheckResult;
const fault = (catches: string[], because?: Record<string, string>): Fault => ({ name: "f", breaks: "E9; E10; Errors 2", description: "d", catches, because });

describe("a fault's proof is its typed reason", () => {
  it("the declared reason proves; another reason, or none, does not", () => {
    const f = fault(["clone.name.copy-of"], { "clone.name.copy-of": "name" });
    expect(notAProof(f, failed("clone.name.copy-of", "name"))).toBeUndefined();
    expect(notAProof(f, failed("clone.name.copy-of", "status"))).toMatch(/failed for reason status, not name/);
    expect(notAProof(f, failed("clone.name.copy-of", undefined))).toMatch(/failed for reason \(none\), not name/);
  });

  it("without a declared reason, only a 'no 5xx' check is proven", () => {
    expect(notAProof(fault(["clone.name.copy-of"]), failed("clone.name.copy-of", "name"))).toMatch(/declares no reason key/);
    expect(notAProof(fault(["errors.no-5xx.valid-reads"]), failed("errors.no-5xx.valid-reads", "server-error"))).toBeUndefined();
  });

  it("every fault declares a reason key (no pattern) for each check it catches but a 'no 5xx' one", () => {
    const missing = faults.flatMap((f) => f.catches.filter((id) => typeof f.because?.[id] !== "string" && !/5xx/.test(check(id)?.title ?? "")).map((id) => `${f.name}: ${id}`));
    expect(missing).toEqual([]);
  });
});

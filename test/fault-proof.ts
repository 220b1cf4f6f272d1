import { expect, it } from "vitest";
import type { Check } from "../core/model/check.js";
import { isNoServerError } from "../core/model/reasons.js";
import type { CheckResult } from "../core/model/result.js";
import { isLoneIntermittent } from "../core/run/verdict.js";
import type { Fault } from "../reference/faults.js";
import { catalogue } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";

/**
 * Rule 2 of the house, proven: every check in a fault's `catches` fails against it, for the
 * reason the fault gives. A property or model check is proven over several seeds at the default
 * effort, so that its proof does not rest on one lucky stream.
 */

/** The default effort of a property (--runs) and the seeds its proof must hold over. */
export const PROOF_RUNS = 100;
export const PROOF_SEEDS = [42, 1, 2, 3, 4];

/** The spec sections a citation names: `E10 rule 8; Errors 2` names E10 and Errors; `E1–E13` each of them. */
export function specSections(citation: string): Set<string> {
  const out = new Set<string>();
  for (const m of citation.matchAll(/\bE(\d+)(?:\s*[–-]\s*E(\d+))?/g)) for (let i = Number(m[1]); i <= Number(m[2] ?? m[1]); i++) out.add(`E${i}`);
  for (const word of ["Pagination", "Resources", "Errors", "Authentication", "Limits", "States", "Versioning"]) if (citation.includes(word)) out.add(word);
  return out;
}

/** What a failure says, to show beside a reason that was not the one declared. */
export const failureText = (r: CheckResult) => [r.message, `expected ${r.expected ?? ""}`, `got ${r.got ?? ""}`].join(" | ");

/**
 * Why a failed result is no proof of the fault, or undefined when it is one: the result's typed
 * reason must be the one the fault declares for the check (deleting the assertion, or failing
 * another one, breaks the proof). Every fault declares a registered reason key (core/model/reasons.ts)
 * for every check it catches.
 */
export function notAProof(fault: Fault, r: CheckResult): string | undefined {
  const shared = [...specSections(fault.breaks)].filter((s) => specSections(r.spec).has(s));
  if (!shared.length) return `${r.id} cites "${r.spec}", no section of the rule the fault breaks ("${fault.breaks}")`;
  const because = fault.because?.[r.id];
  if (because !== undefined) return r.reason === because ? undefined : `${r.id} failed for reason ${r.reason ?? "(none)"}, not ${because}: ${failureText(r)}`;
  return `${r.id}: ${fault.name} declares no reason key for it (because)`;
}

/** A property or the model draws from the seed (an invariant judges what the checks beside it send: it follows them). */
const drawsFromSeed = (c: Check) => c.kind === "property" || c.kind === "model";
export const proofSeedsFor = (checks: Check[]) => (checks.some(drawsFromSeed) ? PROOF_SEEDS : PROOF_SEEDS.slice(0, 1));

const serverError = (r: CheckResult) => /^5\d\d\b/.test(r.got ?? "");

/**
 * One test per fault: each seed's run fails every caught check, for the fault's reason. Then, once
 * every fault of a check has been proven, one test that no check other than a "no 5xx" one rests
 * on faults that only make the server answer 5xx: such a fault proves the check fails, not that
 * it guards its own rule.
 */
export function proveFaults(selected: Fault[]): void {
  const proofs = new Map<string, Map<string, boolean>>();
  for (const fault of selected) {
    const checks = catalogue.filter((c) => fault.catches.includes(c.id));
    // An invariant's proof also runs the checks whose traffic it judges (Fault.feeds); only the caught ones are held to fail.
    const run = catalogue.filter((c) => fault.catches.includes(c.id) || fault.feeds?.includes(c.id));
    const seeds = proofSeedsFor(run);
    it(`${fault.name} (${fault.breaks}) is caught by ${fault.catches.join(", ")}${seeds.length > 1 ? ` over seeds ${seeds.join(", ")}` : ""}`, async () => {
      // The seeds' runs interleave: each waits on its own reference server most of the time.
      const outcomes = await Promise.all(
        seeds.map((seed) => runAgainstReference(run, { faults: [fault.name], settings: { seed, runs: PROOF_RUNS } }).then((o) => ({ seed, o }))),
      );
      for (const { seed, o } of outcomes) {
        const caught = o.results.filter((r) => fault.catches.includes(r.id));
        // One defect reads as one failure (core/run/shared-defects.ts): a caught check blocked under another caught one, for the same shared reason, is caught too.
        const underCaught = (r: CheckResult) => r.status === "blocked" && fault.catches.some((id) => id !== r.id && r.root?.check === id);
        // A failure that counts: a lone intermittent one fails no gate (core/run/verdict.ts), so it proves nothing.
        const notFailed = caught.filter((r) => (r.status !== "failed" || isLoneIntermittent(r)) && !underCaught(r));
        expect(
          notFailed.map((r) => `seed ${seed}: ${r.id}: ${r.status} ${r.message}`),
          describeResults(o),
        ).toEqual([]);
        expect(caught.length).toBe(checks.length);
        expect(caught.map((r) => notAProof(fault, r)).filter(Boolean), `seed ${seed}`).toEqual([]);
        for (const r of caught) proofs.set(r.id, (proofs.get(r.id) ?? new Map()).set(fault.name, serverError(r)));
      }
    });
  }
  it("no check but a 'no 5xx' one is proven only by faults that answer 5xx", () => {
    // A "no 5xx" check is one every fault proves for a reason of that kind (core/model/reasons.ts), not one whose title says so.
    const noServerError = (id: string) => selected.every((f) => !f.catches.includes(id) || isNoServerError(f.because?.[id]));
    const judged = catalogue
      .filter((c) => !noServerError(c.id))
      .filter((c) => {
        const faults = selected.filter((f) => f.catches.includes(c.id));
        return faults.length > 0 && faults.every((f) => proofs.get(c.id)?.has(f.name));
      });
    expect(judged.filter((c) => [...proofs.get(c.id)!.values()].every(Boolean)).map((c) => c.id)).toEqual([]);
  });
}

/** Whether proving the fault takes more than one run (it catches a property or a model check). */
export const provenOverSeeds = (fault: Fault) => catalogue.some((c) => (fault.catches.includes(c.id) || fault.feeds?.includes(c.id)) && drawsFromSeed(c));

/** Whether the fault is proven by a workspace property or the model run (the longest proofs: a file of their own). */
export const provesWorkspaceRuns = (fault: Fault) =>
  catalogue.some((c) => fault.catches.includes(c.id) && ((c.kind === "property" && (c.group === "upsert" || c.group === "bulk-move")) || c.kind === "model"));

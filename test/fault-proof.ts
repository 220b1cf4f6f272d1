import { expect, it } from "vitest";
import type { Check } from "../core/check/check.js";
import { isNoServerError } from "../core/model/reasons.js";
import type { CheckResult } from "../core/run/result.js";
import { isLoneIntermittent } from "../core/run/verdict.js";
import type { CheckId } from "../core/model/ids.js";
import { catches, caughtBy, type Fault, faults as registry } from "../reference/faults.js";
import { catalogue } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";

/**
 * Rule 2 of the house, proven: every check a fault's `because` names fails against it, for the
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
  for (const word of ["What the service does", "Pagination", "Resources", "Errors", "Authentication", "Limits", "States", "Versioning"])
    if (citation.includes(word)) out.add(word);
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
  const because = fault.because[r.id as CheckId];
  if (because !== undefined) return r.reason === because ? undefined : `${r.id} failed for reason ${r.reason ?? "(none)"}, not ${because}: ${failureText(r)}`;
  return `${r.id}: ${fault.name} declares no reason key for it (because)`;
}

/** A property or the model draws from the seed (an invariant judges what the checks beside it send: it follows them). */
const drawsFromSeed = (c: Check) => c.kind === "property" || c.kind === "model";
export const proofSeedsFor = (checks: Check[]) => (checks.some(drawsFromSeed) ? PROOF_SEEDS : PROOF_SEEDS.slice(0, 1));

/** Whether the check of this id runs beside the fault's caught ones for its traffic (Fault.feeds). */
const feeds = (fault: Fault, id: string) => (fault.feeds as readonly string[] | undefined)?.includes(id) ?? false;

const serverError = (r: CheckResult) => /^5\d\d\b/.test(r.got ?? "");

/** A "no 5xx" check: every fault of the registry proves it for a reason of that kind (core/model/reasons.ts), not one whose title says so. */
const isNoServerErrorCheck = (id: CheckId) => registry.every((f) => !catches(f, id) || isNoServerError(f.because[id]));

/** What this process has seen each fault do to each check it catches: whether the failure was a 5xx answer. */
const seen = new Map<string, Map<string, boolean>>();
const record = (id: string, fault: string, fiveHundred: boolean) => seen.set(id, (seen.get(id) ?? new Map()).set(fault, fiveHundred));

/**
 * Whether some fault of the registry fails the check other than by answering 5xx. Read from the
 * proofs this process ran; a fault not proven here (a filtered run, another file's proof) is run
 * now, once, at the first seed: the judgement does not depend on which tests ran.
 */
async function guardedOtherThanBy5xx(id: CheckId): Promise<boolean> {
  for (const fault of registry.filter((f) => catches(f, id))) {
    if (!seen.get(id)?.has(fault.name)) {
      const run = catalogue.filter((c) => c.id === id || feeds(fault, c.id));
      const o = await runAgainstReference(run, { faults: [fault.name], settings: { seed: PROOF_SEEDS[0], runs: PROOF_RUNS } });
      const r = o.results.find((x) => x.id === id);
      if (r?.status === "failed") record(id, fault.name, serverError(r));
    }
    if (seen.get(id)?.get(fault.name) === false) return true;
  }
  return false;
}

/**
 * One test per fault: each seed's run fails every caught check, for the fault's reason; and no
 * check other than a "no 5xx" one rests on faults that only make the server answer 5xx (such a
 * fault proves the check fails, not that it guards its own rule), judged over the whole registry
 * whichever faults the run was filtered to.
 */
export function proveFaults(selected: Fault[]): void {
  for (const fault of selected) {
    const caughtIds = caughtBy(fault);
    const checks = catalogue.filter((c) => catches(fault, c.id));
    // An invariant's proof also runs the checks whose traffic it judges (Fault.feeds); only the caught ones are held to fail.
    const run = catalogue.filter((c) => catches(fault, c.id) || feeds(fault, c.id));
    const seeds = proofSeedsFor(run);
    it(`${fault.name} (${fault.breaks}) is caught by ${caughtIds.join(", ")}${seeds.length > 1 ? ` over seeds ${seeds.join(", ")}` : ""}`, async () => {
      // The seeds' runs interleave: each waits on its own reference server most of the time.
      const outcomes = await Promise.all(
        seeds.map((seed) => runAgainstReference(run, { faults: [fault.name], settings: { seed, runs: PROOF_RUNS } }).then((o) => ({ seed, o }))),
      );
      const by5xx = new Set<CheckId>();
      for (const { seed, o } of outcomes) {
        const caught = o.results.filter((r) => catches(fault, r.id));
        // One defect reads as one failure (core/run/shared-defects.ts): a caught check blocked under another caught one, for the same shared reason, is caught too.
        const underCaught = (r: CheckResult) => r.status === "blocked" && caughtIds.some((id) => id !== r.id && r.root?.check === id);
        // A failure that counts: a lone intermittent one fails no gate (core/run/verdict.ts), so it proves nothing.
        const notFailed = caught.filter((r) => (r.status !== "failed" || isLoneIntermittent(r)) && !underCaught(r));
        expect(
          notFailed.map((r) => `seed ${seed}: ${r.id}: ${r.status} ${r.message}`),
          describeResults(o),
        ).toEqual([]);
        expect(caught.length).toBe(checks.length);
        expect(caught.map((r) => notAProof(fault, r)).filter(Boolean), `seed ${seed}`).toEqual([]);
        for (const r of caught) {
          record(r.id, fault.name, serverError(r));
          if (serverError(r) && !isNoServerErrorCheck(r.id as CheckId)) by5xx.add(r.id as CheckId);
        }
      }
      const only5xx: CheckId[] = [];
      for (const id of by5xx) if (!(await guardedOtherThanBy5xx(id))) only5xx.push(id);
      expect(only5xx, "checks (not 'no 5xx' ones) that every fault fails only by answering 5xx").toEqual([]);
    });
  }
}

/** Whether proving the fault takes more than one run (it catches a property or a model check). */
export const provenOverSeeds = (fault: Fault) => catalogue.some((c) => (catches(fault, c.id) || feeds(fault, c.id)) && drawsFromSeed(c));

/** Whether the fault is proven by a workspace property or the model run (the longest proofs: a file of their own). */
export const provesWorkspaceRuns = (fault: Fault) =>
  catalogue.some((c) => catches(fault, c.id) && ((c.kind === "property" && (c.group === "upsert" || c.group === "bulk-move")) || c.kind === "model"));

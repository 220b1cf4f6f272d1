import { Api } from "../transport/api.js";
import { drift, type DriftReport } from "../served/drift.js";
import type { HttpClient } from "../transport/http.js";
import { type CoverageReport, type ExchangeTally, operationCoverage, probeUndocumented } from "../served/operation-coverage.js";
import { readServed, type ServedRead } from "../served/read.js";
import type { RunSettings } from "../api/settings.js";
import { fixturesFor } from "../check/fixtures.js";

/** The sections of every report that read the served document: operation coverage and drift from the contract. */
export interface DocumentSections {
  operations: CoverageReport;
  drift?: DriftReport;
}

/**
 * Read after the run from the run's own read of the document (`served`: the checks' one read),
 * else from one read here; then E1 for a deployment when none is configured, and the safe probes
 * of E14 operations the document leaves out. None of it counts as a check's requests.
 */
export async function documentSections(
  door: HttpClient,
  settings: RunSettings,
  tally: ExchangeTally,
  contract: unknown,
  served?: Promise<ServedRead>,
): Promise<DocumentSections> {
  door.phase = "coverage";
  const api = new Api(door, door.options.credential ?? null, []);
  const read = await (served ?? readServed(api)).catch((err: Error) => `the served document could not be read: ${err.message}`);
  if (typeof read === "string" || !read.model)
    return {
      operations: {
        documented: 0,
        exercised: 0,
        percent: 0,
        operations: [],
        undocumented: [],
        problem: typeof read === "string" ? read : read.problem.message,
      },
    };
  const { operations, raw } = read.model;
  const deploymentId = await fixturesFor(door, settings.fixtures)
    .get("deployment")
    .then(
      (d) => d.id,
      () => undefined,
    );
  const undocumented = await probeUndocumented(api, operations, deploymentId).catch(() => []);
  const report = await drift(contract, raw).catch(() => undefined);
  return { operations: { ...operationCoverage(operations, tally, undocumented), source: read.source }, drift: report };
}

/** The run's verdict on --min-coverage: a line saying why it fails, or undefined. */
export function belowMinimum(c: CoverageReport, min: number | undefined): string | undefined {
  if (min === undefined) return undefined;
  if (c.problem) return `--min-coverage ${min}%: no operation coverage (${c.problem})`;
  return c.percent < min
    ? `operation coverage ${c.percent}% (${c.exercised} of ${c.documented} documented operations exercised) is below --min-coverage ${min}%`
    : undefined;
}

import { Api } from "../transport/api.js";
import { drift, type DriftReport } from "../served/drift.js";
import { HttpClient } from "../transport/http.js";
import { type CoverageReport, type ExchangeTally, operationCoverage, probeUndocumented } from "../served/operation-coverage.js";
import { credentials, redactorFor } from "../run/runner.js";
import { readServed, type ServedRead } from "../served/read.js";
import type { RunSettings } from "../run/settings.js";

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
  settings: RunSettings,
  tally: ExchangeTally,
  contract: unknown,
  served?: Promise<ServedRead>,
): Promise<DocumentSections> {
  const client = new HttpClient({
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    redactor: redactorFor(settings),
    credential: credentials(settings).primary,
    rateLimit: settings.rateLimit,
  });
  try {
    const api = new Api(client, client.options.credential ?? null, []);
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
    const deploymentId = settings.fixtures.deploymentId !== undefined ? String(settings.fixtures.deploymentId) : await firstDeployment(api);
    const undocumented = await probeUndocumented(api, operations, deploymentId).catch(() => []);
    const report = await drift(contract, raw).catch(() => undefined);
    return { operations: { ...operationCoverage(operations, tally, undocumented), source: read.source }, drift: report };
  } finally {
    await client.close();
  }
}

async function firstDeployment(api: Api): Promise<string | undefined> {
  const res = await api.call("listDeployments", {}, { query: { limit: 1 } }).catch(() => undefined);
  const b = res?.isJson ? res.body : undefined;
  const id = b?.data?.deployments?.[0]?.id ?? b?.items?.[0]?.id ?? (Array.isArray(b?.data) ? b.data[0]?.id : undefined);
  return id === undefined ? undefined : String(id);
}

/** The run's verdict on --min-coverage: a line saying why it fails, or undefined. */
export function belowMinimum(c: CoverageReport, min: number | undefined): string | undefined {
  if (min === undefined) return undefined;
  if (c.problem) return `--min-coverage ${min}%: no operation coverage (${c.problem})`;
  return c.percent < min
    ? `operation coverage ${c.percent}% (${c.exercised} of ${c.documented} documented operations exercised) is below --min-coverage ${min}%`
    : undefined;
}

import { specEndpoints } from "./endpoints.js";
import type { CheckResult } from "./runner.js";

/**
 * One defect reads as one failure. Some assertions are shared: the invariants (a timestamp, a
 * schema, a masked value on any answer) and the cursor-walk library (core/pagination.ts) judge
 * the answer, not the check's scenario, so one broken answer fails every check that read it. After
 * the run, failures that share the exchange (method, URL and status; the page position `first`,
 * `after`, `limit`, `offset` aside, since walks of one list differ only in it) and a shared
 * reason are one defect: the invariant that owns the rule (else the first in catalogue order)
 * stays failed, the others are blocked under it. A check failing for a reason of its own stays failed.
 */
export function blockSharedDefects(results: CheckResult[]): CheckResult[] {
  const groups = new Map<string, number[]>();
  results.forEach((r, i) => {
    const key = defectKey(r);
    if (key) groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const out = blockServerErrorsUnderOwners(results);
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const root = members.find((i) => results[i].kind === "invariant") ?? members[0];
    const r = results[root];
    const cause = `${r.id}: ${r.exchange!.method} ${r.exchange!.url} answered ${r.exchange!.status} (${r.reason})`;
    for (const i of members) if (i !== root) out[i] = { ...results[i], status: "blocked", blockedBy: cause, message: `blocked by ${cause} (${results[i].message})` };
  }
  return out;
}

/** Reasons of assertions shared by many checks: the schemas, the invariants' and the walk's. */
export function isSharedReason(reason: string | undefined): boolean {
  return reason !== undefined && (/^(schema|walk):/.test(reason) || SHARED.has(reason));
}

/** The invariants' reasons (suites/invariants). */
const SHARED = new Set(["timestamp", "secret-unmasked", "secret-leaked", "other-deployment", "server-error", "widget-type"]);

const PAGE_POSITION = ["first", "after", "limit", "offset"];

function defectKey(r: CheckResult): string | undefined {
  if (r.status !== "failed" || !isSharedReason(r.reason) || !r.exchange?.status) return undefined;
  let url = r.exchange.url;
  try {
    const u = new URL(url);
    for (const p of PAGE_POSITION) u.searchParams.delete(p);
    url = u.toString();
  } catch {
    // not a URL: keyed as it is
  }
  return `${r.exchange.method} ${url} ${r.exchange.status} ${r.reason}`;
}

const ENDPOINTS = Object.values(specEndpoints).map((e) => ({ ...e, re: new RegExp(`^${e.path.replace(/\{[^}]+\}/g, "[^/]+")}$`) }));

/**
 * A spec'd endpoint answering 5xx already reads as one failure (its owner, core/endpoints.ts) and N
 * blocked: the no-5xx invariant that saw the same status there joins the blocked, under the same
 * root cause, when the owner failed on it.
 */
function blockServerErrorsUnderOwners(results: CheckResult[]): CheckResult[] {
  const failed = new Set(results.filter((r) => r.status === "failed").map((r) => r.id));
  return results.map((r) => {
    if (r.status !== "failed" || r.reason !== "server-error" || !r.exchange?.status) return r;
    let path: string;
    try {
      path = new URL(r.exchange.url).pathname;
    } catch {
      return r;
    }
    const owner = ENDPOINTS.find((e) => e.method === r.exchange!.method && e.re.test(path));
    if (!owner || owner.root === r.id || !failed.has(owner.root)) return r;
    const cause = `${owner.root}: ${owner.method} ${owner.path} answered ${r.exchange.status}`;
    return { ...r, status: "blocked", blockedBy: cause, message: `blocked by ${cause} (${r.message})` };
  });
}

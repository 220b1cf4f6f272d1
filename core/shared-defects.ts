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
  const out = [...results];
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

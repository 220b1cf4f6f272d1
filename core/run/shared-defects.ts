import { matchOperation } from "../api/match.js";
import { OPERATIONS, SPECIFIED_OPERATIONS } from "../api/operations.js";
import type { CheckResult } from "./result.js";

/**
 * One defect reads as one failure. Some assertions are shared: the invariants (a timestamp, a
 * schema, a masked value on any answer) and the cursor-walk library (core/transport/pagination.ts) judge
 * the answer, not the check's scenario, so one broken answer fails every check that read it. After
 * the run, failures that share the exchange (method, URL and status; the page position `first`,
 * `after`, `limit`, `offset` aside, since walks of one list differ only in it) and a shared
 * reason are one defect (a 5xx: the endpoint and status, whatever the request carried): the
 * invariant that owns the rule (else the first in catalogue order) stays failed, the others are
 * blocked under it. Checks failing for a reason of their own are one defect only where they sent
 * the very same request (its body too) and it was answered alike; else each stays failed.
 */
export function blockSharedDefects(results: CheckResult[]): CheckResult[] {
  const owned = blockServerErrorsUnderOwners(results);
  const groups = new Map<string, number[]>();
  owned.forEach((r, i) => {
    const key = defectKey(r);
    if (key) groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const out = [...owned];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const root = owned[members.find((i) => owned[i].kind === "invariant") ?? members[0]];
    const x = root.exchange!;
    const cause = `${root.id}: ${x.method} ${x.url} answered ${x.status} (${root.reason})`;
    const by = { check: root.id, exchange: { method: x.method, url: x.url, status: x.status } };
    for (const i of members)
      if (owned[i] !== root) out[i] = { ...owned[i], status: "blocked", root: by, blockedBy: cause, message: `blocked by ${cause} (${owned[i].message})` };
  }
  return blockWalkDefectsUnderListRules(blockUnderSchemaInvariant(out));
}

/** A list rule: one the spec states about lists (its pagination styles, its PageInfo). */
const isListRule = (r: Pick<CheckResult, "spec">) => /Pagination styles|Resources \/ PageInfo/.test(r.spec);
const isWalkDefect = (r: CheckResult) => r.status === "failed" && r.kind !== "invariant" && r.reason?.startsWith("walk:") && !!r.exchange && !isListRule(r);

/**
 * A list walk's defect belongs to the list rules (issue 28, point 7): a check whose rule is not about
 * lists (a filter, a broken body read back through the list) that failed because its walk of a
 * list broke (a `walk:*` reason) is blocked, not failed: under the list rule that failed on the same
 * operation (or the root that one is blocked under), else under a root named for the list's walk,
 * with the server's answer, as a discovery root is named for what it discovers.
 */
function blockWalkDefectsUnderListRules(results: CheckResult[]): CheckResult[] {
  const operationOf = (r: CheckResult) => (r.exchange ? matchOperation(OPERATIONS, r.exchange.method, r.exchange.url)?.operation : undefined);
  return results.map((r) => {
    if (!isWalkDefect(r)) return r;
    const x = r.exchange!;
    const op = operationOf(r);
    const onList = results.filter((l) => l !== r && isListRule(l) && op !== undefined && operationOf(l) === op);
    const listRule = onList.find((l) => l.status === "failed") ?? onList.find((l) => l.status === "blocked" && l.root);
    const answered = `${x.method} ${x.url} answered ${x.status} (${r.reason})`;
    if (listRule?.status === "failed") {
      const cause = `${listRule.id}: ${answered}`;
      return {
        ...r,
        status: "blocked",
        root: { check: listRule.id, exchange: listRule.exchange && pick(listRule.exchange) },
        blockedBy: cause,
        message: `blocked by ${cause} (${r.message})`,
      };
    }
    if (listRule)
      return { ...r, status: "blocked", root: listRule.root, blockedBy: listRule.blockedBy, message: `blocked by ${listRule.blockedBy} (${r.message})` };
    const root = `list walk: ${op ? `${op.method} ${op.path}` : `${x.method} ${x.url}`}`;
    const cause = `${root}: ${answered}: ${r.message}`;
    return { ...r, status: "blocked", root: { check: root, exchange: pick(x) }, blockedBy: cause, message: `blocked by ${cause}` };
  });
}

const pick = (x: NonNullable<CheckResult["exchange"]>) => ({ method: x.method, url: x.url, status: x.status });

/**
 * A schema defect is the schema invariant's: it watches every answer and reports the first that
 * breaks a schema, so a check that met the same defect in another answer (its own read of another
 * workbook, a report kind outside the enum deep in a clone) is blocked under it, not failed beside it.
 */
function blockUnderSchemaInvariant(results: CheckResult[]): CheckResult[] {
  const roots = new Map(
    results.filter((r) => r.kind === "invariant" && r.status === "failed" && r.reason?.startsWith("schema:") && r.exchange).map((r) => [r.reason!, r]),
  );
  return results.map((r) => {
    const root = r.kind !== "invariant" && r.status === "failed" && r.reason ? roots.get(r.reason) : undefined;
    if (!root) return r;
    const cause = `${root.id}: ${root.exchange!.method} ${root.exchange!.url} answered ${root.exchange!.status} (${root.reason})`;
    return { ...r, status: "blocked", blockedBy: cause, message: `blocked by ${cause} (${r.message})` };
  });
}

/** Reasons of assertions shared by many checks: the schemas, the invariants' and the walk's. */
export function isSharedReason(reason: string | undefined): boolean {
  return reason !== undefined && (/^(schema|walk):/.test(reason) || SHARED.has(reason));
}

/** The invariants' reasons (the invariants are in their groups' folders, suites/<group>/). */
const SHARED = new Set(["timestamp", "secret-unmasked", "secret-leaked", "other-deployment", "server-error", "widget-type", "legacy-field-dropped"]);

const PAGE_POSITION = ["first", "after", "limit", "offset"];

function defectKey(r: CheckResult): string | undefined {
  if (r.status !== "failed" || !r.reason || !r.exchange?.status) return undefined;
  // A reason of a check's own joins another check's only on the very same request, answered alike
  // (an example and the property that drew its case: an empty releaseChannelVersion answered 422).
  if (!isSharedReason(r.reason))
    return `${r.exchange.method} ${r.exchange.url} ${JSON.stringify(r.exchange.requestBody ?? null)} ${r.exchange.status} ${r.reason}`;
  // A 5xx is the endpoint's defect, whichever ids or values the request carried (a property's shrunk case, the invariant's first).
  const endpoint = r.reason === "server-error" ? endpointOf(r.exchange.method, r.exchange.url) : undefined;
  if (endpoint) return `${endpoint.method} ${endpoint.path} ${r.exchange.status} ${r.reason}`;
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

/** The spec'd endpoint (E1-E13) a request went to, if any. */
function endpointOf(method: string, url: string): { method: string; path: string; root: string } | undefined {
  const op = matchOperation(SPECIFIED_OPERATIONS, method, url)?.operation;
  return op && { method: op.method, path: op.path, root: op.owner };
}

/**
 * A spec'd endpoint answering 5xx already reads as one failure (its owner, core/api/endpoints.ts) and N
 * blocked: a "server-error" failure there (the no-5xx invariant, a no-5xx property) joins the
 * blocked, under the same root cause, when the owner failed.
 */
function blockServerErrorsUnderOwners(results: CheckResult[]): CheckResult[] {
  const failed = new Set(results.filter((r) => r.status === "failed").map((r) => r.id));
  return results.map((r) => {
    if (r.status !== "failed" || r.reason !== "server-error" || !r.exchange?.status) return r;
    const owner = endpointOf(r.exchange.method, r.exchange.url);
    if (!owner || owner.root === r.id || !failed.has(owner.root)) return r;
    const cause = `${owner.root}: ${owner.method} ${owner.path} answered ${r.exchange.status}`;
    const root = { check: owner.root, exchange: { method: r.exchange.method, url: r.exchange.url, status: r.exchange.status } };
    return { ...r, status: "blocked", root, blockedBy: cause, message: `blocked by ${cause} (${r.message})` };
  });
}

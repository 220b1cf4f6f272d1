import { runPrefixOf } from "../../core/ledger/scratch.js";
import { randomBytes } from "node:crypto";
import { nearMissKeys } from "../../core/transport/redact.js";
import type { CheckSpec } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { statusLine } from "../../core/api/expect.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import { NotExercised } from "../../core/model/outcome.js";
import type { Method, Operation } from "../../core/served/served-document.js";
import { NotGenerated } from "../../generators/index.js";
import { operationKey } from "../../core/api/match.js";
import { READ_METHODS } from "../../core/api/methods.js";
import { actsOnNone } from "../../core/ledger/door-keyless.js";
import { guard } from "../../core/run/door.js";
import { SPECIFIED } from "../../core/api/spec-operations.js";
import { PathIds } from "../lib/path-ids.js";
import { writeClass } from "../lib/documented-requests.js";
import { ownWorkbook } from "../lib/workbook-writes.js";
import { sideBySide } from "../lib/at-once.js";
import { bodyFor, createdId, drawnBody, itemPath, removeLater, type Resource, resourcesOf } from "../lib/documented-resources.js";

/** 256 random bits: no key a server issued can equal it. */
export const unknownKey = () => `conformance-unknown-${randomBytes(32).toString("base64url")}`;

/**
 * Credentials a server must refuse; `Api-Key <key>` is not among them (published docs: older servers
 * accept it). `key` is the run's own: a key one character longer or shorter than an issued one is
 * no key either (Authentication 2), though a server that compares keys by prefix takes it.
 */
export const REFUSED: { rule: string; what: string; header: (key: string | undefined) => string | undefined }[] = [
  { rule: "no-header", what: "no Authorization header", header: () => undefined },
  { rule: "malformed", what: "`Bearer` with no key after it", header: () => "Bearer" },
  {
    rule: "wrong-scheme",
    what: "a Basic credential instead of a Bearer one",
    header: () => `Basic ${Buffer.from(`conformance:${unknownKey()}`).toString("base64")}`,
  },
  { rule: "unknown-key", what: "a Bearer key the server never issued", header: () => `Bearer ${unknownKey()}` },
  { rule: "key-extended", what: "the run's key with one character added", header: (key) => `Bearer ${key ? nearMissKeys(key).extended : unknownKey()}` },
  { rule: "key-cut", what: "the run's key without its last character", header: (key) => `Bearer ${key ? nearMissKeys(key).cut : unknownKey()}` },
];

/** Operations that get every refused credential; the others get one each, in turn (a server refuses by credential, not by operation and credential at once). */
const EVERY_CREDENTIAL_ON = 8;

/** What a read-only run may send: nothing that could change anything, whatever the server answers. */

interface Probe {
  method: Method;
  path: string;
  spec?: string;
  /** A create of the document the run may make and remove: probed with a valid body (with --allow-writes). */
  creates?: Resource;
}

/**
 * Every operation of the served document, and every one of E1–E13 whether or not the document
 * lists it (a server may leave out of its document what it still serves). Without --allow-writes,
 * only the reads: a server whose auth is broken would apply a refused write.
 */
async function operationsToProbe(ctx: CheckContext): Promise<{ probes: Probe[]; ids?: PathIds }> {
  const doc = (await ctx.servedDocument().catch(() => undefined))?.model;
  const served = doc ? doc.operations : [];
  const creates = new Map(resourcesOf(served, ctx.settings).map((r) => [r.create.key, r]));
  const probes = new Map<string, Probe>(
    served.map((o) => [o.key, { method: o.method, path: o.path, creates: ctx.settings.writes ? creates.get(o.key) : undefined }]),
  );
  for (const o of SPECIFIED) {
    const key = operationKey(o.method, o.path);
    probes.set(key, { ...(probes.get(key) ?? { method: o.method, path: o.path }), spec: o.spec });
  }
  // What the door would let leave (core/run/door.ts): reads, and the writes of the classes the user opted into.
  const sendable = [...probes.values()].filter((p) => guard(ctx.settings, p.method, p.path) === undefined);
  return { probes: sendable, ids: doc ? new PathIds(ctx.api, served, ctx.fixture("deployment").id, runPrefixOf(ctx.settings.seed)) : undefined };
}

/**
 * The path a refused request goes to. A read gets real ids where the run found them, so that a
 * 404 can be told from a refusal; a create the table names gets its parents' ids (what it makes
 * carries the run's prefix, and the ledger removes it); any other write gets ids that name nothing (the deployment
 * the run writes to aside, unless the write would change that deployment itself).
 */
async function probePath(ctx: CheckContext, p: Probe, ids?: PathIds): Promise<string> {
  // A create keeps its parents' ids only where the door lets a keyless write reach them: a create the table names.
  const found = READ_METHODS.includes(p.method) || (p.creates && actsOnNone(p.method, p.path)) ? await ids?.fill(p.path) : undefined;
  if (found) return found;
  const dep = ctx.fixture("deployment").id;
  // Only a plain write (of the run's own objects, or an admin's) keeps the planned deployment's id; any other names nothing,
  // as does one that acts on the deployment itself (its last placeholder, other than a create's): the door refuses a
  // keyless write to an object the server showed (core/ledger/door-keyless.ts).
  const last = [...p.path.matchAll(/\{([^}]+)\}/g)].at(-1)?.[1] ?? "";
  const deploymentItself = !["read", "writes", "admin-writes"].includes(writeClass(p)) || (p.method !== "POST" && /^deployment_?id$/i.test(last));
  const own = !deploymentItself && /\{workbook_?id\}/i.test(p.path) ? await ownWorkbookId(ctx) : undefined;
  return p.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (deploymentItself) return "0";
    if (/^deployment_?id$/i.test(name)) return encodeURIComponent(dep);
    return /^workbook_?id$/i.test(name) && own !== undefined ? String(own) : ctx.scratch.slug("auth");
  });
}

/**
 * A workbook of the check's own, made once a run of the check (keyed by its exchange log): a refused write to a workbook (a clone, say) goes to
 * it, so that a server which applies it shows it applied (200) without touching anything else.
 */
const ownWorkbooks = new WeakMap<object, Promise<number | undefined>>();
function ownWorkbookId(ctx: CheckContext): Promise<number | undefined> {
  let made = ownWorkbooks.get(ctx.log);
  if (!made) {
    made = ownWorkbook(ctx, ctx.api, ctx.fixture("deployment").id).then(
      (w) => w.workbook.id as number,
      () => undefined,
    );
    ownWorkbooks.set(ctx.log, made);
  }
  return made;
}

/** What one refused request shows: a failure (served, server error), a refusal, or nothing that tells. */
type Verdict = { fails: ReasonKey; res: Response } | "refused" | "cannot-tell";

function verdictOf(res: Response): Verdict {
  if (res.status >= 200 && res.status < 300) return { fails: "served", res };
  if (res.status >= 500) return { fails: "server-error", res };
  // 404 or 405: a missing route refuses everyone; it shows nothing about credentials.
  if (res.status === 404 || res.status === 405) return "cannot-tell";
  return "refused";
}

/** A 2xx to a refused create made something of the run's prefix: the ledger removes it once a read shows it is the run's own. */
async function removeMade(ctx: CheckContext, p: Probe, res: Response, ids?: PathIds): Promise<void> {
  const b = res.body;
  const dep = ctx.fixture("deployment").id;
  const id = p.creates ? createdId(p.creates, res) : undefined;
  if (p.creates && id && ids) removeLater(ctx, p.creates, p.creates.remove ? await itemPath(ids, p.creates.remove, id) : undefined, res, dep);
  else if (!READ_METHODS.includes(p.method) && res.isJson && Number.isInteger(b?.id) && ["WORKBOOK", "REPORT", "FOLDER"].includes(b?.type))
    ctx.scratch.track(dep, { type: b.type, id: b.id }, { res });
}

async function probeOne(
  ctx: CheckContext,
  p: Probe,
  kinds: typeof REFUSED,
  ids?: PathIds,
): Promise<{ failures: string[]; firstFailure?: { reason: ReasonKey; res: Response }; judged: boolean }> {
  const path = await probePath(ctx, p, ids);
  const failures: string[] = [];
  let firstFailure: { reason: ReasonKey; res: Response } | undefined;
  let judged = false;
  for (const kind of kinds) {
    const header = kind.header(ctx.settings.token);
    // A write is sent with an empty object (whatever a server that failed to refuse it did, it did
    // the least), a create the run can undo with a valid body (a server that validates before it
    // authenticates refuses an empty one for the wrong reason).
    const body = READ_METHODS.includes(p.method) || p.method === "DELETE" ? undefined : p.creates ? createBody(ctx, p.creates.create) : {};
    const res = await ctx.anonymous.send({ method: p.method, path, headers: header === undefined ? undefined : { authorization: header }, body });
    let verdict = verdictOf(res);
    // A read answered 404 without a key is a refusal when the same read with the key is served.
    if (verdict === "cannot-tell" && p.method === "GET") {
      const withKey = await ctx.api.get(path);
      if (withKey.status !== 404 && withKey.status !== 405) verdict = "refused";
    }
    if (verdict === "cannot-tell") continue;
    judged = true;
    if (verdict === "refused") continue;
    await removeMade(ctx, p, verdict.res, ids);
    failures.push(`${p.spec ? `${p.spec} ` : ""}${p.method} ${path} with ${kind.what}: ${statusLine(verdict.res).slice(0, 80)}`);
    firstFailure ??= { reason: verdict.fails, res: verdict.res };
  }
  return { failures, firstFailure, judged };
}

/**
 * A create's body for a refusal: a valid one where its schema gives one; else (a schema the
 * generators cannot draw from) the empty object, as any other write gets: the refusal of a missing
 * key is judged either way, never the check errored.
 */
function createBody(ctx: CheckContext, create: Operation): unknown {
  const body = drawnBody(() => bodyFor(ctx, create, 1));
  return body instanceof NotGenerated ? {} : body;
}

/** The refused credentials operation `i` of `n` gets: all of them on a sample spread over the list, one each (in turn) elsewhere. */
function kindsFor(i: number, n: number): typeof REFUSED {
  const every = Math.max(1, Math.floor(n / EVERY_CREDENTIAL_ON));
  return i % every === 0 ? REFUSED : [REFUSED[i % REFUSED.length]];
}

export const everyOperation: CheckSpec = {
  id: "auth.reject.every-operation",
  spec: "Authentication 1",
  level: "MUST",
  // The status is not shown (Errors 6): a 4xx or a redirect to a login page refuses; a 2xx serves,
  // a 5xx is no refusal either. A 404/405 refuses everyone and tells nothing about credentials.
  // One refused credential per operation, in turn, and all of them on a sample: a refusal is decided by
  // the credential, so the sample answers for the rest (about one request per operation, not four).
  // Writes are probed only with --allow-writes, at ids that name nothing or as creates of the run's own.
  title:
    "Every operation (each the served document lists, and each of E1–E13, on both prefixes; writes with --allow-writes) refuses a request with no, a malformed, a non-Bearer or an unknown key, or the run's key one character longer or shorter: never served",
  needs: ["fixture:deployment"],
  async run(ctx) {
    const { probes, ids } = await operationsToProbe(ctx);
    const results = await sideBySide(probes, (p, i) => probeOne(ctx, p, kindsFor(i, probes.length), ids));
    const failures = results.flatMap((r) => r.failures);
    const first = results.find((r) => r.firstFailure)?.firstFailure;
    if (first)
      ctx.expect.fail(`${failures.length} request(s) without a valid key were not refused`, {
        expected: "a refusal (401 or 403; any 4xx but 404/405, or a redirect to a login page) on every operation",
        got: failures.join("; "),
        res: first.res,
        reason: first.reason,
      });
    if (!results.some((r) => r.judged))
      throw new NotExercised(
        `every one of ${probes.length} operation(s) answered 404 or 405 without a key, and reads with the key too: nothing showed a refusal`,
      );
  },
};

import fc from "fast-check";
import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { statusLine } from "../../core/api/expect.js";
import type { Endpoint } from "../../core/api/endpoints.js";
import { CheckFailure, NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { forAll, propertySeed } from "../../core/run/property.js";
import { type Operation, SPEC_PATH } from "../../core/served/served-document.js";
import { operationKey } from "../../core/api/match.js";
import { specSectionOf } from "../../core/api/spec-operations.js";
import { invalidValues } from "../../generators/index.js";
import { contradiction, invalidQueryValues, namesMadeUpValue, queryArbitrary, specQueryParameters } from "../lib/documented-requests.js";
import { roundTrips, runChains } from "./chains.js";
import { breaksOwnName, createdId, itemPath, madeSince, ownNamed, removeLater, type Resource, resourcesOf } from "../lib/documented-resources.js";
import { Findings, setUp } from "./setup.js";
import { guard } from "../../core/run/door.js";
import { sideBySide } from "../lib/at-once.js";
import { valueAt } from "../lib/lenient-reading.js";
import { onePerPlace, placeOf } from "../lib/each-place.js";

/** Statuses that refuse a body that is not JSON, answered before or after routing alike. */
const BODY_REFUSED = new Set([400, 415, 422]);

/** Generated requests per read: the layer covers every operation, each a little (a budget like a property's). */
const RUNS_PER_READ = 3;
/** One request a run, and one kept back for the replay that confirms a failure (core/run/property.ts); reads all at once. */
const READ_BUDGET = { maxRuns: RUNS_PER_READ, maxRequests: RUNS_PER_READ + 1, casesAtOnce: RUNS_PER_READ };
/** Invalid values sent per operation, and in all: one per rule a parameter states, bounded. */
const INVALID_PER_OPERATION = 8;
const INVALID_IN_ALL = 60;
/** Invalid bodies per create: one per kind of break at each place the schema allows, the shallowest first; and some drawn at the run's seed. */
const INVALID_BODIES_PER_CREATE = 12;
const DRAWN_BODIES_PER_CREATE = 2;

/**
 * Reads the run sends generated requests to: every GET, but a plan feature the config declares
 * off, and the document itself: it is read once a run (core/served/read.ts) and judged by spec.*.
 */
const readsOf = (ctx: CheckContext, ops: Operation[]) =>
  ops.filter((o) => o.method === "GET" && o.key !== DOCUMENT_KEY && !(ctx.settings.features?.auditLog === false && specSectionOf(o.key) === "E7"));
const DOCUMENT_KEY = operationKey("GET", SPEC_PATH);

const where = (op: Operation) => `${specSectionOf(op.key) ?? "not in the spec"}: ${op.method} ${op.path}`;

/** Whether a list answer holds at most `max` items, wherever it keeps them (items, data, data.<list>). */
function pageHolds(body: any, max: number): boolean {
  const lists = [body?.items, body?.data, ...(body?.data && typeof body.data === "object" && !Array.isArray(body.data) ? Object.values(body.data) : [])].filter(
    Array.isArray,
  );
  return lists.length > 0 && lists.every((l: unknown[]) => l.length <= max);
}

/**
 * A PATCH, PUT or POST sent to each path of the document that does not list it, with a body that is
 * not JSON, so nothing can be applied; never DELETE (a server that serves it undocumented would
 * apply it whatever the body), nor a method the table does not name where the run did not opt into
 * the unnamed operations (the door's rule). Sent side by side; the answers in the probes' order.
 */
async function unlistedMethods(ctx: CheckContext, ops: Operation[], deploymentId: string) {
  const probes = [...new Set(ops.map((o) => o.path))].flatMap((path) => {
    const listed = new Set(ops.filter((o) => o.path === path).map((o) => o.method));
    const method = (["PATCH", "PUT", "POST"] as const).find((m) => !listed.has(m));
    return method && guard(ctx.settings, method, path) === undefined ? [{ method, path }] : [];
  });
  const answers = await sideBySide(probes, ({ method, path }) => {
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => (/^deployment_?id$/i.test(name) ? encodeURIComponent(deploymentId) : "0"));
    return ctx.api.send({ method, path: filled, rawBody: "{", headers: { "content-type": "application/json" } });
  });
  return { probes, answers };
}

export const documentedChecks = group("documented", [
  {
    id: "documented.reads.match-document",
    spec: "E14; Versioning 1",
    level: "SHOULD",
    kind: "property",
    title:
      "Every read the served document lists, sent with generated documented parameters, is answered with a documented status, content type and body schema",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const { ops, ids, schemas } = await setUp(ctx);
      const findings = new Findings();
      let exercised = 0;
      for (const op of readsOf(ctx, ops)) {
        const path = await ids.fill(op.path);
        if (!path) continue;
        exercised++;
        try {
          await forAll(
            ctx,
            queryArbitrary(op, specQueryParameters(ctx.schemas.document, op), await ids.knownQuery(op)),
            async (query, api) => {
              const res = await api.get(path, query);
              // The path names an object of the run's own (nothing else was listed): another check may have removed it.
              if (res.status === 404 && ids.namesRunOwn(path))
                throw new NotExercised(`${where(op)}: ${path} names an object of this run's own that was removed meanwhile`);
              // A spec'd read that is missing or broken is its owner check's one failure: this one is blocked under it.
              const section = specSectionOf(op.key);
              // A 404 to a value the check made up (a filter naming no folder) is the server's answer to it, not a missing route.
              if (section && section !== "E14" && ((res.status === 404 && !namesMadeUpValue(query)) || res.status === 405 || res.status >= 500))
                ctx.require(res, section as Endpoint, `a read the document lists (${op.method} ${op.path})`);
              const c = contradiction(op, res, schemas);
              if (c) ctx.expect.fail(`${where(op)}: ${c.what}`, { expected: c.expected, got: c.got, res, reason: c.reason });
            },
            READ_BUDGET,
          );
        } catch (err) {
          // Every case of this read met an object of the run's own removed meanwhile: it was not exercised.
          if (err instanceof NotExercised && ids.namesRunOwn(path)) {
            exercised--;
            continue;
          }
          if (!(err instanceof CheckFailure)) throw err;
          findings.add(op, err);
        }
      }
      findings.throwIfAny();
      if (!exercised) throw new NotExercised("no read of the document could be addressed: none without placeholders, and no list named the ids of the others");
    },
  },
  {
    id: "documented.reads.invalid-query-refused",
    spec: "E14; Versioning 1",
    level: "SHOULD",
    title:
      "A read whose query breaks a rule its document states (type, enum, bounds, date format) is refused with a 4xx; a page size past its documented maximum may instead be answered with at most that many items",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const { ops, ids } = await setUp(ctx);
      const findings = new Findings();
      const reads: { op: (typeof ops)[number]; path: string; c: ReturnType<typeof invalidQueryValues>[number] & { name: string } }[] = [];
      for (const op of readsOf(ctx, ops)) {
        const path = await ids.fill(op.path);
        const cases = op.parameters
          .filter((p) => p.in === "query")
          .flatMap((p) => invalidQueryValues(p).map((c) => ({ ...c, name: p.name })))
          .slice(0, INVALID_PER_OPERATION);
        if (path) reads.push(...cases.map((c) => ({ op, path, c })));
      }
      const sent = reads.slice(0, INVALID_IN_ALL);
      // Reads change nothing: side by side, judged in order.
      const answers = await sideBySide(sent, ({ path, c }) => ctx.api.get(path, { [c.name]: c.value }));
      for (const [i, { op, c }] of sent.entries()) {
        const res = answers[i];
        if (c.clampable !== undefined && res.status === 200 && pageHolds(res.body, c.clampable)) continue;
        if (res.status < 400 || res.status >= 500)
          findings.fail(`${where(op)}: ${c.name}=${c.value} breaks its documented ${c.breaks}, and was not refused`, {
            reason: res.status >= 500 ? "server-error" : "accepted",
            expected: "a 4xx",
            got: statusLine(res),
            res,
          });
      }
      findings.throwIfAny();
      if (!sent.length) throw new NotExercised("no read of the document states a rule of a query parameter that a query string can break");
    },
  },
  {
    id: "documented.methods.unsupported-405",
    spec: "E14; Versioning 1",
    level: "SHOULD",
    title:
      "A method the served document does not list on one of its paths is answered 405 or 404 (sent with a body that is not JSON, so nothing can be applied)",
    // A PATCH, PUT or POST however harmless its body: a read-only run sends GET only.
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const { ops, deploymentId } = await setUp(ctx);
      const findings = new Findings();
      const { probes, answers } = await unlistedMethods(ctx, ops, deploymentId);
      let told = 0;
      for (const [i, { method, path }] of probes.entries()) {
        const res = answers[i];
        // A server may parse the body before it routes: a refusal of the broken body says nothing of the method.
        if (BODY_REFUSED.has(res.status)) continue;
        told++;
        if (res.status !== 404 && res.status !== 405)
          findings.fail(`${method} ${path} is not in the document, and was not answered 405 or 404`, {
            reason: "not-405",
            expected: "405 (or 404)",
            got: statusLine(res),
            res,
          });
      }
      findings.throwIfAny();
      if (!probes.length)
        throw new NotExercised(
          "every path of the document lists PATCH, PUT and POST, or the run did not opt into the unnamed operations (--allow-unnamed-operations)",
        );
      if (!told) throw new NotExercised(`every probe's body that is not JSON was refused (${[...BODY_REFUSED].join(", ")}) before its method was judged`);
    },
  },
  {
    id: "documented.methods.allow-header",
    spec: "E14; Versioning 1",
    // HTTP's rule (RFC 9110, 15.5.6: a 405 MUST carry Allow); the spec implies it only by serving HTTP and documenting the methods.
    level: "SHOULD",
    title: "A 405 names, in Allow, the methods its path takes: at least every method the served document lists on it (RFC 9110, 15.5.6)",
    needs: ["writes", "fixture:deployment"],
    // The same probes as documented.methods.unsupported-405: a body that is not JSON applies nothing.
    shares: [],
    reasons: {
      "allow-missing": { title: "A 405 answer carries an Allow header", expected: "Allow: the methods the path takes" },
      "allow-incomplete": { title: "A 405's Allow names every method the served document lists on its path", expected: "each documented method in Allow" },
    },
    async run(ctx) {
      const { ops, deploymentId } = await setUp(ctx);
      const findings = new Findings();
      const { probes, answers } = await unlistedMethods(ctx, ops, deploymentId);
      const refused = probes.flatMap((p, i) => (answers[i].status === 405 ? [{ ...p, res: answers[i] }] : []));
      for (const { method, path, res } of refused) {
        const allow = res.headers.allow;
        if (allow === undefined) {
          findings.fail(`${method} ${path} was answered 405 without an Allow header`, { reason: "allow-missing", expected: "Allow", got: "none", res });
          continue;
        }
        const named = new Set(allow.split(",").map((m) => m.trim().toUpperCase()));
        const left = ops.filter((o) => o.path === path && !named.has(o.method)).map((o) => o.method);
        if (left.length)
          findings.fail(`${method} ${path} was answered 405 with an Allow that leaves out ${left.join(", ")}, which the document lists`, {
            reason: "allow-incomplete",
            expected: "each documented method in Allow",
            got: `Allow: ${allow}`,
            res,
          });
      }
      findings.throwIfAny();
      if (!refused.length) throw new NotExercised("no method the served document does not list on a path was answered 405");
    },
  },
  {
    id: "documented.resources.create-read-delete",
    spec: "E14; Versioning 1",
    level: "SHOULD",
    title:
      "What an operation of the document creates can be read, updated, found in its list and deleted where the document places those operations (sub-resources under parents the run made), and reads 404 once deleted; settings written back as read are answered as documented",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const env = await setUp(ctx);
      const findings = new Findings();
      const { exercised, unbuilt } = await runChains(ctx, env, findings);
      const written = await roundTrips(ctx, env, findings);
      findings.throwIfAny();
      // Which resources a server lets a client create is an E14 shape: a document that shows none leaves the rule unverifiable here.
      if (!exercised && !written)
        throw new NotVerifiable(
          `the served document shows no create whose object it lets a client read or delete, and that the run may write and remove${unbuilt.length ? ` (${unbuilt.join("; ")})` : ""}`,
        );
    },
  },
  {
    id: "documented.resources.invalid-body-refused",
    spec: "E14; Versioning 1",
    level: "SHOULD",
    title: "A create whose body breaks the documented schema is refused with a 4xx, and nothing is made",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const { ops, ids, deploymentId } = await setUp(ctx);
      const findings = new Findings();
      const cases: { r: Resource; collection: string; bad: { value: unknown; kind: string; at: string } }[] = [];
      for (const [i, r] of resourcesOf(ops, ctx.settings).entries()) {
        const schema = r.create.requestBody?.media["application/json"];
        const collection = await ids.fill(r.create.path);
        if (!schema || !collection) continue;
        // A value of another type in the field that carries the run's name (a false a lax server stores as "false") could make
        // an object no cleanup can confirm as the run's: never sent. A string that breaks a bound there is still tried.
        const unconfirmable = (s: { value: unknown; at: string }) => breaksOwnName(r.create, s.at) && typeof valueAt(s.value, s.at) !== "string";
        const keyOf = (s: { kind: string; at: string; value: unknown }) => (unconfirmable(s) ? undefined : `${s.kind}:${placeOf(s.at)}`);
        let badBodies: { value: unknown; kind: string; at: string }[];
        try {
          const breaks = invalidValues(schema, { maxItems: 1, nullIsAbsent: true });
          // Each kind of break at each place on every run (an empty required name once showed at some seeds only), and a few
          // drawn at the run's seed beside them: other values of the same breaks.
          const everyRun = onePerPlace(breaks, { keyOf, cap: INVALID_BODIES_PER_CREATE });
          const drawn = fc
            .sample(breaks, { seed: propertySeed(ctx.settings.seed, `${ctx.checkId}:${i}`), numRuns: 10 })
            .filter((s) => keyOf(s) !== undefined)
            .slice(0, DRAWN_BODIES_PER_CREATE);
          badBodies = [...everyRun, ...drawn];
        } catch {
          continue; // a schema with no rule to break
        }
        cases.push(...badBodies.map((bad) => ({ r, collection, bad })));
      }
      // The ids each collection lists before: an object a bad body made anyway, with no field to carry the run's name (a token
      // whose secret is write-only), is the run's when its id was not listed before and the create's answer named it.
      const before = new Map<string, Promise<(record: unknown) => boolean>>();
      for (const { collection } of cases) if (!before.has(collection)) before.set(collection, madeSince(ctx, collection));
      // Each bad body is a request of its own, refused or making an object of its own: side by side, judged in order.
      const answers = await sideBySide(cases, ({ r, collection, bad }) => ctx.api.post(collection, ownNamed(ctx, r.create, bad.value, bad.at)));
      for (const [k, { r, collection, bad }] of cases.entries()) {
        const res = answers[k];
        if (res.status >= 200 && res.status < 300) {
          const id = createdId(r, res);
          if (id) removeLater(ctx, r, r.remove ? await itemPath(ids, r.remove, id) : undefined, res, deploymentId, await before.get(collection)!);
        }
        if (res.status < 400 || res.status >= 500)
          findings.fail(`${where(r.create)}: a body with ${bad.kind} at ${bad.at || "(root)"} was not refused`, {
            reason: res.status >= 500 ? "server-error" : "applied",
            expected: "a 4xx, nothing made",
            got: statusLine(res),
            res,
          });
      }
      const sent = cases.length;
      findings.throwIfAny();
      if (!sent) throw new NotVerifiable("the served document shows no create the run may write and remove with a schema that states a rule to break");
    },
  },
]);

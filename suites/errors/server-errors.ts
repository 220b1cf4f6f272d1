import fc from "fast-check";
import { offSchema } from "../../core/transport/client.js";
import type { Api } from "../../core/transport/api.js";
import { groupedById } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { DEFAULT_REQUEST_BUDGET, forAll, CASES_AT_ONCE } from "../../core/run/property.js";
import { anyPageSize, invalidValues, longText, securityContext, text, validValues, type Schema } from "../../generators/index.js";
import { tokenParams } from "../lib/metadata-token.js";
import { createFolder, createWorkbook } from "../lib/scratch-items.js";
import { peek } from "../lib/streamed.js";
import { trackAnswered } from "../lib/workbook-writes.js";
import { fillPath } from "../../core/api/match.js";
import { tableEdges } from "../../generators/classes.js";
import { classReads } from "./class-reads.js";
import { type Param, type Read, type ReadRequest, readsOf, readsValid, written } from "./reads.js";

/**
 * Errors 2 lists the statuses the service uses, and none is a 5xx: a 5xx for what a client sent is
 * a server bug. For a valid request that is a MUST; how to answer an invalid one the spec does not
 * say, so there it is a SHOULD. The reads come from the contract itself: every GET of E1-E13 in
 * the OpenAPI document, its parameters drawn from their schemas.
 */

/** The edges the input-domain table names for a parameter, as a URL carries them, that its schema accepts (`valid`) or refuses. */
function edgesOf(r: Read, p: Param, valid: boolean): string[] {
  return tableEdges(r.operation, p.name)
    .filter((v) => v !== undefined)
    .map(written)
    .filter((v) => readsValid(p.schema, v) === valid);
}

/** A parameter's own draws, and as often the table's edges of it (a leap day, a page size far beyond any cap). */
const withEdges = (own: fc.Arbitrary<string>, edges: string[]) => (edges.length ? fc.oneof(own, fc.constantFrom(...edges)) : own);

/**
 * Valid values, where the schema allows more than a server can mean: page sizes and offsets from
 * small to large (no maximum is published), the deployment under test, and no `after`: a cursor
 * is one the server issued, which no generator can make up.
 */
function validParam(ctx: CheckContext, r: Read, p: Param): fc.Arbitrary<string> | undefined {
  if (p.name === "deploymentId") return fc.constant(ctx.fixture("deployment").id);
  if (p.name === "after") return undefined;
  const edges = edgesOf(r, p, true);
  if (p.name === "first" || p.name === "limit") return withEdges(anyPageSize().map(String), edges);
  if (p.name === "offset") return withEdges(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 101, max: 100_000 })).map(String), edges);
  return withEdges(validValues(p.schema).map(written), edges);
}

function validRead(ctx: CheckContext, r: Read): fc.Arbitrary<ReadRequest> {
  const model = (where: string) =>
    Object.fromEntries(
      r.params
        .filter((p) => p.in === where)
        .flatMap((p) => {
          const arb = validParam(ctx, r, p);
          return arb ? [[p.name, arb]] : [];
        }),
    );
  const requiredQuery = r.params.filter((p) => p.in === "query" && p.required).map((p) => p.name);
  return fc
    .record({
      path: fc.record(model("path"), { noNullPrototype: true }),
      query: fc.record(model("query"), { requiredKeys: requiredQuery, noNullPrototype: true }),
    })
    .map(({ path, query }) => ({ spec: r.spec, template: r.template, path: path as Record<string, string>, query: query as Record<string, string> }));
}

/** Any text is a valid value of a string parameter that names no enum, pattern, format or length. */
const takesAnyText = (s: Schema) => [s.type].flat().includes("string") && !["enum", "const", "pattern", "format", "minLength", "maxLength"].some((k) => k in s);

/** A valid read with one parameter broken: a value its schema refuses, a made-up cursor, an id that is none. */
function invalidRead(ctx: CheckContext, r: Read): fc.Arbitrary<ReadRequest> | undefined {
  const breaks = r.params.flatMap((p): fc.Arbitrary<[Param, string]>[] => {
    const own =
      p.name === "after"
        ? text(1, 24)
        : p.in === "path"
          ? text(1, 16).filter((v) => v.trim() !== "" && !/^\d+$/.test(v))
          : takesAnyText(p.schema)
            ? undefined
            : invalidValues(p.schema)
                .map((c) => written(c.value))
                .filter((v) => !readsValid(p.schema, v));
    const edges = p.in === "path" ? edgesOf(r, p, false).filter((v) => v.trim() !== "") : edgesOf(r, p, false);
    const value = own ? withEdges(own, edges) : edges.length ? fc.constantFrom(...edges) : undefined;
    return value ? [value.map((v): [Param, string] => [p, v])] : [];
  });
  if (!breaks.length) return undefined;
  return fc
    .tuple(validRead(ctx, r), fc.oneof(...breaks))
    .map(([req, [p, v]]) =>
      p.in === "path" ? { ...req, path: { ...req.path, [p.name]: v }, broken: p.name } : { ...req, query: { ...req.query, [p.name]: v }, broken: p.name },
    );
}

/** Sent as a stream and read no further than an error message: an export may be large. */
async function sendRead(api: Api, req: ReadRequest): Promise<Response> {
  const path = fillPath(req.template, req.path);
  return peek(await api.stream(path, req.query));
}

const describeRead = (req: ReadRequest) => `GET ${req.template} (${req.spec})${req.broken ? ` with an invalid ${req.broken}` : ""}`;

function expectNoServerError(ctx: CheckContext, res: Response, what: string): void {
  ctx.expect.that(res.status < 500, `${what} gets no server error`, { reason: "server-error", expected: "a status below 500", got: res.status, res });
}

/**
 * The table's class cases of the reads first (one request each, suites/errors/class-reads.ts), then
 * the random search within what is left of the property's budget: the classes share it, so the run
 * sends no more than before and every class is sent whatever the seed.
 */
async function readProperty(ctx: CheckContext, valid: boolean, request: (r: Read) => fc.Arbitrary<ReadRequest> | undefined): Promise<void> {
  const reads = readsOf(ctx.schemas.document);
  const cases = await classReads(ctx, reads, valid);
  for (let i = 0; i < cases.length; i += CASES_AT_ONCE) {
    const batch = cases.slice(i, i + CASES_AT_ONCE);
    const answers = await Promise.all(batch.map((c) => sendRead(ctx.api, c.req)));
    answers.forEach((res, j) => expectNoServerError(ctx, res, `${describeRead(batch[j].req)}, ${batch[j].what}`));
  }
  const requests = reads.flatMap((r) => request(r) ?? []);
  // Reads change nothing another case reads.
  return forAll(ctx, fc.oneof(...requests), async (req, api) => expectNoServerError(ctx, await sendRead(api, req), describeRead(req)), {
    casesAtOnce: CASES_AT_ONCE,
    maxRequests: Math.max(DEFAULT_REQUEST_BUDGET - cases.length, SEARCH_AT_LEAST),
  });
}

/** The random search keeps this much of the budget however many classes the table names: enough for a verdict and some shrinking. */
const SEARCH_AT_LEAST = 30;

// ---------------------------------------------------------------- writes

interface Write {
  spec: "E3" | "E10" | "E11" | "E12";
  body: unknown;
  /** E11: the slug, after the run's prefix. */
  slug?: string;
}

/** Short text mostly, and a third of the time hundreds to thousands of characters (up to `max`): no length limit is published. */
const sometimesLong = (short: fc.Arbitrary<string>, max = 4000) => fc.oneof({ arbitrary: short, weight: 2 }, { arbitrary: longText(200, max), weight: 1 });

/** meta (any properties, E11): a few keys, values of any JSON type, some of them long strings. */
const longMeta = fc
  .dictionary(text(1, 12), fc.oneof(fc.jsonValue({ maxDepth: 1 }), longText()), { maxKeys: 3, noNullPrototype: true })
  .map((m) => JSON.parse(JSON.stringify(m)));

/**
 * Valid writes that act only on what the run owns: tokens (nothing to undo), upserts under the
 * run's slugs and names, clones and moves of the run's own workbook between the root and the run's
 * own folder. Generated text goes after the run's prefix, so every name and slug stays the run's.
 */
async function validWrites(ctx: CheckContext): Promise<{ writes: fc.Arbitrary<Write>; send: (api: Api, w: Write) => Promise<Response> }> {
  const dep = ctx.fixture("deployment").id;
  const folder = await createFolder(ctx, dep);
  const own = await createWorkbook(ctx, dep);
  const slugPrefix = ctx.scratch.slug("any");
  const namePrefix = ctx.scratch.name("any");
  const derived = (
    name: "MetadataTokenRequest" | "CloneWorkbookRequest" | "UpsertWorkbookRequest" | "BulkMoveRequest",
    overrides: Record<string, fc.Arbitrary<unknown>> = {},
  ) => validValues(ctx.schemas.schema(name), { overrides });
  const writes = fc.oneof(
    derived("MetadataTokenRequest", { "/security_context": securityContext(), "/expires_in": fc.integer({ min: 1, max: 3600 }) }).map(
      (body): Write => ({ spec: "E3", body }),
    ),
    derived("CloneWorkbookRequest").map((body): Write => ({ spec: "E10", body })),
    fc
      .tuple(
        sometimesLong(text(1, 12), 1000),
        derived("UpsertWorkbookRequest", {
          "/name": sometimesLong(text(0, 24)).map((t) => `${namePrefix} ${t}`),
          "/folderId": fc.constantFrom(folder.id, null),
          "/meta": longMeta,
        }),
      )
      .map(([slug, body]): Write => ({ spec: "E11", slug: `${slugPrefix}-${slug}`, body })),
    derived("BulkMoveRequest", { "/items": fc.constantFrom([own], []), "/folderId": fc.constantFrom(folder.id, null) }).map(
      (body): Write => ({ spec: "E12", body }),
    ),
  );
  const send = async (api: Api, w: Write): Promise<Response> => {
    switch (w.spec) {
      case "E3":
        return api.call("createMetadataToken", tokenParams(ctx), { body: offSchema(w.body) });
      case "E10": {
        const res = await api.call("duplicateWorkbook", { deploymentId: dep, workbookId: own.id }, { body: offSchema(w.body) });
        trackAnswered(ctx.scratch, dep, res);
        return res;
      }
      case "E11": {
        const res = await api.call("upsertWorkbookBySlug", { deploymentId: dep, slug: w.slug! }, { body: offSchema(w.body) });
        trackAnswered(ctx.scratch, dep, res);
        return res;
      }
      case "E12":
        return api.call("bulkMoveWorkspaceItems", { deploymentId: dep }, { body: offSchema(w.body) });
    }
  };
  return { writes, send };
}

export const serverErrorChecks = groupedById([
  {
    id: "errors.no-5xx.valid-reads",
    spec: "E1, E2, E5, E7, E8, E9, E13 (Response 200 to a valid request); Errors 2",
    level: "MUST",
    title: "No valid read of E1-E13 (any page size, offset, filter, date, search text or id the parameters' schemas allow) gets a 5xx",
    kind: "property",
    needs: ["fixture:deployment"],
    run: (ctx) => readProperty(ctx, true, (r) => validRead(ctx, r)),
  },
  {
    id: "errors.no-5xx.invalid-reads",
    spec: "Errors 2; E1, E2, E5, E7, E8, E9, E13 (answer to an invalid parameter not shown)",
    level: "SHOULD",
    title: "No read of E1-E13 with one invalid parameter (out of range, of the wrong type, a made-up cursor or id) gets a 5xx",
    kind: "property",
    needs: ["fixture:deployment"],
    run: (ctx) => readProperty(ctx, false, (r) => invalidRead(ctx, r)),
  },
  {
    id: "errors.no-5xx.valid-writes",
    spec: "E3, E10, E11, E12 (Response 200 to a valid request); Errors 2",
    level: "MUST",
    title: "No valid token request, clone, upsert (any slug, name or meta, short or thousands of characters long) or bulk move gets a 5xx",
    kind: "property",
    needs: ["writes", "fixture:deployment", "fixture:environment"],
    async run(ctx) {
      const { writes, send } = await validWrites(ctx);
      // Only the status is judged, and each case's objects are its own: cases side by side.
      await forAll(ctx, writes, async (w, api) => expectNoServerError(ctx, await send(api, w), `a valid ${w.spec} request`), {
        casesAtOnce: CASES_AT_ONCE,
      });
    },
  },
]);

import fc from "fast-check";
import type { CheckSpec, Need } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Endpoint } from "../../core/api/endpoints.js";
import { forAll, CASES_AT_ONCE } from "../../core/run/property.js";
import type { BadBody, Stage } from "./negative-bodies.js";
import { atOnce } from "./at-once.js";
import { CheckFailure } from "../../core/model/outcome.js";
import { valueAt } from "./lenient-reading.js";
import { onePerPlace, placeOf } from "./each-place.js";

/** Places of one part given a wrong type on every run, the shallowest first: within a property's budget, beside its drawn cases. */
const WRONG_TYPE_PLACES = 12;

/**
 * One wrongly typed case at each place of a part's body, taken from the part's own cases at a
 * fixed seed (so each stage's own filters and renamings hold): sent on every run, as the bodies
 * that are not JSON are. Drawn among the cases, the Perl server's reading of an object as a
 * branchName beside a branchId came on some seeds only. An object or an array is preferred at a
 * place that holds neither: no lenient reading spells a scalar with one. A deep body's places (a
 * dashboard draft's) are taken the shallowest first.
 */
function wrongTypeAtEachPlace(cases: fc.Arbitrary<BadBody>): BadBody[] {
  const container = (bad: BadBody) => {
    const v = valueAt(bad.body, bad.at);
    return typeof v === "object" && v !== null;
  };
  return onePerPlace(cases, {
    keyOf: (bad) => (bad.kind === "wrong-type" ? placeOf(bad.at) : undefined),
    cap: WRONG_TYPE_PLACES,
    better: (held, bad) => !container(held) && container(bad),
  });
}

const describe = (bad: BadBody) => (bad.kind === "malformed-json" ? "a body that is not JSON" : `a body with ${bad.kind} at ${bad.at || "the root"}`);

/** One endpoint of a negative property: how to set it up, which of its cases the property sends, and the status they must get (else any 4xx). */
export interface Part {
  endpoint: string;
  stage: (ctx: CheckContext) => Promise<Stage>;
  select: (bad: BadBody) => boolean;
  status?: (bad: BadBody) => number[] | undefined;
}

export const everything = () => true;

/**
 * What a property judges of each case. "rejected": a 4xx (or the status a part names), and
 * nothing changed. "not-applied": where the spec names no status for the break, what it does
 * state: no server error, and nothing changed (a status a part names is still judged).
 */
export type Judged = "rejected" | "not-applied";

/**
 * The property: every case the parts select is judged as `judged` says. Endpoints whose rules
 * the spec fixes to the same degree share one property. A trial is a short session of up to
 * three bad requests, each to one endpoint; shrinking leaves the one that is not refused. A 2xx to
 * a case a lenient server may read as valid is that reading, not a break: it is checked for
 * faithfulness where it can be, and the state put back. Cases run at once (core/run/property.ts,
 * sharedObject): while each is refused, none changes what another reads. `independent`: not even a
 * case that is taken does (it makes only what it alone reads, such as a token).
 * `maxRequests`: the property's budget, where it is not the default (core/run/property.ts).
 */
export function negative(
  o: Pick<CheckSpec, "id" | "spec" | "level" | "title"> & { needs: Need[]; parts: Part[]; judged?: Judged; independent?: boolean; maxRequests?: number },
): CheckSpec {
  const judged = o.judged ?? "rejected";
  return {
    id: o.id,
    spec: o.spec,
    level: o.level,
    title: o.title,
    kind: "property",
    needs: o.needs,
    async run(ctx) {
      // Each part stages objects of its own: all at once.
      const stages = await atOnce(o.parts.map((p) => p.stage(ctx)));
      const parts: (Part & Stage)[] = o.parts.map((p, i) => ({ ...p, ...stages[i] }));
      const cases = fc.oneof(...parts.map((p) => p.cases.filter(p.select).map((bad) => ({ endpoint: p.endpoint, ...bad }))));
      // Each part's bodies that are not JSON as a lenient parser takes them, each a session of its own on every run.
      const notJson = parts.flatMap((p) => p.notJson.filter(p.select).map((bad) => [{ endpoint: p.endpoint, ...bad }]));
      // And a wrong type at each place of each part's body, each a session of its own on every run.
      const wrongTypes = parts.flatMap((p) => wrongTypeAtEachPlace(p.cases.filter(p.select)).map((bad) => [{ endpoint: p.endpoint, ...bad }]));
      // The parts a case left moved when it ended on a failure: the next case puts them back first.
      const leftMoved = new Set<Part & Stage>();
      await forAll(
        ctx,
        fc.array(cases, { minLength: 1, maxLength: 3 }),
        async (session, api) => {
          for (const p of [...leftMoved]) {
            await p.restore(api);
            leftMoved.delete(p);
          }
          const moved = new Set<Part & Stage>();
          try {
            for (const bad of session) {
              const part = parts.find((p) => p.endpoint === bad.endpoint)!;
              moved.add(part);
              const res = await part.send(api, bad);
              // Where only what is stated is judged, a case the spec gives no outcome may also be read without its unusable part.
              const lenient = part.lenient(bad) || (judged === "not-applied" && (part.ignorable?.(bad) ?? false));
              if (res.status < 300 && lenient) {
                await part.faithful?.(api, bad, res);
                await part.restore(api);
                moved.delete(part);
                continue;
              }
              const status = part.status?.(bad);
              const what = `${bad.endpoint}: ${describe(bad)}`;
              // A missing route refuses everything: that proves nothing about the body.
              ctx.requireRoute(res, /^E\d+$/.test(bad.endpoint) ? (bad.endpoint as Endpoint) : "E14", what);
              if (status) ctx.expect.status(res, status, `${what} is rejected`);
              else if (judged === "rejected") ctx.expect.clientError(res, `${what} is rejected with a 4xx`);
              else
                ctx.expect.that(res.status < 500, `${what} is no server error`, {
                  expected: "a status below 500",
                  got: `${res.status}`,
                  res,
                  reason: "no-5xx",
                });
              await part.unchanged(api, res).catch((e: unknown) => {
                if (e instanceof CheckFailure) e.stateChange = true;
                throw e;
              });
              moved.delete(part);
            }
          } finally {
            for (const p of moved) leftMoved.add(p);
          }
        },
        // Cases that each should be refused run at once; one whose write was taken has them judged one at a time (sharedObject).
        { casesAtOnce: CASES_AT_ONCE, sharedObject: !o.independent, maxRequests: o.maxRequests, examples: [...notJson, ...wrongTypes] },
      );
    },
  };
}

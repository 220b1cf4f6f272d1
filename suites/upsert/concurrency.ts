import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkAgainUntil, walkCursor, wholeList } from "../../core/transport/pagination.js";
import { ownWorkbook, putBySlug, workbookPath } from "../lib/workbook-writes.js";
import { pathTo } from "../../core/transport/client.js";
import { Together } from "../../core/transport/together.js";

const WRITERS = 12;
const RETRIES = 5;
/** Races run, each on a fresh slug, until one meets a 409: the window may be narrow on a real server. */
const RACES = 3;
/**
 * How long the race's first request holds its last byte for the others at most: they all reach a
 * server with a connection each in milliseconds; only one that queues requests ever waits this long.
 */
const HOLD_MS = 2_000;

export interface Writer {
  body: { name: string; meta: Record<string, number> };
  res: Response;
}

export interface Race {
  slug: string;
  writers: Writer[];
}

type RaceCtx = Pick<CheckContext, "api" | "scratch" | "require">;

/**
 * E11 rule 5's scenario: on a fresh slug whose workbook exists, `writers` upserts and, among them,
 * a bulk delete of that workbook, all sent at once. Writers decided before the delete find their
 * workbook gone when they apply, and those after it race to create the next one: both are the
 * "another writer created or deleted" case. Each writer sends its own meta key. The requests hold
 * their last byte until all are sent (core/transport/together.ts): the server holds them whole at
 * once, and the race does not depend on how fast this machine sends them.
 */
export async function raceOnSlug(ctx: RaceCtx, dep: string, writers = WRITERS): Promise<Race> {
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
  await ctx.scratch.requireOwn(ctx.api, dep, [{ type: "WORKBOOK", id: workbook.id }]);
  // Each writer may create (after the delete): it sends the name too, as a careful client does (required-ness is not shown).
  const bodies = Array.from({ length: writers }, (_, i) => ({ name: workbook.name, meta: { [`writer${i}`]: i } }));
  const together = new Together(writers + 1, HOLD_MS);
  const send = (body: Writer["body"]) => putBySlug(ctx.scratch, ctx.api, dep, slug, body, together);
  const half = Math.floor(writers / 2);
  const early = bodies.slice(0, half).map(send);
  const deletion = ctx.api.call("bulkDeleteWorkspaceItems", { deploymentId: dep }, { body: { items: [{ type: "WORKBOOK", id: workbook.id }] }, together });
  const late = bodies.slice(half).map(send);
  const [answers] = await Promise.all([Promise.all([...early, ...late]), deletion]);
  return { slug, writers: bodies.map((body, i) => ({ body, res: answers[i] })) };
}

/**
 * E11's other race: `writers` upserts of a fresh slug that no workbook holds, all sent at once,
 * each with its own meta key: each may decide to create, and only one may.
 */
async function raceToCreate(ctx: RaceCtx, dep: string, writers = WRITERS): Promise<Race> {
  const slug = ctx.scratch.slug("race-create");
  const name = ctx.scratch.name("race-create");
  const bodies = Array.from({ length: writers }, (_, i) => ({ name, meta: { [`writer${i}`]: i } }));
  const together = new Together(writers, HOLD_MS);
  const answers = await Promise.all(bodies.map((body) => putBySlug(ctx.scratch, ctx.api, dep, slug, body, together)));
  return { slug, writers: bodies.map((body, i) => ({ body, res: answers[i] })) };
}

/**
 * After a race and its retries: one more upsert, sent alone, names the slug's holder; every
 * workbook a 200 of the race named that still exists is that one, and E8 lists no other with the slug.
 */
async function expectOneHolder(ctx: CheckContext, dep: string, race: Race, retried: { res: Response }[]): Promise<void> {
  const last = await putBySlug(ctx.scratch, ctx.api, dep, race.slug, { name: race.writers[0].body.name, meta: { settled: 1 } });
  const holder = ctx.expect.ok(last, "Workbook").id;
  const answered = [...race.writers.map((w) => w.res), ...retried.map((r) => r.res), last]
    .filter((r) => r.status === 200 && r.isJson)
    .map((r) => r.body?.id)
    .filter(Number.isSafeInteger);
  const existing: number[] = [];
  for (const id of new Set(answered)) if ((await ctx.api.get(workbookPath(dep, id))).status === 200) existing.push(id);
  ctx.expect.equal(existing, [holder], "the workbooks the race answered with that still exist: only the one the slug reaches", {
    res: last,
    reason: "one-holder",
  });
  // Other checks add and delete workbooks beside the race: a walk may miss the holder (a cursor that is a position), never list one twice.
  const holdersIn = (items: any[]) => items.filter((w: any) => typeof w?.slug === "string" && w.slug === race.slug).map((w: any) => w.id);
  const listed = (
    await walkAgainUntil(
      async () => wholeList(await walkCursor(ctx.api, pathTo("listWorkbooks", { deploymentId: dep }), { first: 100 }), "workbooks"),
      (walk) => holdersIn(walk.items).includes(holder),
    )
  ).items;
  const holders = holdersIn(listed);
  if (listed.some((w: any) => typeof w?.slug === "string"))
    ctx.expect.equal(holders, [holder], "the workbooks E8 lists with the slug", { res: last, reason: "one-holder" });
}

/**
 * Races until one meets a 409, or any answer but 200 (at most RACES); a server that answered every
 * racer 200 never showed the rule's scenario: not exercised, whatever its window.
 */
async function raceUntilConflict(ctx: RaceCtx, dep: string): Promise<Race> {
  let sent = 0;
  for (let i = 1; i <= RACES; i++) {
    const race = await raceOnSlug(ctx, dep);
    sent += race.writers.length;
    if (race.writers.some((w) => w.res.status !== 200)) return race;
  }
  throw new NotExercised(`${sent} concurrent upserts in ${RACES} races with a delete of the slug's workbook, no 409 observed`);
}

/** The statuses a race was answered with, for a scenario that did not happen. */
const answersOf = (race: Race) => `answers: ${[...new Set(race.writers.map((w) => w.res.status))].join(", ")}`;

/** Each writer answered 409 sends its request again, one at a time, up to RETRIES times; its last answer. */
async function retryConflicts(ctx: RaceCtx, dep: string, race: Race): Promise<{ writer: number; tries: number; res: Response }[]> {
  const out: { writer: number; tries: number; res: Response }[] = [];
  for (const [i, w] of race.writers.entries()) {
    if (w.res.status !== 409) continue;
    let res = w.res;
    let tries = 0;
    while (res.status === 409 && tries < RETRIES) {
      res = await putBySlug(ctx.scratch, ctx.api, dep, race.slug, w.body);
      tries++;
    }
    out.push({ writer: i, tries, res });
  }
  return out;
}

export const upsertConcurrencyChecks = group("upsert", [
  {
    id: "upsert.concurrency.conflict-answers",
    spec: "E11 rule 5; Errors 2",
    level: "MUST",
    title: "Upserts racing with a create or delete of the slug's workbook answer 200 or 409 with code upsert_branch_changed, never anything else",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const race = await raceUntilConflict(ctx, ctx.fixture("deployment").id);
      for (const [i, { res }] of race.writers.entries()) {
        ctx.expect.status(res, [200, 409], `racing writer ${i}`);
        if (res.status === 409) ctx.expect.schema(ctx.expect.json(res), "ConflictError", res, `the 409 body of racing writer ${i}`);
        else ctx.expect.schema(ctx.expect.json(res), "Workbook", res, `the 200 body of racing writer ${i}`);
      }
    },
  },
  {
    id: "upsert.concurrency.conflict-retry-succeeds",
    spec: "E11 rule 5; Errors 2 (409: transient, retry)",
    level: "MUST",
    title: "An upsert answered 409 upsert_branch_changed succeeds when retried",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const race = await raceUntilConflict(ctx, dep);
      const retried = await retryConflicts(ctx, dep, race);
      if (!retried.length) throw new NotExercised(`the race met no 409 to retry (${answersOf(race)})`);
      for (const { writer, tries, res } of retried) ctx.expect.status(res, 200, `racing writer ${writer}'s request, retried ${tries} time(s) after its 409`);
    },
  },
  {
    id: "upsert.concurrency.one-workbook-per-slug",
    spec: "E11 rules 2 and 5",
    level: "MUST",
    title: "After upserts race with a delete on one slug, exactly one workbook holds the slug",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const race = await raceOnSlug(ctx, dep);
      const retried = await retryConflicts(ctx, dep, race);
      // The delete may have come last; one more upsert makes sure the slug is held.
      await expectOneHolder(ctx, dep, race, retried);
    },
  },
  {
    id: "upsert.concurrency.absent-slug-one-workbook",
    spec: "E11 rules 2 and 5",
    level: "MUST",
    title: "Upserts racing to create one absent slug leave exactly one workbook holding it: the others update it or answer 409",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const race = await raceToCreate(ctx, dep);
      const retried = await retryConflicts(ctx, dep, race);
      // Any writer may lose the race (409, then retried): only a race that no writer won says nothing of the rule.
      const answers = [...race.writers.map((w) => w.res), ...retried.map((r) => r.res)];
      if (!answers.some((r) => r.status === 200)) ctx.require(answers.find((r) => r.status !== 409) ?? answers[0], "E11", "creating a workbook by slug");
      await expectOneHolder(ctx, dep, race, retried);
    },
  },
  {
    id: "upsert.concurrency.conflict-not-applied",
    spec: "E11 rule 5 (409: the request is not applied)",
    level: "MUST",
    title: "An upsert answered 409 upsert_branch_changed is not applied: no workbook of the race holds the meta key that only that request sent",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const race = await raceUntilConflict(ctx, dep);
      const refused = race.writers.filter((w) => w.res.status === 409).flatMap((w) => Object.keys(w.body.meta));
      if (!refused.length) throw new NotExercised(`the race met no 409 (${answersOf(race)})`);
      // The delete may have come last, or every writer decided before it: one more upsert makes sure the slug is held,
      // so that a refused request applied late (to the slug's next holder) is seen whatever the race's interleaving.
      // It is sent alone after every answer, so it names the slug's holder once the race is over; a 409 (a writer
      // the server still handles) is retried like any other (rule 5: it can be retried).
      let settled = await putBySlug(ctx.scratch, ctx.api, dep, race.slug, { name: race.writers[0].body.name, meta: { settled: 1 } });
      for (let tries = 0; settled.status === 409 && tries < RETRIES; tries++)
        settled = await putBySlug(ctx.scratch, ctx.api, dep, race.slug, { name: race.writers[0].body.name, meta: { settled: 1 } });
      // The workbooks a refused request could have reached: those the race created (its first holder was deleted in it) and the holder now.
      const answered = new Set(
        [...race.writers.map((w) => w.res), settled]
          .filter((r) => r.status === 200 && r.isJson)
          .map((r) => r.body?.id)
          .filter(Number.isSafeInteger),
      );
      for (const id of answered) {
        const read = await ctx.api.get(workbookPath(dep, id));
        if (read.status === 404) continue;
        const meta = ctx.expect.ok(read, "Workbook").meta ?? {};
        const applied = refused.filter((k) => k in meta);
        ctx.expect.that(applied.length === 0, `workbook ${id} holds no meta key of a request answered 409`, {
          expected: `none of ${refused.join(", ")}`,
          got: applied,
          res: read,
          reason: "conflict-applied",
        });
      }
    },
  },
]);

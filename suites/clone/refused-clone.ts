import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkAgainUntil, walkCursor } from "../../core/transport/pagination.js";
import { TOOL_PREFIX } from "../../core/ledger/scratch.js";
import { workbooksPath } from "../lib/workbook-calls.js";
import { workbookPath } from "../lib/workbook-writes.js";

/**
 * What a refused clone (E10) could have made: a workbook named `Copy of {source name}` (rule 1)
 * that E8 did not list before the refusal. Other checks create workbooks in the same deployment
 * beside the refusal, so only such copies count, compared by id; where the caller cannot read the
 * source's name, any new `Copy of …` the tool did not name (a run's own copies are `Copy of cf-…`).
 */
export interface CopiesBefore {
  source: number;
  isCopy: (name: unknown) => boolean;
  /** Undefined when the list runs past the page budget: the refusal is still judged, what it left is not. */
  ids?: Set<number>;
}

/** The workbooks E8 lists in the deployment, over every page; undefined past the run's page budget (a part proves no absence). */
async function listed(ctx: CheckContext, dep: string): Promise<any[] | undefined> {
  const walk = await walkCursor(ctx.api, workbooksPath(dep), { first: 100, endpoint: "E8" });
  return walk.partial ? undefined : walk.items;
}

/** The copies of `source` E8 lists before the clone that must be refused. */
export async function copiesBefore(ctx: CheckContext, dep: string, source: number): Promise<CopiesBefore> {
  const items = await listed(ctx, dep);
  let name = items?.find((w) => w?.id === source)?.name;
  if (typeof name !== "string") {
    const read = await ctx.api.get(workbookPath(dep, source));
    name = read.status === 200 && read.isJson ? read.body?.name : undefined;
  }
  const isCopy =
    typeof name === "string"
      ? (n: unknown) => n === `Copy of ${name}`
      : (n: unknown) => typeof n === "string" && n.startsWith("Copy of ") && !n.startsWith(`Copy of ${TOOL_PREFIX}`);
  return { source, isCopy, ids: items && new Set(items.filter((w) => isCopy(w?.name)).map((w) => w.id)) };
}

/**
 * After the refusal `res`: E8 lists no copy of the source it did not list before. One walk shows a
 * copy; its absence only when every walk agrees (a position cursor skips items deleted beside it).
 */
export async function expectNoCopyMade(ctx: CheckContext, dep: string, before: CopiesBefore, res: Response, what: string): Promise<void> {
  const known = before.ids;
  if (!known) throw new NotExercised(partial(dep));
  const made = (items: any[]) => items.filter((w) => before.isCopy(w?.name) && !known.has(w.id)).map((w) => w.id);
  const items = await walkAgainUntil(
    () => listed(ctx, dep),
    (all) => !all || made(all).length > 0,
  );
  if (!items) throw new NotExercised(partial(dep));
  ctx.expect.equal(made(items), [], `${what}: E8 lists no new copy of workbook ${before.source} in deployment ${dep}`, { res, reason: "nothing-created" });
}

const partial = (dep: string) =>
  `partial walk: the workbooks list of deployment ${dep} runs past the page budget (--max-pages), so no read shows that the refused clone made nothing`;

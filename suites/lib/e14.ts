import type { CheckContext } from "../../core/context.js";
import type { Response } from "../../core/http.js";
import { NotVerifiable } from "../../core/outcome.js";
import { field, listed, ServedDocument, type ServedOperation } from "../../core/served-operations.js";

/**
 * What the checks of E14 rules share: the paths of the families the spec names, the server's own
 * document to spell requests by, and the scratch objects they create (each removed at cleanup).
 * A family the server does not document, or a setup request it does not answer, makes the check
 * not verifiable there: the spec shows none of these shapes.
 */
export const api1 = (dep: string) => `/api/v1/deployments/${dep}`;
export const build1 = (dep: string) => `/build/api/v1/deployments/${dep}`;

/** A setup answer the check builds on: 2xx JSON, else not verifiable (E14) or skipped (401/403). */
export function setup<T = any>(ctx: CheckContext, res: Response, what: string, usable?: (r: Response) => boolean): T {
  return ctx.require<T>(res, "E14", what, usable);
}

export async function documented(ctx: CheckContext): Promise<ServedDocument> {
  return ServedDocument.load(ctx.api);
}

/** The records of a list answer, or a failure: the rule is about what the list holds. */
export function records(ctx: CheckContext, res: Response, what: string): any[] {
  const list = listed(ctx.expect.json(res));
  if (!list) ctx.expect.fail(`${what}: the answer holds no list (items, data or an array)`, { expected: "a list of records", got: res.text.slice(0, 160), res, reason: "no-list" });
  return list!;
}

/**
 * Every record of a list (items, data or an array), following pageInfo.endCursor while it says
 * there is a next page. No maximum page size is shown: a size refused with 400 or 422 is halved.
 * `res` is the last page's answer (a failure points at it); a first page that is no 200 list fails
 * the check, whose rule is about what the list holds.
 */
export async function allRecords(ctx: CheckContext, path: string, query: Record<string, string | number>, what: string): Promise<{ res: Response; items: any[] }> {
  const items: any[] = [];
  let size = 50;
  let after: string | undefined;
  for (let page = 0; ; page++) {
    let res = await ctx.api.get(path, { ...query, first: size, after });
    while ((res.status === 400 || res.status === 422) && size > 1) res = await ctx.api.get(path, { ...query, first: (size = Math.max(1, size >> 1)), after });
    ctx.expect.status(res, 200, `GET ${path} (${what})`, "list-status");
    items.push(...records(ctx, res, what));
    const info = res.body?.pageInfo;
    if (!info?.hasNextPage || typeof info.endCursor !== "string" || info.endCursor === after || page + 1 >= ctx.api.pageBudget) return { res, items };
    after = info.endCursor;
  }
}

/** Does any string field of a record mention the term (case-insensitively)? */
export const mentions = (rec: unknown, term: string): boolean =>
  !!rec && typeof rec === "object" && Object.values(rec).some((v) => typeof v === "string" && v.toLowerCase().includes(term.toLowerCase()));

/** A branch of the run's own, from `from` (the server's default when omitted); deleted at cleanup. */
export async function ownBranch(ctx: CheckContext, doc: ServedDocument, dep: string, from?: string): Promise<string> {
  const create = doc.require("POST", `${build1(dep)}/branches`, "creates a branch of the run's own");
  const remove = doc.require("DELETE", `${build1(dep)}/branches`, "removes the run's branch afterwards");
  const byName = remove.requireQueryParam("branchName", "the spec names branchName as the delete's query");
  const name = ctx.scratch.slug("branch");
  const res = await ctx.api.post(`${build1(dep)}/branches`, create.body({ "name|branchName": name, ...(from ? { "from|parent|parentBranch|source": from } : {}) }));
  setup(ctx, res, `creating branch ${name}`);
  ctx.scratch.onCleanup(`delete branch ${name}`, async () => {
    await ctx.api.delete(`${build1(dep)}/branches`, { [byName]: name });
  });
  return name;
}

/** Every branch of the list (a walk over every page), by name. */
export async function branchesByName(ctx: CheckContext, dep: string): Promise<Map<string, any>> {
  const { items } = await allRecords(ctx, `${build1(dep)}/branches`, {}, "the branches list");
  return new Map(items.map((b) => [field(b, "name|branchName"), b]));
}

/** Starts dev mode on the run's branch, stopped again at cleanup (when the document shows how). */
export async function devMode(ctx: CheckContext, doc: ServedDocument, dep: string, branch: string): Promise<void> {
  const start = doc.require("POST", `${build1(dep)}/dev-mode`, "starts dev mode, the only state in which data-model files are written");
  setup(ctx, await ctx.api.post(`${build1(dep)}/dev-mode`, start.body({ "branchName|branch": branch })), `starting dev mode on ${branch}`);
  const stop = doc.find("DELETE", `${build1(dep)}/dev-mode`);
  const param = stop?.queryParam("branchName|branch")?.name;
  if (stop) ctx.scratch.onCleanup(`stop dev mode on ${branch}`, async () => void (await ctx.api.delete(`${build1(dep)}/dev-mode`, param ? { [param]: branch } : undefined)));
}

/** The body that writes one data-model file on a branch, as the document spells it. */
export function fileWrite(op: ServedOperation, branch: string, fileName: string, content: string): Record<string, unknown> {
  return op.body({ "branchName|branch": branch, "files|items": [{ "fileName|path|name": fileName, "content|source|body": content }] });
}

/** The names of a branch's data-model files (every page). */
export async function fileNames(ctx: CheckContext, doc: ServedDocument, dep: string, branch: string): Promise<string[]> {
  const list = doc.require("GET", `${build1(dep)}/data-model/files`, "lists a branch's files");
  const param = list.requireQueryParam("branchName|branch", "names the branch whose files are listed");
  const { items } = await allRecords(ctx, `${build1(dep)}/data-model/files`, { [param]: branch }, "the data-model files list");
  return items.map((f) => field(f, "fileName|path|name"));
}

/** The id field of a created record, or not verifiable. */
export function idOf(body: any, what: string): string | number {
  const id = field(body, "id");
  if (typeof id !== "string" && typeof id !== "number") throw new NotVerifiable(`${what} answered no id to address it by`);
  return id;
}

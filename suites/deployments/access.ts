import type { CheckContext } from "../../core/check/context.js";
import { group } from "../../core/check/check.js";
import { DEPLOYMENTS_PATH, deploymentsOf } from "../../core/transport/deployments.js";
import type { Api } from "../../core/transport/api.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkOffset } from "../../core/transport/pagination.js";
import { OPERATIONS } from "../../core/api/operations.js";
import { fillPath } from "../../core/api/match.js";

/**
 * How many deployments a key lists, and how many the main key lists and that key does not, are
 * read with it, for each of the run's keys: every one on a tenant of a few, a sample on one of
 * thousands (a key scoped to some refuses any it does not list).
 */
const LISTED_PROBES = 10;
const UNLISTED_PROBES = 5;
/** E1's page size for these walks: no maximum is published, and a tenant of thousands is walked in few pages for each key. */
const WALK_LIMIT = 100;
/** Refused deployments whose every read is sent again with the refused key, at most. */
const SCOPE_PROBES = 2;
/**
 * The table's reads under one deployment, on either prefix, that a run can address: the
 * deployment's own and a workbook's (an id the main key lists); not a sync job's or a
 * notification's, which a refused key could not name.
 */
const DEPLOYMENT_READS = OPERATIONS.filter(
  (op) =>
    op.method === "GET" &&
    op.name !== "listEnvironments" &&
    op.path.includes("/deployments/{deploymentId}/") &&
    (op.path.match(/\{[^}]+\}/g) ?? []).every((p) => p === "{deploymentId}" || p === "{workbookId}"),
);

/** What E1 shows one key, beside what the main key lists, and what the key can read of each. */
interface KeyView {
  who: string;
  api: Api;
  /** Ids E1 lists to the key, in its order. */
  listed: string[];
  /** Each read deployment's answer to the key: the listed ones, and some the main key lists and this key does not. */
  reads: Map<string, Response>;
}

/** A deployment the key cannot reach answers 403 (facts, Authentication), or 404 on a server that hides it. */
const refused = (res: Response) => res.status === 403 || res.status === 404;

/**
 * Whether the key reads some deployment's environments: only then does a refusal show that it
 * cannot reach a deployment (a role may be refused the environments of every deployment).
 */
const readsSome = (view: KeyView) => [...view.reads.values()].some((r) => r.status >= 200 && r.status < 300);

/**
 * Every key the run has (a key scoped to some deployments, a user kept off a deployment by its
 * members, the main key): what E1 lists to it and what it reads. A key E1 refuses (a deactivated
 * user) lists nothing to judge.
 */
async function keyViews(ctx: CheckContext): Promise<KeyView[]> {
  ctx.require(await ctx.api.get(DEPLOYMENTS_PATH), "E1", "listing deployments");
  const ids = async (api: Api) => (await walkOffset(api, DEPLOYMENTS_PATH, WALK_LIMIT, deploymentsOf)).items.map((d) => String(d?.id));
  const all = await ids(ctx.api);
  const views: KeyView[] = [];
  for (const { who, api } of [{ who: "the main key", api: ctx.api }, ...ctx.callers().map(({ role, api }) => ({ who: `tokens.${role}`, api }))]) {
    const first = await api.get(DEPLOYMENTS_PATH);
    if (first.status !== 200 || !first.isJson) continue;
    const listed = api === ctx.api ? all : await ids(api);
    const mine = new Set(listed);
    const reads = new Map<string, Response>();
    for (const id of [...listed.slice(0, LISTED_PROBES), ...all.filter((id) => !mine.has(id)).slice(0, UNLISTED_PROBES)])
      reads.set(id, await api.call("listEnvironments", { deploymentId: id }));
    views.push({ who, api, listed, reads });
  }
  return views;
}

export const deploymentAccessChecks = group("deployments", [
  {
    id: "deployments.list.only-accessible",
    spec: "E1 (Lists deployments accessible to the caller); facts, Authentication (403: a key scoped to other deployments)",
    level: "MUST",
    title:
      "Every key lists only the deployments it can access: none E1 lists to a key (scoped, kept off by a deployment's members, or the main key) refuses it its environments with 403 or 404, where it reads another's",
    async run(ctx) {
      const views = await keyViews(ctx);
      // Only a key that cannot reach some deployment could list one it cannot reach.
      const refusing = views.filter((v) => [...v.reads.values()].some(refused) && readsSome(v));
      if (!refusing.length)
        throw new NotExercised(
          `every key the run has (${views.map((v) => v.who).join(", ")}) read every deployment the main key lists: give a key scoped to some deployments (tokens.scoped) or of a user a deployment's members leave out`,
        );
      for (const view of refusing) {
        const listedRefused = view.listed.filter((id) => view.reads.has(id) && refused(view.reads.get(id)!));
        ctx.expect.that(listedRefused.length === 0, `every deployment E1 lists to ${view.who} is one it can access`, {
          reason: "lists-unreachable",
          expected: "no listed deployment answers the key's read of its environments (E2) with 403 or 404",
          got: listedRefused.map((id) => `deployment ${id}: ${view.reads.get(id)!.status}`).slice(0, 5),
          res: listedRefused.length ? view.reads.get(listedRefused[0]) : undefined,
        });
      }
    },
  },
  {
    id: "deployments.list.every-accessible",
    // SHOULD: what a caller can access is read off E2 here; the spec does not say which read shows access.
    spec: "E1 (Lists deployments accessible to the caller)",
    level: "SHOULD",
    title: "Every key lists every deployment it can read (of those the main key lists)",
    async run(ctx) {
      const views = await keyViews(ctx);
      // Only a key that lists fewer than the main key could leave out one it reads.
      const fewer = views.filter((v) => [...v.reads.keys()].some((id) => !v.listed.includes(id)));
      if (!fewer.length) throw new NotExercised("every key the run has lists every deployment the main key lists: none could leave one out");
      for (const view of fewer) {
        const missing = [...view.reads].filter(([id, res]) => !view.listed.includes(id) && res.status >= 200 && res.status < 300).map(([id]) => id);
        ctx.expect.that(missing.length === 0, `every deployment ${view.who} can read is in its E1 list`, {
          reason: "omits-reachable",
          expected: `E1 lists to ${view.who} the deployments it reads`,
          got: `not listed, yet read with 2xx: ${missing.slice(0, 5).join(", ")}`,
          res: missing.length ? view.reads.get(missing[0]) : undefined,
        });
      }
    },
  },
  {
    id: "deployments.scoping.every-read",
    spec: "Authentication 1 (the same token on /api/v1 and /build/api/v1); facts, Authentication (403: a key scoped to other deployments); E2; E5; E8; E9; E13; E14",
    level: "MUST",
    title:
      "A deployment that refuses a key its environments refuses it every other read under it, on both prefixes: versions, workbooks and a workbook, env vars, settings, branches, data-model files and the rest of the table's reads",
    async run(ctx) {
      const views = await keyViews(ctx);
      const refusals = views.filter(readsSome).flatMap((v) => [...v.reads].filter(([, res]) => refused(res)).map(([id]) => ({ view: v, id })));
      if (!refusals.length)
        throw new NotExercised("no key the run has was refused a deployment on /api/v1: give a key scoped to some deployments (tokens.scoped)");
      for (const { view, id } of refusals.slice(0, SCOPE_PROBES)) {
        // A workbook of the deployment, as the main key lists it: its own reads are the deployment's too.
        const first = await ctx.api.call("listWorkbooks", { deploymentId: id }, { query: { first: 1 } });
        const workbookId = first.status === 200 ? (first.body?.items ?? first.body?.data)?.[0]?.id : undefined;
        for (const op of DEPLOYMENT_READS) {
          if (op.path.includes("{workbookId}") && workbookId === undefined) continue;
          const res = await view.api.get(fillPath(op.path, { deploymentId: id, workbookId: String(workbookId) }));
          ctx.expect.that(res.status < 200 || res.status >= 300, `${view.who}, refused deployment ${id}'s environments, is refused ${op.method} ${op.path}`, {
            expected: "a refusal (403 or 404), as for its environments",
            got: `${res.status} ${res.text.slice(0, 120)}`,
            res,
            reason: "read-served",
          });
        }
      }
    },
  },
]);

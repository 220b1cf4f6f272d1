import type { CheckContext } from "../../core/check/context.js";
import { group } from "../../core/check/check.js";
import { DEFAULT_LIMIT, DEPLOYMENTS_PATH, deploymentsOf } from "../../core/transport/deployments.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkOffset } from "../../core/transport/pagination.js";

/**
 * How many deployments the main key lists and the scoped key does not are read with the scoped key:
 * enough to meet one it cannot reach on a tenant of thousands, few enough for a quick check.
 */
const UNLISTED_PROBES = 40;

/** What E1 shows a key scoped to some deployments, beside what the main key lists, and what the scoped key can read of each. */
interface ScopedView {
  /** Ids E1 lists to the scoped key, in its order. */
  listed: string[];
  /** Ids the main key lists and the scoped key does not (at most UNLISTED_PROBES of them read). */
  unlisted: string[];
  /** Each read deployment's E2 answer to the scoped key. */
  reads: Map<string, Response>;
}

/** A deployment the key cannot reach answers 403 (facts, Authentication), or 404 on a server that hides it. */
const refused = (res: Response) => res.status === 403 || res.status === 404;

async function scopedView(ctx: CheckContext): Promise<ScopedView> {
  const scoped = ctx.as("scoped");
  ctx.require(await scoped.get(DEPLOYMENTS_PATH), "E1", "listing deployments with the scoped key (tokens.scoped)");
  const ids = async (api: typeof scoped) => (await walkOffset(api, DEPLOYMENTS_PATH, DEFAULT_LIMIT, deploymentsOf)).items.map((d) => String(d?.id));
  const listed = await ids(scoped);
  const mine = new Set(listed);
  const unlisted = (await ids(ctx.api)).filter((id) => !mine.has(id));
  const reads = new Map<string, Response>();
  for (const id of [...listed, ...unlisted.slice(0, UNLISTED_PROBES)]) reads.set(id, await scoped.call("listEnvironments", { deploymentId: id }));
  return { listed, unlisted, reads };
}

export const scopedKeyChecks = group("deployments", [
  {
    id: "deployments.list.only-accessible",
    spec: "E1 (Lists deployments accessible to the caller); facts, Authentication (403: a key scoped to other deployments)",
    level: "MUST",
    title: "A key scoped to some deployments lists only those it can access: none it lists refuses it with 403 or 404",
    needs: ["token:scoped"],
    async run(ctx) {
      const view = await scopedView(ctx);
      const unreached = [...view.reads].filter(([id]) => !view.listed.includes(id)).filter(([, res]) => refused(res));
      const listedRefused = view.listed.filter((id) => refused(view.reads.get(id)!));
      // Only a key that cannot reach some deployment could list one it cannot reach.
      if (!unreached.length && !listedRefused.length)
        throw new NotExercised(
          `the scoped key (tokens.scoped) read every deployment the main key lists (${view.reads.size} read): it is not scoped to some of them`,
        );
      const first = view.reads.get(listedRefused[0]);
      ctx.expect.that(listedRefused.length === 0, "every deployment E1 lists to the scoped key is one it can access", {
        reason: "lists-unreachable",
        expected: "no listed deployment answers the key's read of its environments (E2) with 403 or 404",
        got: listedRefused.map((id) => `deployment ${id}: ${view.reads.get(id)!.status}`).slice(0, 5),
        res: first,
      });
    },
  },
  {
    id: "deployments.list.every-accessible",
    // SHOULD: what a caller can access is read off E2 here; the spec does not say which read shows access.
    spec: "E1 (Lists deployments accessible to the caller)",
    level: "SHOULD",
    title: "A key scoped to some deployments lists every deployment it can read",
    needs: ["token:scoped"],
    async run(ctx) {
      const view = await scopedView(ctx);
      const readable = [...view.reads].filter(([, res]) => res.status >= 200 && res.status < 300).map(([id]) => id);
      if (!readable.length) throw new NotExercised("the scoped key (tokens.scoped) could read none of the deployments the main key lists");
      const missing = readable.filter((id) => !view.listed.includes(id));
      ctx.expect.that(missing.length === 0, "every deployment the scoped key can read is in its E1 list", {
        reason: "omits-reachable",
        expected: `E1 lists to the scoped key the deployments it reads (${readable.slice(0, 5).join(", ")})`,
        got: `not listed, yet read with 2xx: ${missing.slice(0, 5).join(", ")}`,
        res: missing.length ? view.reads.get(missing[0]) : undefined,
      });
    },
  },
]);

import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { DEFAULT_LIMIT, DEPLOYMENTS_PATH, deploymentsOf } from "../../core/transport/deployments.js";
import { walkAgainUntil, walkOffset } from "../../core/transport/pagination.js";
import { documented, ok2xx, setup } from "../lib/e14.js";
import { ownDeployment } from "../lib/own-deployment.js";
import { settled } from "../lib/success.js";

/** How often, and how far apart, a deleted deployment's own read is asked again before it is taken as not gone yet. */
const READS_UNTIL_GONE = 10;
const READ_GAP_MS = 500;

/** A read that shows the deployment gone (or no longer the caller's to reach). */
const gone = (status: number) => status === 404 || status === 410 || status === 403;

/** Reads the deployment's environments (E2) until they answer as for a deployment that is gone, within a bound; the last status. */
async function readUntilGone(ctx: CheckContext, dep: string): Promise<number> {
  let status = 0;
  for (let i = 0; i < READS_UNTIL_GONE; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, READ_GAP_MS));
    status = (await ctx.api.call("listEnvironments", { deploymentId: dep })).status;
    if (gone(status)) return status;
  }
  return status;
}

/** A deployment of the run's own, deleted, once its environments read (E2) answers it gone; not verifiable before. */
async function deletedDeployment(ctx: CheckContext, why: string): Promise<{ dep: string; read: number }> {
  const doc = await documented(ctx);
  const dep = await ownDeployment(ctx, doc.operations, ctx.fixture("deployment").id, why);
  const del = await ctx.api.call("deleteDeployment", { deploymentId: dep });
  setup(ctx, del, `deleting the run's deployment ${dep}`, ok2xx);
  await settled(ctx.api, del);
  // Judged once the deployment's own read shows it gone: a delete may take a moment to apply.
  const read = await readUntilGone(ctx, dep);
  if (!gone(read)) throw new NotVerifiable(`deployment ${dep}, deleted, still answers its environments read with ${read}: it is not gone yet`);
  return { dep, read };
}

/** Reads under a deployment on the build prefix (Authentication 1: the same host and token), by operation. */
const BUILD_READS = ["listBranches", "listDataModelFiles"] as const;

export const deploymentDeletedChecks = group("deployments", [
  {
    id: "deployments.list.deleted-not-listed",
    spec: "E1 (Lists deployments accessible to the caller); E14 (DELETE /api/v1/deployments/{deploymentId})",
    level: "MUST",
    title: "A deployment deleted (one the run made), whose own reads answer it gone, is no longer in E1's list: neither in its items nor in pagination.total",
    // Only a deployment the run made is ever deleted (the write plan says so).
    needs: ["writes", "deployment-lifecycle", "fixture:deployment"],
    async run(ctx) {
      const before = await walkOffset(ctx.api, DEPLOYMENTS_PATH, DEFAULT_LIMIT, deploymentsOf);
      const { dep, read } = await deletedDeployment(ctx, "to delete and then list");
      // Walked again before it is called still listed: a walk beside other writers may shift, never add.
      const listed = (walk: Awaited<ReturnType<typeof walkOffset>>) => walk.items.some((d: any) => String(d?.id) === dep);
      const after = await walkAgainUntil(
        () => walkOffset(ctx.api, DEPLOYMENTS_PATH, DEFAULT_LIMIT, deploymentsOf),
        (walk) => !listed(walk),
      );
      ctx.expect.that(!listed(after), `E1 no longer lists deployment ${dep}, deleted, whose environments read answers ${read}`, {
        expected: `no deployment ${dep}`,
        got: after.items.find((d: any) => String(d?.id) === dep),
        res: after.pages.at(-1),
        reason: "deleted-deployment-listed",
      });
      const total = (walk: typeof before) => walk.pages[0]?.body?.pagination?.total;
      // The total counts what is listed: one fewer than before the delete, where nothing else came or went.
      if (typeof total(before) === "number" && typeof total(after) === "number" && after.items.length === before.items.length - 1)
        ctx.expect.equal(total(after), total(before) - 1, `E1's pagination.total after deployment ${dep} was deleted`, {
          res: after.pages[0],
          reason: "deleted-counted",
        });
    },
  },
  {
    id: "deployments.deleted.gone-on-both-prefixes",
    spec: "E14 (DELETE /api/v1/deployments/{deploymentId}); Authentication 1 (two path prefixes on the same host, the same token)",
    // SHOULD: that every read under a deleted deployment is refused is implied by the delete; the spec names a 404 only for an upsert.
    level: "SHOULD",
    title:
      "A deployment deleted (one the run made), gone for its reads on /api/v1, is gone on /build/api/v1 too: its branches and data-model files are not served",
    needs: ["writes", "deployment-lifecycle", "fixture:deployment"],
    async run(ctx) {
      const { dep, read } = await deletedDeployment(ctx, "to delete and then read on both prefixes");
      for (const op of BUILD_READS) {
        const res = await ctx.api.call(op, { deploymentId: dep });
        ctx.expect.that(!ok2xx(res), `${op} of deployment ${dep}, deleted, whose environments read answers ${read}, is not served on /build/api/v1`, {
          expected: "a 4xx (404, 403 or 410), as on /api/v1",
          got: res.status,
          res,
          reason: "deleted-served",
        });
      }
    },
  },
]);

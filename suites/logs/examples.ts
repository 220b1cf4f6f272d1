import { group } from "../../core/check/check.js";
import { pathTo } from "../../core/transport/client.js";
import { documented } from "../lib/e14.js";
import { filterHolds } from "../lib/filter-holds.js";

/** E14 rules of deployment logs: the filter by source (production, dev) and by container. */
const LOG_SOURCES = ["production", "dev"];
/** The containers E14 names; "the server container" has no name in the spec: the server's document gives it (server-container.ts). */
export const LOG_CONTAINERS = ["INIT", "MAIN", "vector", "api-proxy"];

export const logChecks = [
  ...group("logs", [
    {
      id: "logs.filter.source",
      spec: "E14 rule 9",
      level: "MUST",
      title: "The logs filtered by source (production, dev) hold only entries of that source",
      needs: ["fixture:deployment"],
      async run(ctx) {
        const path = pathTo("getLogs", { deploymentId: ctx.fixture("deployment").id });
        (await documented(ctx)).requireNamed("getLogs", "lists container logs");
        await filterHolds(ctx, path, "source", LOG_SOURCES, "source", "only-that-source");
        // A stated source in another case: whether source is case-sensitive is not shown, so a refusal and a filter both do; a 5xx does not.
        const res = await ctx.api.get(path, { source: "Production" });
        ctx.expect.that(res.status < 500, "source=Production (a stated value in another case) is filtered by or refused", {
          expected: "a status below 500",
          got: res.status,
          res,
          reason: "no-5xx",
        });
      },
    },
    {
      id: "logs.filter.container",
      spec: "E14 rule 9",
      level: "MUST",
      title: "The logs filtered by container (INIT, MAIN, vector, api-proxy) hold only entries of that container",
      needs: ["fixture:deployment"],
      async run(ctx) {
        const path = pathTo("getLogs", { deploymentId: ctx.fixture("deployment").id });
        (await documented(ctx)).requireNamed("getLogs", "lists container logs");
        await filterHolds(ctx, path, "container", LOG_CONTAINERS, "container", "only-that-container");
      },
    },
  ]),
];

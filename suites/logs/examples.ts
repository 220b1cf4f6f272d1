import { group } from "../../core/model/check.js";
import { pathTo } from "../../core/api/client.js";
import { documented } from "../lib/e14.js";
import { filterHolds } from "../lib/filter-holds.js";

/** E14 rules of deployment logs: the filter by source (production, dev) and by container. */
const LOG_SOURCES = ["production", "dev"];
/** The containers E14 names; "the server container" has no name to send. */
const LOG_CONTAINERS = ["INIT", "MAIN", "vector", "api-proxy"];

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

import { group } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { pathTo } from "../../core/transport/client.js";
import { documented } from "../lib/e14.js";
import { filterHolds } from "../lib/filter-holds.js";
import { LOG_CONTAINERS } from "./examples.js";

/** E14 rule 9's last container: "the server container", which the spec does not name; the server's own document does. */
export const serverContainerChecks = [
  ...group("logs", [
    {
      id: "logs.filter.server-container",
      spec: "E14 rule 9",
      level: "MUST",
      title:
        "The logs filtered by the server container, as the server's document names it among the container values beside INIT, MAIN, vector and api-proxy, hold only entries of that container",
      needs: ["fixture:deployment"],
      async run(ctx) {
        const path = pathTo("getLogs", { deploymentId: ctx.fixture("deployment").id });
        const logs = (await documented(ctx)).requireNamed("getLogs", "lists container logs");
        const stated = LOG_CONTAINERS.map((c) => c.toLowerCase());
        const named = (logs.enumOf("container") ?? []).filter((c): c is string => typeof c === "string" && !stated.includes(c.toLowerCase()));
        if (!named.length)
          throw new NotExercised(`${logs.label} enumerates no container beyond ${LOG_CONTAINERS.join(", ")}: the server container has no name to send`);
        await filterHolds(ctx, path, "container", named, "container", "only-that-container");
      },
    },
  ]),
];

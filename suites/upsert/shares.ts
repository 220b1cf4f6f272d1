import type { GroupShares } from "../../core/check/check.js";
import { RACE_SHARE } from "../../core/transport/together.js";

/** What the upsert checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const upsertShares: GroupShares = {
  byGroup: {
    upsert: ["add:workspace"],
  },
  byId: {
    // The races act on slugs of their own: the barrier of core/transport/together.ts forces them
    // (the server holds every request whole at once), on connections of their own, whatever runs beside.
    "upsert.concurrency.*": ["add:workspace", RACE_SHARE],
    // A deployment of its own, made and deleted, then written to by its id: nothing else makes a deployment meanwhile
    // (a server that gives ids as the highest plus one would give the deleted one's to the next made, another check's),
    // nor reads the list whole while it comes and goes.
    "upsert.deployment.deleted-404": ["write:deployments"],
  },
};

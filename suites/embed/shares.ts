import type { GroupShares } from "../../core/check/check.js";

/** What the embed checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const embedShares: GroupShares = {
  byGroup: {
    // Its checks create and remove only their own objects, or read a list others add to.
    embed: ["add:workspace"],
  },
  byId: {
    // Two embed tenants of its own besides its clone.
    "embed.access.per-tenant": ["add:workspace", "add:embed-tenants"],
  },
};

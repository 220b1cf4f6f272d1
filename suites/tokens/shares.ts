import type { GroupShares } from "../../core/check/check.js";

/** What the tokens checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const tokensShares: GroupShares = {
  byGroup: {
    // A metadata token changes nothing that another check reads.
    tokens: [],
  },
  byId: {
    "tokens.lifetime.any-expires-in": [],
    "tokens.jwt.any-lifetime": [],
    "tokens.negative.broken-body": [],
    "tokens.negative.non-positive-lifetime": [],
    // It makes a workbook of its own to try the metadata token on writes (E10, E11, E12): no list walk runs beside it.
    "tokens.auth.not-an-api-key": ["add:workspace"],
  },
};

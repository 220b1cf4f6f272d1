import type { GroupShares } from "../../core/check/check.js";
import { RACE_SHARE } from "../../core/transport/together.js";

/** What the env-vars checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const envVarsShares: GroupShares = {
  byGroup: {
    "env-vars": ["read:env-vars"],
  },
  byId: {
    "env-vars.mask.any-upper-case-marker": ["add:env-vars"],
    // It adds its own two, then walks the whole list in small pages and counts each once: a variable another
    // check adds between two pages moves every later one on a newest-first list behind an offset cursor.
    "env-vars.put.listed": ["add:env-vars", "read:env-vars"],
    "env-vars.mask.any-other-case-marker": ["add:env-vars"],
    // Names of its own, refused (or, by a lax server, added): the others' walks must not meet them.
    "env-vars.put.name-pattern-refused": ["add:env-vars"],
    // It sets the tool's plain variable to value after value and reads each back: no other check may set it between.
    "env-vars.put.value-replaced": ["add:env-vars", "read:env-vars"],
    // It sets the tool's plain variables and reads them back: no other check may set them between.
    "env-vars.put.concurrent-writes-kept": ["add:env-vars", "read:env-vars", RACE_SHARE],
  },
};

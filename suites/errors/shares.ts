import type { GroupShares } from "../../core/check/check.js";

/** What the errors checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const errorsShares: GroupShares = {
  byId: {
    // It reads back the values of the tool's variables after each refused PUT env-vars: a server may
    // keep them with E6's templateVariables (their scope is open), which a deployment writer's
    // restore would set back meanwhile (test/shares-open-scope.test.ts).
    "errors.negative.implied-rules": ["write:deployment", "add:deployments", "add:workspace", "add:env-vars"],
    "errors.no-5xx.valid-writes": ["add:workspace"],
  },
};

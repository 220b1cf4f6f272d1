import type { GroupShares } from "../../core/check/check.js";

/** What the audit checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const auditShares: GroupShares = {
  byGroup: {
    // The audit log records the run's own requests: what an audit check reads must not depend on what
    // runs beside it. The audit checks only read it, and each takes rows added while it reads (new
    // events only add rows): they run beside one another, apart from the rest. First in the
    // catalogue (FIRST_GROUPS in suites/index.ts), so that running apart drains nothing.
    audit: ["exclusive:audit-log"],
  },
  byId: {
    // It makes deployments of its own (named with a comma, a quote) for the log to name.
    "audit.export.quoted-cells": ["exclusive:audit-log", "add:deployments"],
  },
};

import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the audit checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const auditRanges: RangeCells = {
  E7: [
    { where: "start", checks: ["audit.filter.date-range", "audit.filter.date-range-complete"] },
    { where: "end", checks: ["audit.filter.date-range", "audit.filter.date-range-complete"] },
    { where: "start = end (one day)", checks: ["audit.filter.end-day-included"] },
    { where: "eventName", checks: ["audit.filter.event-name", "audit.filter.event-name-exact"] },
    { where: "userEmail", checks: ["audit.filter.user-email"] },
    { where: "eventName and userEmail together", checks: ["audit.filter.combined"] },
    { where: "search", checks: ["audit.filter.search"] },
  ],
  "Authentication 4": [{ where: "E7, caller without AuditLogManage", checks: ["audit.access.denied-without-permission"] }],
};

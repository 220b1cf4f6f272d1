import { itemRefs } from "../routes/item-refs.js";

/**
 * The policies of the E14 families that faults choose between (the seams of behaviour.ts, for the
 * rules the spec states about E14 endpoints whose shapes it does not show). Spread into
 * cleanBehaviour, so a fault replaces one of them as it replaces any other seam.
 */
export const e14Behaviour = {
  /** facts: bulk delete collapses duplicates, one entry per distinct item. */
  bulkDeleteRefs(body: unknown): { type: "WORKBOOK" | "REPORT" | "FOLDER"; id: number }[] {
    return itemRefs(body);
  },
  /** E14: data-model files are written only on a branch in dev mode. */
  fileWriteAllowed(branchInDevMode: boolean): boolean {
    return branchInDevMode;
  },
  /** E14: reports sort by createdAt, updatedAt, lastViewedAt or name. */
  reportSortValue(report: { name: string; createdAt: string; updatedAt: string; lastViewedAt: string | null }, sortBy: string): string {
    return (report as any)[sortBy] ?? "";
  },
  /** E14: the folderId filter of the reports list. */
  reportInFolder(reportFolderId: number | null, folderId: number | null | undefined): boolean {
    return folderId === undefined || reportFolderId === folderId;
  },
  /** E14: the externalWorkbookId filter of the reports list. */
  reportInExternalWorkbook(reportExternal: string | null, wanted: string | null): boolean {
    return wanted === null || reportExternal === wanted;
  },
  /** E14: sorting by lastViewedAt offers no cursor. */
  cursorWhenSortedByLastViewed(): boolean {
    return false;
  },
  /** E14 and 0.4.0: `search` narrows a list to what mentions the term (case-insensitive). */
  searchMatches(values: unknown[], term: string | null): boolean {
    if (!term) return true;
    return values.some((v) => typeof v === "string" && v.toLowerCase().includes(term.toLowerCase()));
  },
  /** E14 user administration (who may is not shown): a caller holding the admin permission. */
  administersUsers(user: { permissions: Set<string> }): boolean {
    return user.permissions.has("AuditLogManage");
  },
  /** E14: logs filter by source and container. */
  logMatches(entry: { source: string; container: string }, source: string | null, container: string | null): boolean {
    return (!source || entry.source === source) && (!container || entry.container === container);
  },
  /** E14: a user's value of an attribute of each type (`string`, `number`, `boolean`, `string_array`, `number_array`). */
  attributeValueFits(type: string, v: unknown): boolean {
    if (type === "string") return typeof v === "string";
    if (type === "number") return typeof v === "number" && Number.isFinite(v);
    if (type === "boolean") return typeof v === "boolean";
    if (type === "string_array") return Array.isArray(v) && v.every((x) => typeof x === "string");
    if (type === "number_array") return Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isFinite(x));
    return false;
  },
  /** E14: dbt sync history filters by status and trigger. */
  dbtHistoryMatches(job: { status: string; trigger: string }, status: string | null, trigger: string | null): boolean {
    return (!status || job.status === status) && (!trigger || job.trigger === trigger);
  },
};

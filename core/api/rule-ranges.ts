import type { CheckId } from "../model/ids.js";
import type { RuleId } from "./spec-rules.js";

/**
 * Where each stated rule with a range applies (the operations, fields, pages, callers or read paths
 * it covers) and which check covers each cell: data that docs/coverage.md prints as its
 * applicability table (core/served/coverage.ts) and test/coverage.test.ts holds to the catalogue.
 * The rules and what they say over their range are here, once; each cell sits beside the checks
 * that cover it, in their group's folder (`suites/<group>/ranges.ts`, assembled by suites/ranges.ts).
 * Nothing here is taken on trust: test/class-coverage.test.ts holds each cell to what a full
 * reference run measured (its checks reach a verdict, the sections the cell names are sent, and a
 * later page is read where it says "every page").
 */
export type Dimension = "operations" | "fields" | "pages" | "values" | "callers" | "read paths";

export const RULES_WITH_RANGES = [
  { rule: "Pagination styles 1", says: "limit caps every page of an offset list, at every limit, and the walk yields each item once", dimension: "pages" },
  { rule: "Pagination styles 2", says: "first caps every page of a cursor list, at every first, and the walk yields each item once", dimension: "pages" },
  { rule: "E2", says: "type=T keeps only, and all, environments of type T, on every page", dimension: "pages" },
  { rule: "E8", says: "folderId keeps only, and all, the workbooks directly in that folder, on every page", dimension: "pages" },
  {
    rule: "E7",
    says: "each filter keeps only matching rows, all of them rows of the unfiltered export, on an export holding rows to leave out",
    dimension: "values",
  },
  { rule: "E11 rule 2", says: "an update changes only the fields it sends; meta merges key by key", dimension: "fields" },
  { rule: "E6", says: "omitted fields are left alone; templateVariables merge key by key", dimension: "fields" },
  { rule: "Authentication 1", says: "every operation refuses a request without a valid API key, on both prefixes", dimension: "operations" },
  { rule: "Authentication 3", says: "a metadata token is refused on every management endpoint", dimension: "operations" },
  { rule: "Authentication 4", says: "each operation's access rule holds for each kind of caller", dimension: "callers" },
  {
    rule: "Resources / Environment variable",
    says: "a secret-named variable's value reads [ENCRYPTED] wherever an answer carries it",
    dimension: "read paths",
  },
  {
    range: "Limits: app entries stored",
    rule: "Limits",
    says: "a dashboard app entry is at most 255 characters: a longer one is never stored, whole or cut",
    dimension: "read paths",
  },
  { rule: "Resources / Workbook", says: "every Workbook record matches its schema, enums included", dimension: "read paths" },
  { range: "Limits: at and past each", rule: "Limits", says: "each stated limit holds at the limit and one past it", dimension: "values" },
  { rule: "E12", says: "a batch mixes every item kind, each applied, and every kind of per-item failure leaves the item where it was", dimension: "values" },
  { rule: "E14 rule 1", says: "bulk delete reports each failing item once and applies the rest, for every kind of item and failure", dimension: "values" },
  { rule: "E14 rule 6", says: "bulk user actions report each failing user and apply the rest", dimension: "values" },
  { rule: "E14 rule 5", says: "each sortBy value orders the reports list by its field; each filter keeps only, and all, what matches", dimension: "values" },
  { rule: "E11 rule 5", says: "a request answered 409 upsert_branch_changed is not applied, and succeeds when retried", dimension: "read paths" },
  { rule: "Errors 2", says: "a refused or conflicting write is not applied: a read after it shows the state as it was", dimension: "operations" },
] as const satisfies readonly { range?: string; rule: RuleId; says: string; dimension: Dimension }[];

type RangeEntry = (typeof RULES_WITH_RANGES)[number];
/** A range's name: its rule's id, or its own name where a rule has two ranges (Limits). */
export type RangeName = RangeEntry extends infer E ? (E extends { range: infer R } ? R : E extends { rule: infer R } ? R : never) : never;
const rangeName = (e: { range?: string; rule: string }) => (e.range ?? e.rule) as RangeName;

/** One place in a rule's range and the checks that judge the rule there. */
export interface RangeCell {
  where: string;
  checks: CheckId[];
}

/** A group's cells, by the range they are of: only that group's checks (test/coverage.test.ts). */
export type RangeCells = Partial<Record<RangeName, RangeCell[]>>;

export interface RuleRange {
  rule: RuleId;
  /** The rule over its range, in the project's words. */
  says: string;
  dimension: Dimension;
  cells: RangeCell[];
}

/**
 * The ranges, each rule with the cells the groups give it: a cell two groups name (the same
 * `where`) is one cell with the checks of both. Cells read in the spec's order of sections (the
 * first E-number a cell names; the order the groups were given in among equals, then those with none).
 */
export function assembleRanges(groups: RangeCells[]): RuleRange[] {
  return RULES_WITH_RANGES.map((entry) => {
    const { rule, says, dimension } = entry;
    const cells = new Map<string, CheckId[]>();
    for (const g of groups) for (const c of g[rangeName(entry)] ?? []) cells.set(c.where, [...(cells.get(c.where) ?? []), ...c.checks]);
    const ordered = [...cells].map(([where, checks]) => ({ where, checks })).sort((a, b) => sectionNumber(a.where) - sectionNumber(b.where));
    return { rule, says, dimension, cells: ordered };
  });
}

/** The number of the first spec section a cell names (`E12 moved` -> 12), past every section when it names none. */
const sectionNumber = (where: string) => Number(/\bE(\d+)\b/.exec(where)?.[1] ?? Number.POSITIVE_INFINITY);

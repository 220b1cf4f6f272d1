import type { CheckId } from "../model/ids.js";
import { SPECIFIED_OPERATIONS } from "./operations.js";
import type { RuleId } from "./spec-rules.js";

/**
 * Where each stated rule with a range applies (the operations, fields, pages, callers or read paths
 * it covers) and which check covers each cell: data that docs/coverage.md prints as its
 * applicability table (core/served/coverage.ts) and test/coverage.test.ts holds to the catalogue.
 * Nothing here is taken on trust: test/class-coverage.test.ts holds each cell to what a full
 * reference run measured (its checks reach a verdict, the sections the cell names are sent, and a
 * later page is read where it says "every page").
 */
export type Dimension = "operations" | "fields" | "pages" | "values" | "callers" | "read paths";

export interface RuleRange {
  rule: RuleId;
  /** The rule over its range, in the project's words. */
  says: string;
  dimension: Dimension;
  cells: { where: string; checks: CheckId[] }[];
}

/** Every spec'd operation: Authentication 1 holds on each, on both prefixes. */
const OPERATIONS = SPECIFIED_OPERATIONS.map((o) => o.section);

export const ruleRanges: RuleRange[] = [
  {
    rule: "Pagination styles 1",
    says: "limit caps every page of an offset list, at every limit, and the walk yields each item once",
    dimension: "pages",
    cells: [
      { where: "E1, limit=1, every page", checks: ["deployments.list.limit-honoured", "deployments.list.total-consistent"] },
      { where: "E1, any limit from 1 to n+2, every page", checks: ["deployments.list.any-limit"] },
      { where: "E1, default limit 20", checks: ["deployments.list.defaults"] },
      { where: "E2 deprecated data, any limit, every page", checks: ["environments.legacy.any-limit", "environments.legacy.consistent"] },
    ],
  },
  {
    rule: "Pagination styles 2",
    says: "first caps every page of a cursor list, at every first, and the walk yields each item once",
    dimension: "pages",
    cells: [
      {
        where: "E2 items, any first, every page",
        checks: ["pagination.cursor.any-page-size", "environments.cursor.first-caps-page", "environments.cursor.complete"],
      },
      { where: "E8 items, any first, every page", checks: ["pagination.cursor.any-page-size", "workbooks.list.cursor-walk"] },
      { where: "E13 items, any first, every page", checks: ["pagination.cursor.any-page-size", "env-vars.cursor.complete"] },
      { where: "E8 and E13 deprecated data, every page", checks: ["workbooks.list.data-mirrors-items", "env-vars.legacy.data-matches-items"] },
      { where: "E2, E8 and E13 deprecated fields, every answer after the first that carried one", checks: ["pagination.legacy.kept-per-server"] },
    ],
  },
  {
    rule: "E2",
    says: "type=T keeps only, and all, environments of type T, on every page",
    dimension: "pages",
    cells: [
      { where: "the whole list (each type)", checks: ["environments.filter.only-that-type", "environments.filter.all-of-that-type"] },
      { where: "items, first/after, every page", checks: ["environments.filter.every-page"] },
      { where: "deprecated data, offset/limit, every page", checks: ["environments.filter.every-page"] },
    ],
  },
  {
    rule: "E8",
    says: "folderId keeps only, and all, the workbooks directly in that folder, on every page",
    dimension: "pages",
    cells: [
      { where: "one large page", checks: ["workbooks.list.folder-filter"] },
      { where: "first/after, every page", checks: ["workbooks.list.folder-filter-every-page"] },
      { where: "after moves and clones (generated sequences)", checks: ["model.workspace.sequence"] },
    ],
  },
  {
    rule: "E7",
    says: "each filter keeps only matching rows, all of them rows of the unfiltered export, on an export holding rows to leave out",
    dimension: "values",
    cells: [
      { where: "start", checks: ["audit.filter.date-range"] },
      { where: "end", checks: ["audit.filter.date-range"] },
      { where: "eventName", checks: ["audit.filter.event-name", "audit.filter.event-name-exact"] },
      { where: "userEmail", checks: ["audit.filter.user-email"] },
      { where: "search", checks: ["audit.filter.search"] },
    ],
  },
  {
    rule: "E11 rule 2",
    says: "an update changes only the fields it sends; meta merges key by key",
    dimension: "fields",
    cells: [
      { where: "name omitted", checks: ["upsert.update.omitted-field-kept", "upsert.update.meta-only-keeps-name"] },
      { where: "folderId omitted (workbook in a folder)", checks: ["upsert.update.omitted-field-kept"] },
      { where: "meta omitted", checks: ["upsert.update.omitted-field-kept", "upsert.update.name-only-keeps-meta"] },
      { where: "meta keys not sent again", checks: ["upsert.meta.merge-keeps-keys", "upsert.meta.merge-any"] },
      { where: "meta keys sent again", checks: ["upsert.meta.merge-replaces-sent-keys", "upsert.meta.merge-any"] },
      {
        where: "meta.dashboardDraft (validated)",
        checks: ["upsert.draft.bad-widget-type-rejected", "upsert.draft.widget-without-position-rejected", "upsert.negative.broken-draft"],
      },
    ],
  },
  {
    rule: "E6",
    says: "omitted fields are left alone; templateVariables merge key by key",
    dimension: "fields",
    cells: [
      {
        where: "cloudProvider, region, template, defaultLaunchpadViewGroup, launchpadTabs, creation method, deploy mode omitted",
        checks: ["deployment-update.merge.omitted-fields-kept"],
      },
      { where: "templateVariables omitted", checks: ["deployment-update.merge.omitted-fields-kept"] },
      { where: "releaseChannel, releaseChannelVersion, releaseChannelVersionHold omitted", checks: ["deployment-update.merge.omitted-fields-kept"] },
      { where: "templateVariables keys not sent", checks: ["deployment-update.merge.template-variables"] },
    ],
  },
  {
    rule: "Authentication 1",
    says: "every operation refuses a request without a valid API key, on both prefixes",
    dimension: "operations",
    cells: [
      { where: "E1 and the branches list (/build/api/v1)", checks: ["auth.reject.every-operation", "auth.key.both-prefixes"] },
      ...OPERATIONS.filter((e) => e !== "E1").map((e) => ({ where: e, checks: ["auth.reject.every-operation" as const] })),
    ],
  },
  {
    rule: "Authentication 3",
    says: "a metadata token is refused on every management endpoint",
    dimension: "operations",
    cells: ["E1", "E2", "E5", "E8", "E9", "E13"].map((e) => ({ where: e, checks: ["tokens.auth.not-an-api-key"] })),
  },
  {
    rule: "Authentication 4",
    says: "each operation's access rule holds for each kind of caller",
    dimension: "callers",
    cells: [
      { where: "E7, caller without AuditLogManage", checks: ["audit.access.denied-without-permission"] },
      { where: "E10, caller with read access only (placement)", checks: ["clone.placement.read-only-to-root"] },
      { where: "E10 shared, non-creator caller", checks: ["clone.shared.non-creator-403"] },
      { where: "E11 update, caller without edit access", checks: ["upsert.access.update-needs-edit"] },
      { where: "E11 with folderId, caller without edit access to the destination", checks: ["upsert.access.move-needs-destination-edit"] },
      { where: "E12, per item the caller may not move", checks: ["bulk-move.failures.no-access-403", "bulk-move.batch.inaccessible"] },
    ],
  },
  {
    rule: "Resources / Environment variable",
    says: "a secret-named variable's value reads [ENCRYPTED] wherever an answer carries it",
    dimension: "read paths",
    cells: [
      { where: "E13 items, every page", checks: ["env-vars.mask.every-answer"] },
      { where: "E13 deprecated data, every page", checks: ["env-vars.mask.every-answer"] },
      { where: "PUT env-vars answer (items and data)", checks: ["env-vars.mask.any-upper-case-marker", "env-vars.mask.every-answer"] },
      { where: "deployment settings (E14)", checks: ["env-vars.mask.every-answer"] },
    ],
  },
  {
    rule: "Limits",
    says: "a dashboard app entry is at most 255 characters: a longer one is never stored, whole or cut",
    dimension: "read paths",
    cells: [
      { where: "sent: E11 meta.dashboardDraft", checks: ["upsert.draft.app-entry-over-255-not-stored", "upsert.draft.app-entry-over-255-4xx"] },
      { where: "stored: E9 dashboardDraft (and meta.dashboardDraft)", checks: ["upsert.draft.app-entry-over-255-not-stored"] },
      { where: "every Workbook answer (schema)", checks: ["resources.schema.every-answer"] },
    ],
  },
  {
    rule: "Resources / Workbook",
    says: "every Workbook record matches its schema, enums included",
    dimension: "read paths",
    cells: [
      { where: "E8 items and data, every page", checks: ["workbooks.list.schema", "resources.schema.every-answer"] },
      { where: "E9", checks: ["workbooks.get.schema", "resources.schema.every-answer"] },
      { where: "E10 answer", checks: ["clone.answer.is-the-stored-clone", "resources.schema.every-answer"] },
      { where: "E11 answer", checks: ["upsert.answer.is-the-stored-workbook", "resources.schema.every-answer"] },
      { where: "E12 moved", checks: ["bulk-move.response.schema", "resources.schema.every-answer"] },
    ],
  },
  {
    rule: "Limits",
    says: "each stated limit holds at the limit and one past it",
    dimension: "values",
    cells: [
      { where: "bulk move, 100 items (accepted whole, all read back)", checks: ["bulk-move.request.at-limit-accepted"] },
      { where: "bulk move, 101 items (refused)", checks: ["bulk-move.request.over-limit-rejected"] },
      { where: "app entry, 255 characters (kept whole)", checks: ["upsert.draft.app-entry-255-kept"] },
      { where: "app entry, 256 characters (never stored)", checks: ["upsert.draft.app-entry-over-255-not-stored", "upsert.draft.app-entry-over-255-4xx"] },
      { where: "first=1, the minimum: E2, E8, E13 walked to the end", checks: ["pagination.cursor.any-page-size"] },
    ],
  },
  {
    rule: "E12",
    says: "a batch mixes every item kind, each applied, and every kind of per-item failure leaves the item where it was",
    dimension: "values",
    cells: [
      { where: "WORKBOOK, FOLDER (and null as the root)", checks: ["bulk-move.apply.reads-back", "bulk-move.batch.invariants"] },
      { where: "WORKBOOK, REPORT and FOLDER in one batch", checks: ["bulk-move.apply.mixed-kinds"] },
      { where: "an unknown item (404)", checks: ["bulk-move.failures.missing-404", "bulk-move.batch.invariants"] },
      { where: "another deployment's item (404, stays)", checks: ["bulk-move.failures.other-deployment-404"] },
      { where: "a forbidden item (403, stays)", checks: ["bulk-move.failures.no-access-403", "bulk-move.batch.inaccessible"] },
      { where: "a folder into its own descendant (400, stays)", checks: ["bulk-move.failures.into-descendant-400"] },
      { where: "a duplicate (collapsed to one entry)", checks: ["bulk-move.items.each-once"] },
    ],
  },
  {
    rule: "E14 rule 1",
    says: "bulk delete reports each failing item once and applies the rest, for every kind of item and failure",
    dimension: "values",
    cells: [
      { where: "an unknown item", checks: ["bulk-delete.items.per-item-failures"] },
      { where: "a forbidden item (403, still there)", checks: ["bulk-delete.items.forbidden-reported"] },
      { where: "a duplicate (collapsed to one entry)", checks: ["bulk-delete.items.duplicates-collapsed"] },
      { where: "WORKBOOK, REPORT and FOLDER in one batch", checks: ["bulk-delete.items.mixed-kinds"] },
    ],
  },
  {
    rule: "E14 rule 6",
    says: "bulk user actions report each failing user and apply the rest",
    dimension: "values",
    cells: [
      { where: "an unknown user", checks: ["users.bulk.per-user-failures"] },
      { where: "a caller that may not act (refused, user unchanged)", checks: ["users.bulk.forbidden-not-applied"] },
      { where: "a duplicate user", checks: ["users.bulk.duplicate-once"] },
    ],
  },
  {
    rule: "E14 rule 5",
    says: "each sortBy value orders the reports list by its field; each filter keeps only, and all, what matches",
    dimension: "values",
    cells: [
      { where: "sortBy=name", checks: ["reports.list.sorted-by-name"] },
      { where: "sortBy=createdAt, updatedAt, lastViewedAt", checks: ["reports.list.sorted-by-dates"] },
      { where: "folderId", checks: ["reports.list.folder-filter"] },
      { where: "externalWorkbookId", checks: ["reports.list.external-workbook-filter"] },
      { where: "search", checks: ["reports.list.search-filter"] },
    ],
  },
  {
    rule: "E11 rule 5",
    says: "a request answered 409 upsert_branch_changed is not applied, and succeeds when retried",
    dimension: "read paths",
    cells: [
      { where: "the answers of a race (200 or 409 with the code)", checks: ["upsert.concurrency.conflict-answers"] },
      { where: "the workbooks the race left (E9 meta)", checks: ["upsert.concurrency.conflict-not-applied"] },
      { where: "the retry", checks: ["upsert.concurrency.conflict-retry-succeeds"] },
    ],
  },
  {
    rule: "Errors 2",
    says: "a refused or conflicting write is not applied: a read after it shows the state as it was",
    dimension: "operations",
    cells: [
      { where: "E4, a personal or the production branch (4xx)", checks: ["staging.reject.personal-branch", "staging.reject.production-branch"] },
      { where: "E4, no branch named (4xx)", checks: ["staging.request.branch-required"] },
      { where: "E6, an unlisted version (400)", checks: ["deployment-update.version.unlisted-rejected"] },
      { where: "E10, the plan's workbook limit (400)", checks: ["clone.limit.reached-400"] },
      { where: "E11, 409 upsert_branch_changed", checks: ["upsert.concurrency.conflict-not-applied"] },
      { where: "E11, no edit access (4xx)", checks: ["upsert.access.update-needs-edit", "upsert.access.move-needs-destination-edit"] },
      { where: "E11, an invalid meta.dashboardDraft", checks: ["upsert.draft.bad-widget-type-rejected", "upsert.draft.widget-without-position-rejected"] },
      {
        where: "E12 per item: 403, 400, another deployment's 404",
        checks: [
          "bulk-move.failures.no-access-403",
          "bulk-move.failures.into-descendant-400",
          "bulk-move.failures.other-deployment-404",
          "bulk-move.batch.inaccessible",
        ],
      },
      { where: "E12, a missing destination", checks: ["bulk-move.destination.missing-folder"] },
      { where: "bulk delete (E14), a forbidden item", checks: ["bulk-delete.items.forbidden-reported"] },
      { where: "bulk user actions (E14), a caller that may not act", checks: ["users.bulk.forbidden-not-applied"] },
    ],
  },
];

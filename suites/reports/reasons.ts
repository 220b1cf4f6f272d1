import type { GroupReason } from "../../core/model/reasons.js";

/** What the reports checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const reportsReasons = {
  "no-cursor": { title: "No endCursor to continue from is offered when sorting by lastViewedAt", expected: "no cursor (pageInfo null, or no next page)" },
  "read-suffices": { title: "The read-only caller's placement is accepted", expected: "2xx" },
  "sort-by-accepted": { title: "SortBy=… is accepted", expected: "the value the rule names" },
  sorted: { title: "The reports are in name order", expected: "… (or reversed)" },
  "refresh-by-address": { title: "A placement is refreshed by externalWorkbookId, sheetName and anchorCell", expected: "a 2xx" },
  "refresh-by-id": { title: "A placement is refreshed by its placementId", expected: "a 2xx" },
  "remove-by-id": { title: "A placement is removed by its placementId", expected: "a 2xx" },
  "placement-removed": { title: "A removed placement can no longer be refreshed", expected: "a 4xx" },
  "cursor-offered": { title: "Sorted by lastViewedAt, the reports list offers no cursor to page on", expected: "no endCursor with hasNextPage" },
  "walk-order": {
    title: "A sorted walk of the reports list keeps the sort's order across its pages",
    expected: "the sort key in one direction over the whole walk",
  },
  "upsert-accepted": { title: "A second PUT to the same publicId is accepted", expected: "a 2xx" },
  "same-report-id": { title: "A second PUT to the same publicId answers the report the first made", expected: "the first report's id" },
  "one-report": { title: "After two PUTs to one publicId the list holds that report alone, under the new name", expected: "one report, renamed" },
} as const satisfies Record<string, GroupReason>;

import type { GroupReason } from "../../core/model/reasons.js";

/** What the model checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const modelReasons = {
  "as-modelled": { title: "Each workbook is as the calls so far made it", expected: "the value the rule names" },
  "folder-contents": { title: "The list holds exactly the workbooks the calls so far put in folder …", expected: "the value the rule names" },
  "folder-path": { title: "FolderPath lists the ancestors of the containing folder", expected: "the ancestors the run built" },
  "slug-not-taken": { title: "The clone does not take the source's slug", expected: "a slug other than the source's" },
} as const satisfies Record<string, GroupReason>;

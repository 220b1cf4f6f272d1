import type { GroupReason } from "../../core/model/reasons.js";

/** What the clone checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const cloneReasons = {
  "reports-folder": { title: "Every report the clone names is in the source's folder, as the clone is", expected: "the source's folder" },
  "allow-embed": { title: "AllowEmbed of the cloned dashboard in …", expected: "a publishedDashboard" },
  "at-root": { title: "The clone made with read-only access to the source's folder is at the root", expected: "folderId null" },
  "calculated-fields": { title: "The clone's calculatedFields hold the source's", expected: "the value the rule names" },
  "clone-independent": { title: "The clone does not change when its source does", expected: "the value the rule names" },
  "dashboard-config": { title: "The cloned dashboard's config is the source's, apart from the report ids", expected: "the value the rule names" },
  "dashboard-copied": { title: "The clone carries a copy of the source's published dashboard", expected: "a publishedDashboard" },
  "draft-copied": { title: "The clone's dashboard draft is the source's, apart from the report ids", expected: "the value the rule names" },
  "fresh-reports": { title: "The re-published dashboard names fresh reports, none of the source's", expected: "no source report id" },
  "fresh-snapshots": { title: "One fresh report per report snapshot of the source", expected: "the value the rule names" },
  "no-clone": { title: "The run's folder … holds what it held (the source workbook): no clone was made", expected: "… and the clone answered" },
  "own-dashboard": { title: "The clone's published dashboard has an id and a publicId of its own", expected: "not the source's" },
  "ref-count": { title: "The clone's … holds as many report references as the source's", expected: "the value the rule names" },
  "refs-distinct": { title: "Distinct reports of the source stay distinct copies in the clone's …", expected: "the value the rule names" },
  "refs-rewritten": {
    title: "Every report reference in the clone's … points to a copied report, none to the source's",
    expected: "only ids of the copied reports",
  },
  republished: { title: "The shared clone carries a re-published dashboard", expected: "a publishedDashboard" },
  "republished-on-clone": { title: "The dashboard is re-published on the new workbook", expected: "the value the rule names" },
  "republished-status": { title: "The re-published dashboard is published", expected: "the value the rule names" },
  "slug-reaches-source": { title: "The source's slug still reaches the source, not its clone", expected: "the value the rule names" },
  "snapshots-copied": { title: "The cloned dashboard has one report snapshot per snapshot of the source", expected: "the value the rule names" },
  "view-history": { title: "The clone's reports carry none of the source's view history", expected: "lastViewedAt null on every copied report" },
} as const satisfies Record<string, GroupReason>;

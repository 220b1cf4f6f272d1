import type { GroupReason } from "../../core/model/reasons.js";

/** What the deployments checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const deploymentsReasons = {
  "deleted-deployment-listed": { title: "A deployment deleted, whose own reads answer it gone, is no longer listed by E1", expected: "no such deployment" },
  "deleted-served": { title: "A deployment deleted and gone on /api/v1 is not served on /build/api/v1", expected: "a 4xx, as on /api/v1" },
  "deleted-counted": { title: "E1's pagination.total no longer counts a deleted deployment", expected: "one fewer than before the delete" },
  "default-limit": { title: "Pagination.limit defaults to 20", expected: "the value the rule names" },
  "default-offset": { title: "Pagination.offset defaults to 0", expected: "the value the rule names" },
  "default-page-size": { title: "A default page holds at most 20 deployments", expected: "<= 20" },
  "limit-caps": { title: "Limit=1 returns at most one deployment", expected: "<= 1 item" },
  "limit-echoed": { title: "Pagination.limit echoes the limit sent", expected: "the value the rule names" },
  "lists-unreachable": {
    title: "A deployment E1 lists to a scoped key refuses that key",
    expected: "no listed deployment answers the key's read of its environments (E2) with 403 or 404",
  },
  "omits-reachable": { title: "A deployment a scoped key can read is missing from its E1 list", expected: "E1 lists the deployments the key reads" },
  "listed-once-per-walk": { title: "No deployment appears on two pages", expected: "the value the rule names" },
  "past-end-empty": { title: "Offset=… (the total) returns no deployments", expected: "the value the rule names" },
  "published-shape": {
    title: "The deployments list is not in the published document's shape",
    expected: "data.deployments with pagination, not data as an array or items",
  },
  "read-served": {
    title: "A deployment that refuses a key its environments refuses it every read under it",
    expected: "a refusal of every read, on both prefixes",
  },
  "utc-offset": { title: "Every created_at names its UTC offset", expected: "a date-time with Z or ±hh:mm, e.g. 2024-01-15T10:30:00Z" },
} as const satisfies Record<string, GroupReason>;

import type { GroupReason } from "../../core/model/reasons.js";

/** What the policies checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const policiesReasons = {
  "action-documented": { title: "The document's policy actions include SecretsManage and DownloadData", expected: "both actions in the enum" },
  "policy-action-accepted": { title: "A policy is created with the action SecretsManage, and with DownloadData", expected: "a 2xx" },
} as const satisfies Record<string, GroupReason>;

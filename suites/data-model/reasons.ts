import type { GroupReason } from "../../core/model/reasons.js";

/** What the data-model checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const dataModelReasons = {
  "dev-mode-write": { title: "The same write in dev mode on … is applied", expected: "no …" },
  "refused-outside-dev-mode": { title: "A write on …, which is not in dev mode, is refused", expected: "the value the rule names" },
  "refused-after-stop": { title: "A write on … once its dev mode was stopped is refused", expected: "a 4xx" },
  "status-200": { title: "A compile error is reported in a 200 answer", expected: "the value the rule names" },
  "valid-false": { title: "The answer says valid=false", expected: "the value the rule names" },
  "valid-again": { title: "A branch validates again once its broken file is removed", expected: "valid=true" },
  "rename-accepted": { title: "A data-model file rename is accepted", expected: "a 2xx" },
  "source-gone": { title: "A renamed file is no longer listed under its old name", expected: "the old name not listed" },
  "content-moved": { title: "A renamed file holds what the old name held", expected: "the same hash under the new name" },
  "hashes-listed": { title: "file-hashes lists a branch's files with their hashes", expected: "200 with a list of files" },
  "upload-finished": { title: "The chunked upload's finish is accepted", expected: "a 2xx" },
  "upload-listed": { title: "A file uploaded in chunks is on the branch afterwards", expected: "the file listed" },
  "chunks-joined": { title: "Chunks uploaded in order join into the file's content", expected: "the hash of the same content written whole" },
} as const satisfies Record<string, GroupReason>;

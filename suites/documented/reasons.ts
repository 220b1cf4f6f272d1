import type { GroupReason } from "../../core/model/reasons.js";

/** What the documented checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const documentedReasons = {
  accepted: { title: "A read whose query breaks its documented rule is refused", expected: "a 4xx" },
  applied: { title: "A create whose body breaks its documented schema makes nothing", expected: "a 4xx, nothing made" },
  "not-405": { title: "… … is not in the document, and was not answered 405 or 404", expected: "405 (or 404)" },
  "read-after-create": { title: "What a create made can be read", expected: "a 2xx read of the new object" },
  "read-after-delete": { title: "A deleted object still reads", expected: "404" },
  schema: { title: "An answer matches the schema its document gives", expected: "a body of the documented schema" },
  "undocumented-status": { title: "An answer's status is one its document lists", expected: "a documented status" },
  update: { title: "What a create made can be updated where the document says", expected: "a 2xx its document lists, with its documented body" },
  "valid-create-refused": { title: "A create whose body is valid under its documented schema is not refused", expected: "a 2xx" },
  "list-contains": { title: "What a create made is in its collection's list", expected: "the new id listed" },
  "valid-request-refused": {
    title: "A request valid under its document, on an object of the run's own, is answered with a 2xx the document lists",
    expected: "a 2xx",
  },
  "value-read-back": { title: "A user's attribute value the run set is read back", expected: "the value set" },
  "round-trip": { title: "Settings written back as they were read are answered as documented", expected: "a 2xx its document lists" },
} as const satisfies Record<string, GroupReason>;

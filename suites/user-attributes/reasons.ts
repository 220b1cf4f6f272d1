import type { GroupReason } from "../../core/model/reasons.js";

/** What the user-attributes checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const userAttributesReasons = {
  "typed-value-taken": { title: "A value of an attribute's type, a number with a fraction among them, is taken", expected: "2xx" },
  "type-accepted": { title: "An attribute of type … is created", expected: "2xx" },
  "type-kept": { title: "The … attribute is stored with its type", expected: "2xx" },
  "typed-value-read-back": { title: "A user's value of an attribute of each type is read back as set", expected: "the value set" },
  "misfitting-value-refused": { title: "A value of another type than its attribute's is refused", expected: "a 4xx" },
  "respelling-read-back": { title: "A number's other spelling set right after the first is read back as set", expected: "the value set" },
  "refused-value-unchanged": { title: "After a refused value, the attribute still holds the value before it", expected: "the value before" },
} as const satisfies Record<string, GroupReason>;

import type { GroupReason } from "../../core/model/reasons.js";

/** What the spec checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const specReasons = {
  "bearer-scheme": { title: "One security scheme of the served document is HTTP bearer", expected: '{"type": "http", "scheme": "bearer"}' },
  "breaking-drift": { title: "The served document describes E1–E13 without a breaking difference", expected: "no breaking difference from the spec's E1–E13" },
  "dangling-ref": { title: "The document dereferences without a dangling or external $ref", expected: "every $ref resolved" },
  "info-version": { title: "info.version names the API version", expected: "info.version 1.0.0" },
  "openapi-version": { title: "The document declares OpenAPI 3.1", expected: "openapi 3.1.x" },
  "pre-revision-path": { title: "The served document has no path a stated revision changed, in its old form", expected: "the path as the revision left it" },
  "removed-endpoint-listed": { title: "No operation of the document is one the revision history removed", expected: "none of the removed endpoints" },
  "removed-field-described": { title: "No schema of the document declares ephemeralTtlSeconds", expected: "ephemeralTtlSeconds in no schema's properties" },
  "tabs-container-advertised": { title: "No schema of the document offers TABS_CONTAINER", expected: "TABS_CONTAINER in no enum or const" },
} as const satisfies Record<string, GroupReason>;

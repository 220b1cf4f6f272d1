import type { NamedReasonKey } from "./ids.js";

/**
 * Failure reasons: every key an assertion may fail with (CheckFailure.reason), with what it means
 * and what was expected, as data. A fault declares the key it must cause (reference faults'
 * `because`), a proof compares keys, and test/fault-reasons.test.ts holds every key named in the
 * suite and the faults to the registry. Where a key is written with values (`…`), the assertion's
 * own message fills them in. Here: the kinds, the families and the keys several groups (or core)
 * name; a key of one group's checks lives in that group's folder (`suites/<group>/reasons.ts`, or
 * the check's own `reasons`), and suites/reasons.ts assembles them all.
 * `kind: "no-5xx"`: the assertion is "no server error", which any 5xx of the route breaks: a check
 * failing for it is proven by a fault that answers 5xx, and one server error may be shared by many
 * checks (core/run/shared-defects.ts).
 * `kind: "state-change"`: the assertion compares what a write left with what stood before it; the
 * exchanges that show the change are the fact, and a re-run on fresh objects that does not see it
 * again cannot contradict it (core/run/runner.ts: such a failure is not demoted to intermittent).
 */
export interface Reason {
  title: string;
  expected: string;
  kind?: "no-5xx" | "state-change";
}

/** A group's own reason: no kind, since the runner reads kinds from core's keys alone (isStateChange). */
export type GroupReason = Omit<Reason, "kind">;

/** Keys built from a name: the schema an answer broke, the field a write dropped, the way a list walk broke. */
const FAMILIES: Record<string, (name: string) => Reason> = {
  schema: (name) => ({ title: `The answer matches the ${name} schema`, expected: `a valid ${name}` }),
  kept: (field) => ({ title: `A write that did not send ${field} keeps it`, expected: `${field} as it was`, kind: "state-change" }),
  sorted: (by) => ({ title: `The reports list sorted by ${by} is in that order`, expected: `records ordered by ${by}` }),
  walk: (how) => ({ title: `A walk of the list ends, page by page, without ${how.replace(/-/g, " ")}`, expected: "pages that end, each item once" }),
};

/** How a list walk may break (core/transport/pagination.ts): the walk family's keys. */
export const WALK_BREAKS = ["endless", "no-cursor", "not-a-page", "repeated-cursor"] as const;

/** The keys several groups, or core itself, name; and every key with a kind. */
export const coreReasons = {
  "all-moved": { title: "Each distinct workbook is listed in moved once", expected: "the value the rule names" },
  "answer-as-stored": { title: "The answer shows workbook … as E9 reads it next", expected: "the value the rule names" },
  "beyond-request": { title: "A toggle of branch … leaves the other branches' staging environments as they were", expected: "the value the rule names" },
  "client-error": { title: "The request is refused as a client error", expected: "a 4xx status" },
  "content-type": { title: "The export is labelled as CSV", expected: "content-type text/csv" },
  "data-copy": { title: "Page data is a copy of items", expected: "data holding the entries of items" },
  delete: { title: "What a create made can be deleted where the document says", expected: "a 2xx its document lists, with its documented body" },
  extra: { title: "The cursor walk yields nothing outside the whole list", expected: "only items of the whole list" },
  "filter-every-page": { title: "Page … of type=… at … lists only … environments", expected: "type … only" },
  "first-caps": { title: "A page holds at most first items", expected: "<= first" },
  folder: { title: "The clone's folderId (the source's folder, which the caller created and may edit)", expected: "the value the rule names" },
  ids: { title: "Every environment has a non-empty string id", expected: "id on each" },
  items: { title: "The deployments list answers in the spec's shape", expected: "{data: {deployments: [...]}, pagination: {...}}" },
  "list-status": { title: "A documented list answers 200", expected: "200" },
  logs: { title: "A finished sync's logs can be read", expected: "200" },
  "meta-copied": {
    title: "The clone's meta holds the source's, apart from the report ids of a draft kept in meta.dashboardDraft",
    expected: "the value the rule names",
  },
  "meta-sent": { title: "Meta.… of the new workbook is the value sent", expected: "the value the rule names" },
  missing: { title: "Every … of the whole list appears in the cursor walk", expected: "each once" },
  name: { title: "The name is the one the rule names (sent, or Copy of the source's)", expected: "the value the rule names" },
  "new-workbook": { title: "A slug no workbook holds creates a new workbook", expected: "a new id" },
  "no-5xx": { title: "The server answers without a 5xx", expected: "a status below 500", kind: "no-5xx" },
  "no-header": { title: "The … export has no header row", expected: "a header row" },
  "no-id": { title: "The answer to a create names no id of what it made", expected: "the value the rule names" },
  "no-list": { title: "The answer holds no list (items, data or an array)", expected: "a list of records" },
  "not-an-object": { title: "The served description is a JSON object", expected: "an OpenAPI document" },
  "not-applied": { title: "The refused write created no file", expected: "no …" },
  "not-csv": { title: "The export is valid CSV", expected: "RFC 4180 CSV" },
  "not-json": { title: "The answer is JSON", expected: "a JSON body" },
  "operation-missing": { title: "Every E1–E13 operation is in the served document's paths", expected: "all of E1–E13" },
  "other-deployment": { title: "No answer carries an object of another deployment", expected: "objects of the deployment asked only" },
  "own-items-move": { title: "The run's own workbooks move into its own folders (or the root) without failures", expected: "the value the rule names" },
  owner: { title: "The owner of the clone (the caller, as shown on a workbook it created)", expected: "the value the rule names" },
  "page-cap": { title: "Page … of the walk at …=… holds at most … …s", expected: "<= …" },
  precondition: { title: "A request the scenario builds on is answered usably", expected: "a usable 2xx answer" },
  repeated: { title: "No … appears twice in the cursor walk", expected: "each once" },
  "legacy-field-dropped": {
    title: "A deprecated field a server sent is kept on every later answer of the same list",
    expected: "the field, as on earlier answers",
  },
  // What an accepted version change left in E5, against the version it ran before: a second try starts from another version.
  "run-before-listed": { title: "A version the deployment ran before stays in E5's list", expected: "the version listed", kind: "state-change" },
  "secret-leaked": { title: "No answer carries a secret value the run set", expected: "the value never in an answer" },
  "secret-unmasked": { title: "A secret-named variable reads [ENCRYPTED]", expected: "[ENCRYPTED]" },
  served: { title: "An operation refuses a request without a valid key", expected: "a refusal (401 or 403)" },
  "server-error": { title: "The server answers without a 5xx", expected: "a status below 500", kind: "no-5xx" },
  "slug-stored": { title: "The slug stored: trimmed and lowercased", expected: "the value the rule names" },
  "source-unchanged": { title: "The source as read after cloning it", expected: "the value the rule names", kind: "state-change" },
  start: { title: "A dbt sync starts", expected: "2xx" },
  status: { title: "The answer has the status the rule names", expected: "the status the rule names" },
  timestamp: { title: "Every timestamp is an ISO 8601 date-time", expected: "an ISO 8601 date-time" },
  title: { title: "Info.title names a platform API", expected: "a title with 'Platform' and 'API'" },
  total: { title: "The walk yields pagination.total deployments", expected: "one total" },
  "widget-type": { title: "Every dashboard widget type is in the spec's enum", expected: "a type of the DashboardWidget enum" },
  "nothing-created": { title: "A refused write creates nothing", expected: "the list as it was" },
  refused: { title: "A write the caller may not make is refused", expected: "a refusal" },
  action: { title: "An action on an object the run made (a deployment's setup wizard) is answered as documented", expected: "a 2xx its document lists" },
  "role-refused": { title: "A caller below the AI BI User role is refused the write that needs the role", expected: "a 4xx" },
  // Named by several E14 groups: the cursor lists' walk (suites/lib/cursor-list.ts), search (suites/lib/search.ts), per-item answers of bulk actions, actions accepted and kept.
  "action-accepted": { title: "Bulk … of the run's user", expected: "no failure for …" },
  "action-kept": { title: "Embed access reads back with action …", expected: "2xx" },
  "failure-reported": { title: "The missing user is reported as a per-user failure", expected: "a failure for user …" },
  "first-honoured": { title: "A page size asked with first is honoured", expected: "at most first items" },
  "match-listed": { title: 'The … record holding "…" is listed', expected: "id …" },
  "no-duplicate-failure": { title: "Its duplicate is no failure", expected: "the value the rule names" },
  "only-matches": { title: 'No … record without "…" is listed', expected: "id …" },
  "page-info": { title: "A page carries pageInfo", expected: "pageInfo {hasNextPage, ...}" },
  "last-page": { title: "The page holding a list's last item says hasNextPage false", expected: "hasNextPage false (no empty page after it)" },
  "walk-complete": {
    title: "Walking the … list one record a page (after = endCursor) gives the records of one large page, each once",
    expected: "the value the rule names",
  },
} as const satisfies Record<string, Reason>;

/** A key of the registry: generated from it (core/model/ids.ts), so that a key no table holds does not compile. */
export type ReasonKey = NamedReasonKey | `schema:${string}` | `kept:${string}` | `sorted:${string}` | `walk:${(typeof WALK_BREAKS)[number]}`;

/** A table's entry for a key, a family's for a family key, or undefined for a key neither holds. */
export function reasonIn(table: Record<string, Reason>, key: string): Reason | undefined {
  if (Object.hasOwn(table, key)) return table[key];
  const [family, name] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
  if (!name || !(family in FAMILIES)) return undefined;
  if (family === "walk" && !(WALK_BREAKS as readonly string[]).includes(name)) return undefined;
  return FAMILIES[family](name);
}

/** Whether a key's assertion is about a change a write made to stored state (see Reason.kind; only core's keys have one). */
export const isStateChange = (key: string | undefined) => key !== undefined && reasonIn(coreReasons, key)?.kind === "state-change";

/** Whether a key is the "no server error" assertion (see Reason.kind). */
export const isNoServerError = (key: string | undefined) => key !== undefined && reasonIn(coreReasons, key)?.kind === "no-5xx";

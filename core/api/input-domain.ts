import { NOT_EXERCISED } from "./input-gaps.js";
import { LIMITS, type OperationName } from "./operations.js";
import { LOOSELY_EQUAL_STRINGS, spellSameNumber } from "./number-spellings.js";

/**
 * The input domain of every request input of E1-E14 (issue 29, section 1), beside the operations:
 * for each path, query and body field the spec names, the classes of its values and their edges,
 * derived from its type and the spec's words. Generators draw from these classes (generators/classes.ts),
 * example checks take their values from them, and a run tallies which classes it sent
 * (core/run/class-tally.ts): a rule tried only on the values its author thought of is a rule tried on
 * part of its domain.
 *
 * A class the spec rules out carries the sentence that does (`ruledOut`); one whose answer the spec
 * does not state carries why (`open`): a check sends it and accepts any reasonable answer, or does not
 * judge it.
 */
export interface ValueClass {
  name: string;
  /** Whether a value sent belongs to the class (the tally's classifier), told from the value and what the run had read before sending it. */
  holds: (v: unknown, seen: Seen) => boolean;
  /**
   * Told from what the run was answered, not from the value alone: the ids it was given, the cursors
   * pages gave, or the values the operation's answers stored (which the tally keeps only for such an operation).
   */
  byRun?: "ids" | "cursors" | "stored";
  /** Values at the class's edges: what examples send and a generator starts from. */
  edges: readonly unknown[];
  /** The spec's sentence that rules the class out. */
  ruledOut?: string;
  /** Why the spec states no answer for it. */
  open?: string;
}

/**
 * What the run had read before it sent a value (core/run/run-knowledge.ts), as a class of the value
 * asks it: a class "an id of another deployment" or "a prefix of a stored value" is a fact about the
 * server's state, which the run knows only from its answers.
 */
export interface Seen {
  /** Where the run was answered this id as an id of `kind`: in the deployment the request names, only in others, only as another kind's, never. */
  id(kind: string, id: string): "here" | "elsewhere" | "other-kind" | "never";
  /** Whether a page answered this cursor. */
  cursor(v: string): boolean;
  /** The strings the answers of the request's operation held (of the row that reads its record, for a write with one: E6's settings), or undefined while the run has read none of them. */
  stored(): ReadonlySet<string> | undefined;
}

export type InputPlace = "path" | "query" | "body";

export interface InputDomain {
  operation: OperationName;
  /** Its section (E1-E14) and, for E14, the row it stands on. */
  section: string;
  at: InputPlace;
  /** A body field's JSON pointer below the body (`/templateVariables/*` for any key of the map), else the parameter's name. */
  field: string;
  type: string;
  classes: readonly ValueClass[];
  /**
   * Classes the run does not exercise yet, each with why: a gap said, not hidden. test/class-coverage.test.ts
   * fails on a gap not listed here and on a listed one a run covered, so the list only shrinks.
   */
  notExercised?: Record<string, string>;
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const cls = (name: string, holds: (v: unknown, seen: Seen) => boolean, edges: readonly unknown[], more: Partial<ValueClass> = {}): ValueClass => ({
  name,
  holds,
  edges,
  ...more,
});

/** Far beyond any plausible cap: a value no server's fixed limit reaches unnoticed. */
export const FAR_BEYOND = 1_000_000_000;

/**
 * An integer with a stated minimum (and no stated maximum: Limits, "not shown"): below the minimum,
 * the minimum, one above, plausible values, far beyond any cap, fractional (not an integer).
 */
function integerClasses(min: number, ruling: string): ValueClass[] {
  return [
    cls("below-minimum", (v) => isNum(v) && v < min, [min - 1, -1], { ruledOut: ruling }),
    cls("minimum", (v) => v === min, [min]),
    cls("minimum-plus-one", (v) => v === min + 1, [min + 1]),
    cls("plausible", (v) => Number.isInteger(v) && (v as number) > min + 1 && (v as number) <= 1000, [20, 100, 1000]),
    cls("far-beyond-cap", (v) => Number.isInteger(v) && (v as number) > 1000, [1001, FAR_BEYOND, 2 ** 53 + 2], {
      open: "Limits: maximum values not shown; a server may cap or refuse",
    }),
    cls("fractional", (v) => isNum(v) && !Number.isInteger(v), [1.5], { ruledOut: `${ruling} (an integer)` }),
    cls("not-a-number", (v) => isStr(v) && !/^-?\d+(\.\d+)?$/.test(v), ["abc", ""], { ruledOut: `${ruling} (an integer)` }),
  ];
}

/** Free text: empty, whitespace-padded, non-ASCII (case pairs outside ASCII), long, plain. */
export const NON_ASCII_CASE_PAIRS = ["ä", "é", "ø", "ж", "ω"] as const;

function textClasses(emptyRuling?: string): ValueClass[] {
  return [
    cls("empty", (v) => v === "", [""], emptyRuling ? { ruledOut: emptyRuling } : {}),
    cls("whitespace-padded", (v) => isStr(v) && v !== v.trim() && v.trim() !== "", ["  x  ", "\tx"]),
    cls("non-ascii", (v) => isStr(v) && /[^\x00-\x7f]/.test(v), ["Ünïcödé ✓", "ÄÉ-äé", "日本語"]),
    cls("long", (v) => isStr(v) && v.length > 255, ["x".repeat(256), "x".repeat(10_000)], { open: "no length limit is stated" }),
    cls("plain", (v) => isStr(v) && v !== "" && v === v.trim() && v.length <= 255 && !/[^\x00-\x7f]/.test(v), ["value", "a"]),
  ];
}

/**
 * Free text a write stores, which the run reads back: the classes of textClasses, and another
 * spelling of a number the value read before holds (told from what the operation's reads held).
 */
function storedTextClasses(): ValueClass[] {
  return [
    ...textClasses(),
    cls("numeric-respelling", (v, seen) => isStr(v) && [...(seen.stored() ?? [])].some((s) => spellSameNumber(s, v)), LOOSELY_EQUAL_STRINGS.flat(), {
      byRun: "stored",
    }),
  ];
}

/**
 * An id: of an object the run was answered, of none, of another deployment's (for an id a deployment
 * scopes), of another kind of object, not an id at all.
 */
function idClasses(kind: string, notFound: string, scoped = true): ValueClass[] {
  const where = (v: unknown, seen: Seen) => (isStr(v) || isNum(v) ? seen.id(kind, String(v)) : undefined);
  return [
    cls("existing", (v, seen) => where(v, seen) === "here", [], { byRun: "ids" }),
    cls("missing", (v, seen) => where(v, seen) === "never", [], { byRun: "ids", open: `a ${kind} id no object has: ${notFound}` }),
    ...(scoped
      ? [cls("other-deployment", (v, seen) => where(v, seen) === "elsewhere", [], { byRun: "ids", open: `a ${kind} of another deployment: ${notFound}` })]
      : []),
    cls("other-kind", (v, seen) => where(v, seen) === "other-kind", [], { byRun: "ids", open: `the id of another kind of object: ${notFound}` }),
    cls("not-an-id", (v) => isStr(v) && !/^\d+$/.test(v), ["abc", "-1", "1.5"]),
  ];
}

/**
 * A filter on stored values, told from the values the operation's answers held before: one of them,
 * a proper prefix, a part further in, one in other case, a value no row holds.
 */
function filterClasses(): ValueClass[] {
  const stored = (seen: Seen) => [...(seen.stored() ?? [])];
  const filled = (v: unknown, seen: Seen): v is string => isStr(v) && v !== "" && seen.stored() !== undefined;
  return [
    cls("exact", (v, seen) => filled(v, seen) && seen.stored()!.has(v), [], { byRun: "stored" }),
    cls("prefix", (v, seen) => filled(v, seen) && stored(seen).some((s) => s !== v && s.startsWith(v)), [], { byRun: "stored" }),
    cls("substring", (v, seen) => filled(v, seen) && stored(seen).some((s) => s.indexOf(v) > 0), [], { byRun: "stored" }),
    cls("case-variant", (v, seen) => filled(v, seen) && !seen.stored()!.has(v) && stored(seen).some((s) => s.toLowerCase() === v.toLowerCase()), [], {
      byRun: "stored",
    }),
    cls("none-holds", (v, seen) => filled(v, seen) && !stored(seen).some((s) => s.toLowerCase().includes(v.toLowerCase())), [], { byRun: "stored" }),
    cls("empty", (v) => v === "", [""]),
  ];
}

/** An ISO 8601 date (E7): the edges of its format. */
function dateClasses(): ValueClass[] {
  const date = (v: unknown) => isStr(v) && /^\d{4}-\d{2}-\d{2}$/.test(v);
  return [
    cls("date", (v) => date(v) && !/^0/.test(v as string) && !(v as string).endsWith("-02-29"), ["2024-01-01", "2099-12-31"]),
    cls("leap-day", (v) => isStr(v) && v.endsWith("-02-29"), ["2024-02-29"]),
    cls("early-year", (v) => date(v) && /^0/.test(v as string), ["0099-01-01", "0000-01-01"]),
    cls("date-time-offset", (v) => isStr(v) && /T.*[+-]\d{2}:\d{2}$/.test(v), ["2024-01-01T10:00:00+02:00"], {
      open: "a date is asked; a date-time may be read by its date",
    }),
    cls("not-a-date", (v) => isStr(v) && !date(v) && !/T/.test(v), ["2024-02-30", "yesterday", ""], { ruledOut: "E7: start, end (ISO 8601 date)" }),
  ];
}

/** An enum: each stated value, a case variant, a value outside it. */
function enumClasses(values: readonly string[], ruling: string): ValueClass[] {
  return [
    ...values.map((v) => cls(`value:${v}`, (x) => x === v, [v])),
    cls(
      "case-variant",
      (x) => isStr(x) && !values.includes(x) && values.some((v) => v.toLowerCase() === x.toLowerCase()),
      values.map((v) => v.toUpperCase()),
    ),
    cls("outside", (x) => isStr(x) && !values.some((v) => v.toLowerCase() === x.toLowerCase()), ["other", ""], { ruledOut: ruling }),
  ];
}

/** A JSON object: empty, one key, nested two levels and more, with extra keys, not an object (null, array). */
const numbersIn = (v: unknown): number[] => (isNum(v) ? [v] : typeof v === "object" && v !== null ? Object.values(v).flatMap(numbersIn) : []);
const atAnEdge = (n: number) => Math.abs(n) >= 2 ** 31 || (n !== 0 && Math.abs(n) < 1e-6);

function objectClasses(notObject: string): ValueClass[] {
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const depth = (v: unknown): number => (obj(v) ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
  return [
    cls("empty", (v) => obj(v) && !Object.keys(v).length, [{}]),
    cls("flat", (v) => obj(v) && Object.keys(v).length > 0 && depth(v) === 1, [{ a: "1" }]),
    cls("nested", (v) => depth(v) >= 3, [{ a: { b: { c: 1 } } }]),
    // Numbers a JSON writer spells in exponent form or past 32 bits, the double's largest and smallest among them:
    // a server that prints them with fewer digits answered `Inf` (no JSON) for the largest.
    cls("number-edges", (v) => obj(v) && numbersIn(v).some(atAnEdge), [
      { max: Number.MAX_VALUE, lowest: -Number.MAX_VALUE, tiny: Number.MIN_VALUE, big: 1e21, small: 1.5e-7, safe: Number.MAX_SAFE_INTEGER },
    ]),
    cls("not-an-object", (v) => v === null || Array.isArray(v) || (v !== undefined && typeof v !== "object"), [null, [], "x"], { ruledOut: notObject }),
  ];
}

/** A cursor (after): one a page answered, one no page did. */
const cursorClasses = (): ValueClass[] => [
  cls("given", (v, seen) => isStr(v) && seen.cursor(v), [], { byRun: "cursors" }),
  cls("made-up", (v, seen) => isStr(v) && !seen.cursor(v), ["not-a-cursor"], {
    open: "Pagination: what a cursor the server never gave reads as is not shown",
  }),
];

const FIRST_RULING = "Pagination styles 2: `first` (integer, minimum 1)";
const OFFSET_RULING = "Pagination styles 1: `offset` (integer, default 0, minimum 0)";
const LIMIT_RULING = "Pagination styles 1: `limit` (integer, default 20, minimum 1)";
const NOT_FOUND_WB = "E10 rule 8; Errors 2 (404)";
/**
 * The slug is a segment of E11's path: left empty, the request names `.../by-slug/`, which servers
 * route as `.../by-slug` and the spec's table names no operation at (the door sends it only as an
 * unnamed write, whose effect the tool cannot know). The spec's history reads a trailing slash as
 * another path.
 */
const SLUG_IS_A_SEGMENT =
  'E11: `PUT .../workbooks/by-slug/{slug}`, "Path placeholders are written `{name}`" (Endpoints): the slug is a path segment; empty, the path is `.../by-slug/`, another path (Versioning 3, 0.3.0: a path "lost its trailing slash")';

/** The stated lifetime edges of E3: 1 s, the default, one past it, far beyond any plausible cap. */
const lifetimeClasses = (): ValueClass[] => [
  cls("zero-or-negative", (v) => isNum(v) && v <= 0, [0, -1], { open: "E3: a lifetime of no seconds is not stated" }),
  cls("one", (v) => v === 1, [1]),
  cls("plausible", (v) => isNum(v) && Number.isInteger(v) && v > 1 && v < LIMITS.tokenLifetimeSeconds, [60, 3600]),
  cls("default", (v) => v === LIMITS.tokenLifetimeSeconds, [LIMITS.tokenLifetimeSeconds]),
  cls("above-default", (v) => isNum(v) && v > LIMITS.tokenLifetimeSeconds && v < 10_000_000, [LIMITS.tokenLifetimeSeconds + 1, 31 * 86_400]),
  cls("far-beyond-cap", (v) => isNum(v) && v >= 10_000_000, [10_000_000, FAR_BEYOND]),
  cls("fractional", (v) => isNum(v) && !Number.isInteger(v) && v > 0, [1.5, 90.25]),
  cls("not-a-number", (v) => v !== undefined && !isNum(v), ["60", null], { ruledOut: "E3: expires_in (number)" }),
];

const q = (operation: OperationName, section: string, field: string, type: string, classes: ValueClass[]): InputDomain => ({
  operation,
  section,
  at: "query",
  field,
  type,
  classes,
});
const b = (operation: OperationName, section: string, field: string, type: string, classes: ValueClass[]): InputDomain => ({
  operation,
  section,
  at: "body",
  field,
  type,
  classes,
});
const p = (operation: OperationName, section: string, field: string, type: string, classes: ValueClass[]): InputDomain => ({
  operation,
  section,
  at: "path",
  field,
  type,
  classes,
});
const e14 = (operation: OperationName, row: string, at: InputPlace, field: string, type: string, classes: ValueClass[]): InputDomain => ({
  operation,
  section: `E14 (${row})`,
  at,
  field,
  type,
  classes,
});

const cursorInputs = (op: OperationName, s: string) => [
  q(op, s, "first", "integer, minimum 1", integerClasses(1, FIRST_RULING)),
  q(op, s, "after", "string cursor", cursorClasses()),
];
const offsetInputs = (op: OperationName, s: string) => [
  q(op, s, "offset", "integer, minimum 0", integerClasses(0, OFFSET_RULING)),
  q(op, s, "limit", "integer, minimum 1", integerClasses(1, LIMIT_RULING)),
];

const DOMAINS: readonly InputDomain[] = [
  ...offsetInputs("listDeployments", "E1"),
  p("listEnvironments", "E2", "deploymentId", "string/number", idClasses("deployment", "not stated for E2", false)),
  q(
    "listEnvironments",
    "E2",
    "type",
    "enum",
    enumClasses(["production", "staging", "development"], "E2: type (optional enum `production`, `staging`, `development`)"),
  ),
  ...offsetInputs("listEnvironments", "E2"),
  ...cursorInputs("listEnvironments", "E2"),
  b("createMetadataToken", "E3", "/security_context", "object, required", objectClasses("E3: security_context (object, required)")),
  b("createMetadataToken", "E3", "/expires_in", "number (seconds), default 86400", lifetimeClasses()),
  b("setStagingEnvironment", "E4", "/enabled", "boolean, required", [
    cls("true", (v) => v === true, [true]),
    cls("false", (v) => v === false, [false]),
    cls("not-a-boolean", (v) => v !== undefined && typeof v !== "boolean", ["true", 1, null], { ruledOut: "E4: enabled (boolean, required)" }),
  ]),
  b("setStagingEnvironment", "E4", "/branchName", "string", textClasses()),
  b("setStagingEnvironment", "E4", "/branchId", "integer", integerClasses(0, "E4: branchId (integer, id as returned by the branch list endpoint)")),
  b("updateDeployment", "E6", "/releaseChannelVersion", "a listed version", [
    cls("bare", (v) => isStr(v) && /^\d+(\.\d+)+$/.test(v), ["1.7.20"]),
    cls("v-prefixed", (v) => isStr(v) && /^v\d+(\.\d+)+$/.test(v), ["v1.7.20"]),
    cls("image-reference", (v) => isStr(v) && v.includes(":"), ["cubejs/cube:v1.7.20"]),
    // Told by its form alone: a well-formed version the list does not hold ("9.9.9") reads as bare.
    cls("unlisted", (v) => isStr(v) && !/^(v?\d+(\.\d+)+|.*:.*)$/.test(v), ["V1.7.20", "latest", ""], {
      ruledOut: "E6 rule 1: any other value is rejected with 400",
    }),
  ]),
  b("updateDeployment", "E6", "/releaseChannel", "a release channel name", textClasses()),
  b("updateDeployment", "E6", "/templateVariables/*", "object of strings, merged key by key", storedTextClasses()),
  q("exportAuditLog", "E7", "start", "ISO 8601 date", dateClasses()),
  q("exportAuditLog", "E7", "end", "ISO 8601 date", dateClasses()),
  q("exportAuditLog", "E7", "search", "full text", filterClasses()),
  q("exportAuditLog", "E7", "eventName", "event type", filterClasses()),
  q("exportAuditLog", "E7", "userEmail", "a user's email", filterClasses()),
  p("listWorkbooks", "E8", "deploymentId", "number, required", idClasses("deployment", "not stated for E8", false)),
  q("listWorkbooks", "E8", "folderId", "integer (minimum 0) or null", [
    ...integerClasses(0, "E8: folderId (integer (minimum 0) or null)"),
    cls("null", (v) => v === "null" || v === null, ["null"]),
  ]),
  ...cursorInputs("listWorkbooks", "E8"),
  p("getWorkbook", "E9", "workbookId", "integer", idClasses("workbook", "Errors 2 (404: workbook missing or in another deployment)")),
  p("duplicateWorkbook", "E10", "workbookId", "integer", idClasses("workbook", NOT_FOUND_WB)),
  b("duplicateWorkbook", "E10", "/shared", "boolean", [
    cls("absent", (v) => v === undefined, [undefined]),
    cls("false", (v) => v === false, [false]),
    cls("true", (v) => v === true, [true]),
  ]),
  p("upsertWorkbookBySlug", "E11", "slug", "string (trimmed and lowercased before matching)", [
    ...textClasses(SLUG_IS_A_SEGMENT),
    cls("ascii-case-variant", (v) => isStr(v) && /[A-Z]/.test(v), ["SLUG", "Slug"]),
    cls(
      "non-ascii-case-variant",
      (v) => isStr(v) && v !== v.toLowerCase() && /[^\x00-\x7f]/.test(v),
      NON_ASCII_CASE_PAIRS.map((c) => c.toUpperCase()),
    ),
  ]),
  b("upsertWorkbookBySlug", "E11", "/name", "string", textClasses()),
  b("upsertWorkbookBySlug", "E11", "/meta", "object (any properties), merged", objectClasses("E11: meta (object)")),
  b("upsertWorkbookBySlug", "E11", "/folderId", "integer", [...idClasses("folder", "E11 rule 4"), cls("null", (v) => v === null, [null])]),
  b("bulkMoveWorkspaceItems", "E12", "/items", "array of {type, id}, up to 100", [
    cls("empty", (v) => Array.isArray(v) && !v.length, [[]]),
    cls("one", (v) => Array.isArray(v) && v.length === 1, []),
    cls("at-limit", (v) => Array.isArray(v) && v.length === LIMITS.bulkMoveItems, []),
    cls("past-limit", (v) => Array.isArray(v) && v.length > LIMITS.bulkMoveItems, [], { ruledOut: "E12: items (up to 100)" }),
    cls("duplicates", (v) => Array.isArray(v) && new Set(v.map((i) => JSON.stringify(i))).size < v.length, [], { open: "E12: duplicates are collapsed" }),
    cls("mixed-kinds", (v) => Array.isArray(v) && new Set(v.map((i) => i?.type)).size > 1, [], { open: "E12: mixed kinds allowed" }),
  ]),
  b("bulkMoveWorkspaceItems", "E12", "/folderId", "integer or null", [
    ...idClasses("folder", "E12 (400/404 per item)"),
    cls("null", (v) => v === null, [null]),
  ]),
  ...cursorInputs("listEnvVars", "E13"),
  e14("setEnvVars", "PUT env-vars", "body", "/env_variables/*/value", "string (facts: it adds or updates by name)", storedTextClasses()),
  e14("deleteBranch", "branches delete", "query", "branchName", "string", textClasses()),
  e14(
    "listReports",
    "reports list",
    "query",
    "sortBy",
    "enum",
    enumClasses(["createdAt", "updatedAt", "lastViewedAt", "name"], "E14: sortBy among `createdAt`, `updatedAt`, `lastViewedAt`, `name`"),
  ),
  e14("listUsers", "users list", "query", "search", "string", filterClasses()),
  e14("getLogs", "logs", "query", "source", "enum", enumClasses(["production", "dev"], "E14: filter source (`production`, `dev`)")),
  // A person's name, as the served document spells it (E14 shows no shape).
  e14(
    "createUser",
    "users",
    "body",
    "/name|firstName|fullName|displayName",
    "string (served document)",
    textClasses("the served document's own minLength, where it states one"),
  ),
];

/** The table, each input with the classes a reference run does not exercise yet and why (core/api/input-gaps.ts). */
export const INPUT_DOMAINS: readonly InputDomain[] = DOMAINS.map((d) => {
  const gaps = NOT_EXERCISED[`${d.operation} ${d.field}`];
  return gaps ? { ...d, notExercised: gaps } : d;
});

/** The domain of one input of an operation; a field the table does not hold is a tester's bug. */
export function domainOf(operation: OperationName, field: string): InputDomain {
  const d = INPUT_DOMAINS.find((x) => x.operation === operation && x.field === field);
  if (!d) throw new Error(`no input domain for ${operation} ${field} (core/api/input-domain.ts)`);
  return d;
}

/** One class of an input by name. */
export function classOf(operation: OperationName, field: string, name: string): ValueClass {
  const c = domainOf(operation, field).classes.find((x) => x.name === name);
  if (!c) throw new Error(`no class ${name} of ${operation} ${field} (core/api/input-domain.ts)`);
  return c;
}

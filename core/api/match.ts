/**
 * The one way a path template meets a real path: matched (placeholders bound) or filled (each
 * segment encoded). A template is `/api/v1/deployments/{deploymentId}`; a trailing slash is
 * ignored on both sides, as servers route it.
 */
export type PathParams = Record<string, string>;

const PLACEHOLDER = /^\{([^}]+)\}$/;
const segments = (path: string) => path.replace(/(.)\/+$/, "$1").split("/");

/** A path segment decoded, or as it is where it is no valid encoding (`%E0`). */
export function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A template's segments and placeholder names, split once: every exchange of a run is matched
 * against whole tables of templates (the invariants, coverage), and splitting each template anew
 * was a tenth of the suite's own time. Templates come from tables, so the cache stays small; it
 * starts again past a bound all the same.
 */
const parsedTemplates = new Map<string, { t: string[]; names: (string | undefined)[] }>();
const MAX_PARSED_TEMPLATES = 10_000;
function parsed(template: string): { t: string[]; names: (string | undefined)[] } {
  let found = parsedTemplates.get(template);
  if (!found) {
    if (parsedTemplates.size >= MAX_PARSED_TEMPLATES) parsedTemplates.clear();
    const t = segments(template);
    found = { t, names: t.map((s) => PLACEHOLDER.exec(s)?.[1]) };
    parsedTemplates.set(template, found);
  }
  return found;
}

/** The segments of the path last split: a router matches one path against each of its templates in turn. */
let lastPath: { path: string; segments: string[] } = { path: "", segments: [""] };
function pathSegments(path: string): string[] {
  if (path !== lastPath.path) lastPath = { path, segments: segments(path) };
  return lastPath.segments;
}

/**
 * The placeholders of `template` bound to the segments `p` of a path, or undefined when it does not
 * fit. With `pathIsTemplate`, a placeholder of `path` (any name) fits any segment and binds
 * nothing: a served document's template read against another's.
 */
function bind(template: string, p: string[], pathIsTemplate: boolean): { params: PathParams; same: number } | undefined {
  const { t, names } = parsed(template);
  if (t.length !== p.length) return undefined;
  const params: PathParams = {};
  let same = 0;
  for (let i = 0; i < t.length; i++) {
    const name = names[i];
    if (pathIsTemplate && PLACEHOLDER.test(p[i])) same += name === undefined ? 0 : 1;
    else if (name === undefined) {
      if (t[i] !== p[i]) return undefined;
      same++;
    } else {
      if (p[i] === "") return undefined;
      params[name] = decode(p[i]);
    }
  }
  return { params, same };
}

/** How many segments a template or a path has (a trailing slash ignored): only a template of as many can match a path. */
export function segmentCount(path: string): number {
  return pathSegments(path).length;
}

/** The placeholders of `template` bound to the segments of `path` (decoded), or undefined when it does not fit. */
export function matchPath(template: string, path: string): PathParams | undefined {
  return bind(template, pathSegments(path), false)?.params;
}

/** Whether `template` addresses one member of the collection at `collection`: its path and one placeholder more (`/x` and `/x/{id}`). */
export function isMemberPath(collection: string, template: string): boolean {
  const c = parsed(collection).t;
  const { t, names } = parsed(template);
  return t.length === c.length + 1 && c.every((s, i) => s === t[i]) && names[c.length] !== undefined;
}

/** The name of the placeholder a template ends in (`folderId` of `.../folders/{folderId}`), or undefined. */
export function lastPlaceholder(template: string): string | undefined {
  return parsed(template).names.at(-1);
}

/**
 * `METHOD /path/{}/...`: a template's identity whatever it names its placeholders, a trailing slash
 * dropped (`.../deployments/{deploymentId}/` and `.../deployments/{id}` key the same): how two
 * tables' templates are told the same operation.
 */
export function operationKey(method: string, path: string): string {
  const asked = `${method} ${path}`;
  let key = operationKeys.get(asked);
  if (key === undefined) {
    key = `${method.toUpperCase()} ${segments(path)
      .map((s) => (PLACEHOLDER.test(s) ? "{}" : s))
      .join("/")}`;
    if (operationKeys.size >= MAX_REMEMBERED) operationKeys.clear();
    operationKeys.set(asked, key);
  }
  return key;
}
/**
 * Keys already made: the ledger keys each write's read-back and looks its table row up by key
 * (a key for every row of the table, each write), two percent of a run's CPU. Bounded as above.
 */
const operationKeys = new Map<string, string>();
const MAX_REMEMBERED = 10_000;

/** The template with each placeholder replaced by its value, encoded as one path segment. */
export function fillPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** The path of a URL or of a path (query and fragment dropped). */
function pathOf(urlOrPath: string): string {
  if (urlOrPath.startsWith("/")) return urlOrPath.replace(/[?#].*$/, "");
  try {
    return new URL(urlOrPath).pathname;
  } catch {
    return urlOrPath.replace(/[?#].*$/, "");
  }
}

/** A row of any table of templates: the spec's (core/api/operations.ts), a served document's, the reference's routes. */
export interface Template {
  method: string;
  path: string;
}

/**
 * The operation of `table` that a request went to, with its placeholders bound: the one matcher
 * of a method and path against templates. `urlOrPath` may carry values (`/deployments/7/logs`) or
 * placeholders of any name (a template of another table: each fits any segment). Where two fit
 * (`/reports/by-public-id/x` and `/reports/{reportId}/refresh`; `/users/bulk` and `/users/{id}`),
 * the one with more segments the same as the path's: a literal beats a placeholder.
 */
export function matchOperation<O extends Template>(table: readonly O[], method: string, urlOrPath: string): { operation: O; params: PathParams } | undefined {
  const index = indexOf(table);
  const asked = `${method} ${urlOrPath}`;
  let found = index.answers.get(asked) as Matched<O> | null | undefined;
  if (found === undefined) {
    const path = pathSegments(pathOf(urlOrPath));
    let best: { operation: O; params: PathParams; same: number } | undefined;
    for (const operation of (index.rows.get(`${method.toUpperCase()} ${path.length}`) ?? []) as O[]) {
      const fit = bind(operation.path, path, true);
      if (fit && (!best || fit.same > best.same)) best = { operation, params: fit.params, same: fit.same };
    }
    found = best ? { operation: best.operation, params: best.params } : null;
    if (index.answers.size >= MAX_REMEMBERED) index.answers.clear();
    index.answers.set(asked, found);
  }
  // A copy of the bound values: the caller may change them, the next caller must not see it.
  return found ? { operation: found.operation, params: { ...found.params } } : undefined;
}

type Matched<O> = { operation: O; params: PathParams };
interface TableIndex {
  /** The table's length when indexed: a table that grew is indexed again. */
  length: number;
  /** `METHOD segments`: the rows that can match a path of that method and that many segments, in the table's order. */
  rows: Map<string, Template[]>;
  /** What `METHOD urlOrPath` matched (null: nothing). */
  answers: Map<string, Matched<Template> | null>;
}
/**
 * Each table's rows by method and segment count, and its recent answers: every exchange is
 * matched against the spec's table by the door, its ledger, the class tally and the invariants
 * (each scanning the whole table), some four percent of a run's CPU. Only a row of the path's
 * method and segment count can fit it, in the table's order, so the first best fit is the same.
 */
const indexes = new WeakMap<readonly Template[], TableIndex>();
function indexOf(table: readonly Template[]): TableIndex {
  let index = indexes.get(table);
  if (!index || index.length !== table.length) {
    const rows = new Map<string, Template[]>();
    for (const row of table) {
      const key = `${row.method} ${parsed(row.path).t.length}`;
      rows.set(key, [...(rows.get(key) ?? []), row]);
    }
    index = { length: table.length, rows, answers: new Map() };
    indexes.set(table, index);
  }
  return index;
}

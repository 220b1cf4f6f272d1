import type { Method, Operation } from "./operations.js";

/**
 * The one way a path template meets a real path: matched (placeholders bound) or filled (each
 * segment encoded). A template is `/api/v1/deployments/{deploymentId}`; a trailing slash is
 * ignored on both sides, as servers route it.
 */
export type PathParams = Record<string, string>;

const PLACEHOLDER = /^\{([^}]+)\}$/;
const segments = (path: string) => path.replace(/(.)\/+$/, "$1").split("/");

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The placeholders of `template` bound to the segments of `path` (decoded), or undefined when it does not fit. */
export function matchPath(template: string, path: string): PathParams | undefined {
  const t = segments(template);
  const p = segments(path);
  if (t.length !== p.length) return undefined;
  const params: PathParams = {};
  for (let i = 0; i < t.length; i++) {
    const name = PLACEHOLDER.exec(t[i])?.[1];
    if (name === undefined) {
      if (t[i] !== p[i]) return undefined;
    } else {
      if (p[i] === "") return undefined;
      params[name] = decode(p[i]);
    }
  }
  return params;
}

/** The template with each placeholder replaced by its value, encoded as one path segment. */
export function fillPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(String(value));
  });
}

const literals = (template: string) => segments(template).filter((s) => !PLACEHOLDER.test(s)).length;

/** The path of a URL or of a path (query and fragment dropped). */
function pathOf(urlOrPath: string): string {
  if (urlOrPath.startsWith("/")) return urlOrPath.replace(/[?#].*$/, "");
  try {
    return new URL(urlOrPath).pathname;
  } catch {
    return urlOrPath.replace(/[?#].*$/, "");
  }
}

/**
 * The operation of `table` that a request went to, with its placeholders bound; where two fit
 * (`/reports/by-public-id/x` and `/reports/{reportId}/refresh`), the one with more literal segments.
 */
export function matchOperation<O extends Operation>(table: readonly O[], method: string, urlOrPath: string): { operation: O; params: PathParams } | undefined {
  const path = pathOf(urlOrPath);
  let best: { operation: O; params: PathParams } | undefined;
  for (const operation of table) {
    if (operation.method !== (method.toUpperCase() as Method)) continue;
    const params = matchPath(operation.path, path);
    if (params && (!best || literals(operation.path) > literals(best.operation.path))) best = { operation, params };
  }
  return best;
}

import type { Method } from "../../core/served/served-document.js";
import { pointerToken } from "../../core/model/json-pointer.js";

/**
 * What the revision history (Versioning 3) says was removed, and how a served document that still
 * carries it is told. The field is named; the endpoints are not: their old paths are read off the
 * names the history gives them, as the words of a path in order (`/widgets/{widgetId}/thread-id`:
 * widget, widget, id, thread, id), so these are guesses, judged at SHOULD.
 */

/** 0.2.0: "removed ... the `ephemeralTtlSeconds` session field". */
export const REMOVED_SESSION_FIELD = "ephemeralTtlSeconds";

/** A path's words in order: segments and placeholder names split at punctuation and camelCase, lowercased, plural `s` dropped. */
function wordsOf(path: string): string[] {
  return path
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase().replace(/(?<=[a-z]{3})s$/, ""));
}

/** Whether the words hold each of `seq` in this order (not necessarily next to one another). */
function inOrder(words: string[], ...seq: string[]): boolean {
  let at = 0;
  for (const w of seq) {
    const i = words.indexOf(w, at);
    if (i < 0) return false;
    at = i + 1;
  }
  return true;
}

/** The removed endpoints, each with how its old path reads. */
const REMOVED_ENDPOINTS: { what: string; was: (words: string[], method: Method) => boolean }[] = [
  // 0.4.0: "removed the endpoint that stored an AI widget thread id in a published dashboard": a thread under a widget.
  { what: "0.4.0's AI widget thread id store", was: (w) => inOrder(w, "widget", "thread") },
  // 0.3.0: "removed the active agent region endpoint (use the regions list)": an agent's region, not a region's agents.
  { what: "0.3.0's active agent region endpoint", was: (w) => inOrder(w, "agent", "region") || ["active", "agent", "region"].every((x) => w.includes(x)) },
  // 0.2.0: "removed embed-tenant user-attribute list/delete endpoints": reads and deletes of user attributes under an embed tenant.
  {
    what: "0.2.0's embed-tenant user-attribute list/delete",
    was: (w, method) =>
      (method === "GET" || method === "DELETE") && w.some((x, i) => x === "embed" && w[i + 1] === "tenant" && inOrder(w.slice(i + 2), "user", "attribute")),
  },
];

/** What removed endpoint an operation of the document looks like, if any. */
export function removedEndpoint(method: Method, path: string): string | undefined {
  const words = wordsOf(path);
  return REMOVED_ENDPOINTS.find((r) => r.was(words, method))?.what;
}

/** JSON pointers of every schema of the document that declares the property. */
export function declaring(node: unknown, property: string, at = "#"): string[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => declaring(v, property, `${at}/${i}`));
  if (!node || typeof node !== "object") return [];
  const o = node as Record<string, unknown>;
  const props = o.properties;
  const here =
    props && typeof props === "object" && !Array.isArray(props) && Object.hasOwn(props, property) ? [`${at}/properties/${pointerToken(property)}`] : [];
  return [...here, ...Object.entries(o).flatMap(([k, v]) => declaring(v, property, `${at}/${pointerToken(k)}`))];
}

import type { FullAnswer } from "../transport/http.js";
import { decode, matchOperation } from "../api/match.js";
import { OPERATIONS, READ_METHODS } from "../api/operations.js";

/** A key that names an object: `id`, or a reference to one (`deploymentId`, `folder_id`). */
const ID_KEY = /^id$|Id$|_id$/;
/** The most values one answer is searched through: a huge list still shows its ids long before. */
const MAX_NODES = 20_000;

/**
 * The ids the run has met, as the door saw them: those the server showed in its answers (found),
 * and those the answers to the run's own writes named as what they made. A request sent on purpose
 * without a key (the missing-credential probes) may reach the second and ids that name nothing,
 * never the first: a server that checks the key late, or not at all, would act on it.
 */
export class KnownIds {
  private readonly found = new Set<string>();
  private readonly made = new Set<string>();

  see(answer: FullAnswer): void {
    if (answer.status < 200 || answer.status >= 300 || !answer.isJson) return;
    if (READ_METHODS.includes(answer.method)) {
      for (const id of idsIn(answer.body)) this.found.add(id);
      return;
    }
    // A write addressed to an object by its id answers with that object: only an id its path does
    // not carry (a create's, an upsert by slug's, a clone's) is one the write made.
    const own = ownId(answer.body);
    const segments = answer.url.pathname.split("/").map(decode);
    if (own !== undefined && !segments.includes(own)) this.made.add(own);
  }

  /**
   * Why a request sent without the run's key may not go, or undefined: a write that would change
   * or remove an object the run found and did not make. The object a request acts on is its row's
   * last placeholder (`DELETE .../deployments/{deploymentId}`); a create of the run's own objects
   * (a POST of the classes "writes" and "admin-writes") acts on none. A write the table does not
   * name may act on any object its path names.
   */
  refuses(method: string, path: string): string | undefined {
    if (READ_METHODS.includes(method)) return undefined;
    const row = matchOperation(OPERATIONS, method, path);
    if (row && method === "POST" && (row.operation.write === "writes" || row.operation.write === "admin-writes")) return undefined;
    const names = Object.keys(row?.params ?? {});
    const targets = row ? (names.length ? [row.params[names[names.length - 1]]] : []) : path.split("/").filter(Boolean).map(decode);
    const found = targets.find((id) => this.found.has(id) && !this.made.has(id));
    return found === undefined
      ? undefined
      : `a request without a key to ${found}, an object the server showed and the run did not make: a keyless probe goes to reads, the run's own objects or ids that name nothing`;
  }
}

/** The ids an answer names, wherever it keeps them (bounded: a list of thousands shows them all well before). */
function idsIn(body: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [body];
  for (let n = 0; stack.length && n < MAX_NODES; n++) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        if (ID_KEY.test(k) && (typeof x === "string" || typeof x === "number")) out.push(String(x));
        else if (x && typeof x === "object") stack.push(x);
      }
  }
  return out;
}

/** The id of the object a write's answer carries, under the wrappers the table's answers use. */
export function ownId(body: any): string | undefined {
  const id = [body?.id, body?.data?.id, body?.item?.id, body?.deployment?.id, body?.data?.deployment?.id].find(
    (x) => typeof x === "string" || typeof x === "number",
  );
  return id === undefined ? undefined : String(id);
}

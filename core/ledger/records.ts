import { isDeepStrictEqual } from "node:util";
import { TEMPLATE_VARIABLE_POOL } from "../api/fixed-names.js";
import type { Api } from "../transport/api.js";
import { fillPath, type PathParams } from "../api/match.js";
import type { Operation } from "../api/operations.js";
import { LeftBehind } from "./left-behind.js";

/**
 * A settings-like record the run changed (a deployment's settings, the tenant's, a user, an embed
 * access list): read before the first write a caller sends it, put back at the caller's cleanup
 * field by field, and read back. Entered by the door (core/ledger/door-ledger.ts) for every write
 * of a row that has a read (its `readBy`, or a GET of the same path), whichever code sent it.
 */

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The one reader of a record's answer (E14: shape not shown): under the wrappers the server's own
 * document declares for it (`wrappers`, core/served/answers.ts wrappersOf), where that holds
 * `fields` (or any object, when none is known yet); else the object that holds `fields`, as the
 * answer itself, under `data`, under `settings`, or under `data.settings` (a server that nests them
 * one level deeper), else under any one key of `data` or of the answer (`{data: {deployment: {...},
 * envVarNames}}`); else the outermost object, under `data` or not.
 */
export function recordIn(body: any, fields: readonly string[], wrappers: readonly string[] = []): Record<string, any> | undefined {
  const served = wrappers.length ? wrappers.reduce((v, w) => v?.[w], body) : undefined;
  if (isObject(served) && (!fields.length || fields.some((f) => f in served))) return served;
  const candidates = [body?.data?.settings, body?.settings, body?.data, body].filter(isObject);
  const holds = (c: Record<string, any>) => fields.some((f) => f in c);
  const nested = [body?.data, body].filter(isObject).flatMap((o) => Object.values(o).filter(isObject));
  return candidates.find(holds) ?? nested.find(holds) ?? candidates.at(-2) ?? candidates.at(-1);
}

/**
 * Whether a field reads as it did. An object of values (E6's templateVariables) merges key by key,
 * so a write can add a key but never remove one: it is kept when every earlier key holds its value.
 */
function kept(now: unknown, before: unknown): boolean {
  if (isObject(now) && isObject(before)) return Object.entries(before).every(([k, v]) => isDeepStrictEqual(now[k], v));
  return isDeepStrictEqual(now, before);
}

/** The named fields of a record, as a body that writes them. */
export const pick = (o: Record<string, any>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

/** One record a caller changed: how to read it, how to write it back, what it held before. */
export interface RecordEntry {
  write: Operation;
  read: Operation;
  params: PathParams;
  /** The fields the row always holds (E6's), else none: the fields the accepted writes carried are added as they come. */
  fields: Set<string>;
  /** What the read answered before the first write: the record, or why there is none. */
  before: { record: Record<string, any> } | { unread: string };
  /** A write to it was answered 2xx: only then is there anything to put back. */
  accepted: boolean;
  /** The fields each accepted write carried together: a field a server takes only beside others goes back beside them. */
  together: string[][];
  /** The wrappers the server's document declares for the read's answer (recordIn). */
  wrappers: readonly string[];
}

/** Reads the record before the first write (the run's key, whatever the write carries), through the document's wrappers. */
export async function readBefore(api: Api, write: Operation, read: Operation, params: PathParams, wrappers: readonly string[]): Promise<RecordEntry> {
  const fields = new Set(write.fields ?? []);
  const res = await api.get(fillPath(read.path, params)).catch((err) => err as Error);
  const record = res instanceof Error ? undefined : res.status === 200 && res.isJson ? recordIn(res.body, [...fields], wrappers) : undefined;
  return {
    write,
    read,
    params,
    fields,
    accepted: false,
    together: [],
    wrappers,
    before: record ? { record } : { unread: res instanceof Error ? res.message : `its read answered ${res.status}` },
  };
}

/**
 * Puts the record back where it differs from before, and reads it back: what still differs is a
 * leftover, said with the read that shows it and the request that would put it back (thrown with
 * that read: the ledger reports a failed undo, read once more before the report). A key an object of values gained is no difference when it is one
 * of the tool's fixed names; another one is a leftover.
 */
export async function putBack(api: Api, e: RecordEntry): Promise<void> {
  if (!e.accepted) return;
  const readPath = fillPath(e.read.path, e.params);
  const writePath = fillPath(e.write.path, e.params);
  if ("unread" in e.before)
    throw new Error(`${e.write.method} ${writePath} was applied, but what it held before is not known (${e.before.unread}): it is not put back`);
  const before = e.before.record;
  // A field that read null is put back to null too (a server that set it when a body left it out).
  const fields = [...e.fields].filter((f) => f in before);
  const read = async () => {
    const res = await api.get(readPath);
    if (res.status === 404 || res.status === 410) return { res, record: undefined };
    if (res.status !== 200 || !res.isJson) throw new Error(`GET ${readPath} answered ${res.status}: ${e.write.method} ${writePath} could not be checked`);
    return { res, record: recordIn(res.body, fields, e.wrappers) ?? {} };
  };
  let after = await read();
  // Gone (an object of the run's own, removed by now): nothing to put back.
  if (!after.record) return;
  // A second round puts back what the first moved without carrying it: a field the server derives
  // from another (the hold a version not its channel's latest takes, published docs) when the
  // run's own write had left it as it was. Two rounds at most: a third would change nothing new.
  for (let round = 0; round < 2; round++) {
    const changed = fields.filter((f) => !kept(after.record![f], before[f]));
    if (!changed.length) break;
    let res = await api.send({ method: e.write.method, path: writePath, body: pick(before, changed) });
    // A field a server refuses alone (an image set beside a version) goes back beside the fields it was written with, each as it was.
    const beside = [...new Set([...changed, ...e.together.filter((t) => t.some((f) => changed.includes(f))).flat()])].filter((f) => f in before);
    if (res.status >= 400 && res.status < 500 && beside.length > changed.length)
      res = await api.send({ method: e.write.method, path: writePath, body: pick(before, beside) });
    if (res.status < 200 || res.status >= 300) throw new Error(`${e.write.method} ${writePath} answered ${res.status} when putting back ${changed.join(", ")}`);
    after = await read();
    if (!after.record) return;
  }
  const differences = (record: Record<string, any>) => ({
    left: fields.filter((f) => !kept(record[f], before[f])),
    added: fields.flatMap((f) =>
      isObject(record[f]) && isObject(before[f])
        ? Object.keys(record[f])
            .filter((k) => !(k in before[f]) && !TEMPLATE_VARIABLE_POOL.includes(k))
            .map((k) => `${f}.${k}`)
        : [],
    ),
  });
  const { left, added } = differences(after.record);
  if (!left.length && !added.length) return;
  const url = new URL(writePath, api.baseUrl).toString();
  throw new LeftBehind(
    [
      ...left.map((f) => `${f} reads ${JSON.stringify(after.record![f])}, was ${JSON.stringify(before[f])}`),
      ...added.map((k) => `${k} was added, a name outside the tool's fixed ones`),
    ].join("; ") +
      ` (read back: GET ${readPath} answered ${after.res.status})${left.length ? `; to put it back: curl -X ${e.write.method} '${url}' -H 'Authorization: Bearer $API_KEY' -H 'Content-Type: application/json' -d '${JSON.stringify(pick(before, left))}'` : ""}`,
    // Read once more before the report: a record gone, or as before by then, is not reported.
    async () => {
      const { record } = await read();
      if (!record) return false;
      const still = differences(record);
      return still.left.length + still.added.length > 0;
    },
  );
}

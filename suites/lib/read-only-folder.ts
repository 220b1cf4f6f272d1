import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { listed } from "../../core/served/served-operations.js";
import { servedOrPlain } from "./e14.js";
import { isObject } from "./values.js";
import { TOOL_NAME } from "../../core/ledger/scratch.js";

/** Root folders tried, at most: each costs one refused (or undone) create. */
const TRIED = 8;

/** Per run and deployment, the folder found: the checks that need one share a single search. */
const found = new WeakMap<object, Map<string, Promise<{ id: number }>>>();

/**
 * A folder the readOnly key can read but not edit (Authentication 4's read-only cases):
 * fixtures.readOnlyFolderId where the config names one, else one found black-box: among the root
 * folders the readOnly key lists that the tool did not make, the first in which it is refused (403) a folder of its own, where
 * it may make one at the root (else the refusal is its role's, not the folder's). A folder it does
 * make is the run's, removed at cleanup, and a folder it could make one in is no candidate.
 */
export function readOnlyFolder(ctx: CheckContext, dep: string): Promise<{ id: number }> {
  const configured = ctx.settings.fixtures.readOnlyFolderId;
  if (configured !== undefined) return Promise.resolve({ id: configured });
  const byDeployment = found.get(ctx.settings) ?? new Map<string, Promise<{ id: number }>>();
  found.set(ctx.settings, byDeployment);
  let search = byDeployment.get(dep);
  if (!search) byDeployment.set(dep, (search = findReadOnlyFolder(ctx, dep)));
  return search;
}

async function findReadOnlyFolder(ctx: CheckContext, dep: string): Promise<{ id: number }> {
  const missing = (why: string) => new NotExercised(`no folder the readOnly token can read but not edit was found (set fixtures.readOnlyFolderId): ${why}`);
  const readOnly = ctx.as("readOnly");
  const list = await readOnly.call("listFolders", { deploymentId: dep }, { query: { first: 50 } });
  // Not a folder the tool made (this check's probes, another check's scratch folder beside it, an
  // earlier run's leftover): its maker removes it, perhaps while this check still needs it.
  const folders = (list.status === 200 && list.isJson ? (listed(list.body) ?? []) : []).filter(
    (f: unknown) => isObject(f) && Number.isSafeInteger(f.id) && !TOOL_NAME.test(String(f.name ?? "")),
  );
  if (!folders.length) throw missing(`the readOnly key lists no root folder (GET folders answered ${list.status})`);
  const create = await servedOrPlain(ctx, "createFolder");
  /** A folder of the readOnly key's own, under `parentId` (the root where undefined): the answer, and the folder tracked for cleanup. */
  const probe = async (parentId?: number) => {
    const name = ctx.scratch.name("probe");
    const res = await readOnly.call("createFolder", { deploymentId: dep }, { body: parentId === undefined ? { name } : { name, parentId } });
    const id = res.isJson ? create.created(res).id : undefined;
    if (res.status < 300 && typeof id === "number" && Number.isSafeInteger(id)) ctx.scratch.track(dep, { type: "FOLDER", id }, { res, name });
    return res;
  };
  // A refusal tells the folder's access only where the key may create folders at all: refused at the root too, it is the key's role.
  const atRoot = await probe();
  if (atRoot.status < 200 || atRoot.status >= 300)
    throw missing(`the readOnly key may create no folder even at the root (${atRoot.status}), so a refusal in a folder would say nothing of its access there`);
  for (const folder of folders.slice(0, TRIED)) if ((await probe(folder.id)).status === 403) return { id: folder.id };
  throw missing(`none of the first ${Math.min(TRIED, folders.length)} root folders the readOnly key lists refused it a folder of its own (403)`);
}

import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { servedOrPlain } from "./e14.js";

/**
 * A folder the readOnly key may edit: fixtures.editableFolderId where the config names one, else a
 * folder the readOnly key makes itself at the root (what a caller makes is its to edit; the AI BI
 * User role makes folders, facts: Workspace endpoints). Each check makes its own: a folder shared
 * between checks would be removed by its maker's cleanup while another still used it.
 */
export async function editableFolder(ctx: CheckContext, dep: string): Promise<{ id: number }> {
  const configured = ctx.settings.fixtures.editableFolderId;
  if (configured !== undefined) return { id: configured };
  const name = ctx.scratch.name("editable");
  const res = await ctx.as("readOnly").call("createFolder", { deploymentId: dep }, { body: { name } });
  const id = res.isJson ? (await servedOrPlain(ctx, "createFolder")).created(res).id : undefined;
  if (res.status < 200 || res.status >= 300 || typeof id !== "number" || !Number.isSafeInteger(id))
    throw new NotExercised(`the readOnly key made no folder of its own at the root (${res.status}), and the config names no fixtures.editableFolderId`);
  ctx.scratch.track(dep, { type: "FOLDER", id }, { res, name });
  return { id };
}

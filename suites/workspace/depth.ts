import { group } from "../../core/check/check.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { pathTo } from "../../core/transport/client.js";
import { field } from "../../core/served/served-operations.js";
import type { Response } from "../../core/transport/http.js";
import { servedOrPlain } from "../lib/e14.js";
import { WRITES } from "../lib/needs.js";

/** Folders nested one in another, at most, looking for the depth past which a create is refused (the platform publishes none). */
const DEEPEST_TRIED = 32;

export const workspaceDepthChecks = group("workspace", [
  {
    id: "workspace.folders.depth-limit-refused",
    spec: "E14 (POST .../folders; facts: nesting has a maximum depth, 400 beyond it)",
    // SHOULD: the limit and its 400 are the published documentation's (facts), not the spec's.
    level: "SHOULD",
    title: "A folder created past the maximum nesting depth is refused with 400, and no folder is made",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const create = await servedOrPlain(ctx, "createFolder");
      let parent: number | null = null;
      for (let depth = 1; depth <= DEEPEST_TRIED; depth++) {
        const name = ctx.scratch.name("deep");
        const res: Response = await ctx.api.call("createFolder", { deploymentId: dep }, { body: parent === null ? { name } : { name, parentId: parent } });
        if (res.status >= 200 && res.status < 300) {
          const id: unknown = res.isJson ? create.created(res).id : undefined;
          if (typeof id !== "number" || !Number.isSafeInteger(id))
            throw new NotVerifiable(`a folder create at depth ${depth} answered ${res.status} with no folder id`);
          ctx.scratch.track(dep, { type: "FOLDER", id }, { res, name });
          parent = id;
          continue;
        }
        // The first, at the root, is any check's folder of its own; an answer that is no refusal tells no limit.
        if (depth === 1) ctx.require(res, "E14", "creating a folder of its own");
        if (res.status < 400 || res.status >= 500)
          throw new NotVerifiable(`a folder create at depth ${depth} answered ${res.status}, neither made nor refused`);
        // Read back before judging: a folder the refusal made anyway is the run's to remove.
        const walk = await walkCursor<any>(ctx.api, pathTo("listFolders", { deploymentId: dep }), { first: 100, query: { parentId: parent ?? undefined } });
        const kept = walk.items.find((f) => field(f, "name") === name);
        if (Number.isSafeInteger(kept?.id)) ctx.scratch.track(dep, { type: "FOLDER", id: kept.id }, { name });
        ctx.expect.that(kept === undefined, `the folder refused at depth ${depth} is not made under folder ${parent}`, {
          expected: `no folder ${name} under ${parent}`,
          got: kept,
          res: walk.pages.at(-1)?.res,
          reason: "refused-not-made",
        });
        ctx.expect.status(res, 400, `a folder past the maximum depth (at depth ${depth})`, "depth-refused-400");
        return;
      }
      throw new NotExercised(`folders nested ${DEEPEST_TRIED} deep were all made: no maximum depth was met`);
    },
  },
]);

import { groupedById } from "../../core/check/check.js";
import { bulkMoveStage, bulkMoveTyped } from "../lib/bulk-move-stage.js";
import { cloneStage } from "../lib/clone-stage.js";
import { upsertStage } from "../lib/upsert-stage.js";
import { type Part, everything, negative } from "../lib/negative-check.js";

const WORKSPACE_PARTS: Part[] = [
  { endpoint: "E10", stage: cloneStage, select: everything },
  { endpoint: "E11", stage: upsertStage, select: everything },
  { endpoint: "E12", stage: bulkMoveStage, select: bulkMoveTyped },
];

export const workspaceNegativeChecks = groupedById([
  negative({
    id: "workspace.negative.broken-body",
    spec: "E10 (body {shared: boolean}); E11 (name string, folderId integer, meta object); E12 (items array, folderId integer or null); no status named",
    level: "MUST",
    title:
      "Any clone, upsert or bulk-move body with a field of a type other than the one the spec shows, that is not an object, or that is not JSON, creates, changes and moves nothing beyond what the request without its unusable part does, and is no server error",
    needs: ["writes", "fixture:deployment"],
    judged: "not-applied",
    parts: WORKSPACE_PARTS,
  }),
  negative({
    id: "workspace.negative.broken-body-4xx",
    spec: "E10 (body {shared: boolean}); E11 (name string, folderId integer, meta object); E12 (items array, folderId integer or null)",
    // SHOULD: the spec names no status for a wrongly typed clone, upsert or bulk-move body.
    level: "SHOULD",
    title:
      "Any clone, upsert or bulk-move body with a field of a type other than the one the spec shows, that is not an object, or that is not JSON, is rejected with a 4xx",
    needs: ["writes", "fixture:deployment"],
    parts: WORKSPACE_PARTS,
  }),
]);

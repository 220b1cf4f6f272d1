import { eachRecord } from "./kit/input-domain.js";
import { folderIndex } from "./kit/properties-workspace.js";
import { workbookRecord } from "../serialize.js";
import type { Fault } from "../http.js";

/** The faults of the group model (suites/model/): each makes a check of it fail, for the reason its `because` names. */
export const modelFaults: Fault[] = [
  {
    name: "folder-path-first-ancestor-dropped",
    breaks: "Resources / Workbook (folderPath: ancestors of the containing folder)",
    description: "folderPath leaves out the outermost of two or more ancestors, on every read path",
    because: { "model.workspace.sequence": "folder-path" },
    routes: ["E8", "E9", "E10", "E11", "E12"],
    respond: eachRecord((w) => (Array.isArray(w?.folderPath) && w.folderPath.length >= 2 ? { ...w, folderPath: w.folderPath.slice(1) } : w)),
  },
  {
    name: "workbook-list-stale-after-move",
    breaks: "E8 (folderId filter); States (bulk move)",
    description:
      "E8's folderId filter reads an index that upserts and clones keep and bulk moves do not: a moved workbook is still listed in its old folder, not in its new one",
    because: { "model.workspace.sequence": "folder-contents" },
    routes: ["E10", "E11", "E8"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200) return body;
      let index = folderIndex.get(app.store);
      if (!index) folderIndex.set(app.store, (index = new Map()));
      if (req.method !== "GET") {
        index.set(body.id, body.folderId);
        return body;
      }
      const raw = req.query.get("folderId");
      if (raw === null || raw === "null") return body;
      const listed = [...app.store.items.values()]
        .filter(
          (w) =>
            w.type === "WORKBOOK" && String(w.deploymentId) === req.params.deploymentId && (index.has(w.id) ? index.get(w.id) : w.folderId) === Number(raw),
        )
        .sort((a, b) => a.id - b.id)
        .map((w) => workbookRecord(app.store, w));
      return { ...body, items: listed, data: listed, count: listed.length };
    },
  },
];

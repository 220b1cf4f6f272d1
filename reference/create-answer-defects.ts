import type { App, Req } from "./http.js";
import { workbookRecord } from "./serialize.js";
import type { Item } from "./store.js";
import type { Variant } from "./variant.js";

/** A create of a workspace item: E11 (PUT by slug), E10 (duplicate), or POST folders. */
function createdItemType(req: Req): Item["type"] | undefined {
  if (req.operation === "upsertWorkbookBySlug" || req.operation === "duplicateWorkbook") return "WORKBOOK";
  return req.operation === "createFolder" ? "FOLDER" : undefined;
}

/** The oldest item of a type in a deployment other than the answer's own (a seeded one: there before any run). */
function existingItem(app: App, type: Item["type"], where: (i: Item) => boolean): Item | undefined {
  return [...app.store.items.values()].filter((i) => i.type === type && where(i)).sort((a, b) => a.id - b.id)[0];
}

function itemAnswer(app: App, item: Item): Record<string, unknown> {
  return item.type === "FOLDER"
    ? { id: item.id, name: item.name, deploymentId: item.deploymentId, type: "FOLDER", parentId: item.folderId }
    : workbookRecord(app.store, item);
}

/**
 * Defects of a create's answer that a run's cleanup must survive, never conforming shapes: the
 * create happens, but the answer names another object. Not among `variants` (the clean runs): the
 * ledger tests (test/ledger.test.ts) run them and show that nothing the run did not make is deleted.
 */
export const createAnswerDefects: Variant[] = [
  {
    name: "create-answers-existing-id",
    description: "A create (E10, E11, POST folders) makes its object but answers with the record of an object that existed before, in the same deployment",
    routes: ["E10", "E11", "E14"],
    respond: (body, req, app) => {
      const type = createdItemType(req);
      const other =
        type && body?.id !== undefined ? existingItem(app, type, (i) => String(i.deploymentId) === req.params.deploymentId && i.id !== body.id) : undefined;
      return other ? itemAnswer(app, other) : body;
    },
  },
  {
    name: "create-answers-other-deployment",
    description: "A create (E10, E11, POST folders) makes its object but answers with the record of an object of another deployment",
    routes: ["E10", "E11", "E14"],
    respond: (body, req, app) => {
      const type = createdItemType(req);
      const other = type && body?.id !== undefined ? existingItem(app, type, (i) => String(i.deploymentId) !== req.params.deploymentId) : undefined;
      return other ? itemAnswer(app, other) : body;
    },
  },
];

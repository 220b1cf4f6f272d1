import { operation } from "../../../core/api/operations.js";
import type { Fault } from "../../http.js";
import { servedSpec } from "./spec-document.js";

export const CLONE_PATH = operation("duplicateWorkbook").path;

export const VERSIONS_PATH = operation("listVersions").path;

export const WORKBOOKS_PATH = operation("listWorkbooks").path;

const FOLDERS_PATH = operation("listFolders").path;

/** A folder by its id: the path of its delete (the table has no read of one). */
export const FOLDER_PATH = operation("deleteFolder").path;

/**
 * The served document with the folders create (which the reference serves) documented, linked to
 * a read of one folder by id, a path the reference does not serve (a folder is removed by the run's
 * workspace cleanup all the same).
 */
export function documentFolders(opts: { maxLength?: number }): NonNullable<Fault["respond"]> {
  return servedSpec((doc) => {
    const name = { type: "string", minLength: 1, ...(opts.maxLength ? { maxLength: opts.maxLength } : {}) };
    const folder = { type: "object", required: ["id", "name"], properties: { id: { type: "integer" }, name: { type: "string" } } };
    doc.paths[FOLDERS_PATH] = {
      ...doc.paths[FOLDERS_PATH],
      post: {
        operationId: "cfCreateFolder",
        parameters: [{ name: "deploymentId", in: "path", required: true, schema: { type: "string" } }],
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["name"], properties: { name } } } } },
        responses: {
          "200": {
            description: "the folder",
            content: { "application/json": { schema: folder } },
            links: { read: { operationId: "cfGetFolder", parameters: { folderId: "$response.body#/id" } } },
          },
          "400": { description: "invalid" },
        },
      },
    };
    doc.paths[`${FOLDERS_PATH}/{folderId}`] = {
      get: {
        operationId: "cfGetFolder",
        parameters: [
          { name: "deploymentId", in: "path", required: true, schema: { type: "string" } },
          { name: "folderId", in: "path", required: true, schema: { type: "integer" } },
        ],
        responses: { "200": { description: "the folder", content: { "application/json": { schema: folder } } } },
      },
    };
  });
}

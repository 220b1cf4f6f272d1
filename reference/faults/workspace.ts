import { folderRecord } from "../serialize.js";
import { HttpError, type Fault } from "../http.js";
import { newItem } from "../store.js";

/** The faults of the group workspace (suites/workspace/): each makes a check of it fail, for the reason its `because` names. */
export const workspaceFaults: Fault[] = [
  {
    name: "folder-past-depth-kept",
    breaks: "E14 (POST .../folders; facts: 400 past the maximum depth)",
    description: "a folder past the maximum depth is stored before the depth is checked: the create answers 400, and the folder is listed under its parent",
    because: { "workspace.folders.depth-limit-refused": "refused-not-made" },
    operations: ["createFolder"],
    handle: async ({ req, app, next }) => {
      try {
        return await next();
      } catch (err) {
        const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
        if (err instanceof HttpError && err.status === 400 && /nest at most/.test(err.message) && dep)
          newItem(app.store, {
            deploymentId: dep.id,
            type: "FOLDER",
            name: req.body.name,
            folderId: req.body.parentId ?? null,
            createdBy: req.user.id,
            position: 0,
          });
        throw err;
      }
    },
  },
  {
    name: "folder-past-depth-422",
    breaks: "E14 (POST .../folders; facts: 400 past the maximum depth)",
    description: "a folder past the maximum depth is refused with 422, not 400",
    because: { "workspace.folders.depth-limit-refused": "depth-refused-400" },
    operations: ["createFolder"],
    handle: async ({ next }) => {
      try {
        return await next();
      } catch (err) {
        if (err instanceof HttpError && err.status === 400 && /nest at most/.test(err.message)) throw new HttpError(422, err.message);
        throw err;
      }
    },
  },
  {
    name: "folders-list-descendants",
    breaks: "E14 (facts: GET .../folders lists one level)",
    description: "under parentId the folders list gives every descendant folder, grandchildren included, not one level",
    because: { "workspace.folders.one-level": "one-level" },
    operations: ["listFolders"],
    respond: ({ status, body, req, app }) => {
      const parent = Number(req.query.get("parentId"));
      if (status !== 200 || !req.query.get("parentId") || !Number.isSafeInteger(parent)) return body;
      const folders = [...app.store.items.values()].filter((i) => i.type === "FOLDER" && String(i.deploymentId) === req.params.deploymentId);
      const below = (id: number): typeof folders => folders.filter((f) => f.folderId === id).flatMap((f) => [f, ...below(f.id)]);
      const listed = new Set(body.items.map((f: { id: number }) => f.id));
      const deeper = below(parent)
        .filter((f) => !listed.has(f.id))
        .map((f) => ({ id: f.id, name: f.name, deploymentId: f.deploymentId, type: "FOLDER", parentId: f.folderId }));
      return { ...body, items: [...body.items, ...deeper], data: [...body.data, ...deeper] };
    },
  },
  {
    name: "folders-data-copy-ignores-parent",
    breaks: "E14 (facts: GET .../folders lists one level, with a deprecated data copy)",
    description: "under parentId the folders list's items are the children, but its deprecated data copy holds the root's folders",
    because: { "workspace.folders.one-level": "one-level" },
    operations: ["listFolders"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200 || !req.query.get("parentId")) return body;
      const root = [...app.store.items.values()].filter(
        (i) => i.type === "FOLDER" && String(i.deploymentId) === req.params.deploymentId && i.folderId === null,
      );
      return { ...body, data: root.map(folderRecord) };
    },
  },
  {
    name: "folder-position-zero-ignored",
    breaks: "E14 (POST .../folders; facts: a folder is made from {name, parentId?, position?}, and a folder item has position)",
    description: "a folder created at position 0 is made as if no position were asked for: after its siblings (a `position || next` reading)",
    because: { "workspace.folders.position-kept": "position-answered" },
    operations: ["createFolder"],
    handle: ({ req, next }) => {
      if (req.body?.position === 0) req.body = { ...req.body, position: undefined };
      return next();
    },
  },
  {
    name: "clone-body-types-unchecked",
    breaks: "E10 (body {shared: boolean})",
    description:
      "any clone body is served: one that is not an object, or whose shared is not a boolean, makes a plain clone (a reading of the unusable part as absent: the MUST holds, the 4xx the SHOULD asks for is missing)",
    because: { "workspace.negative.broken-body-4xx": "client-error" },
    spares: ["workspace.negative.broken-body"],
    behaviour: { cloneBodyProblem: () => undefined },
  },
  {
    name: "clone-mistyped-shared-answers-source",
    breaks: "E10 (body {shared: boolean}; Response 200: the new Workbook)",
    description:
      "a clone body whose shared is not a boolean makes a plain clone but answers with the source workbook's id: the clone made is not the one answered",
    because: { "workspace.negative.broken-body": "beyond-request" },
    routes: ["E10"],
    behaviour: {
      cloneBodyProblem: (body) =>
        body === undefined || (typeof body === "object" && body !== null && !Array.isArray(body)) ? undefined : "the body must be an object {shared?}",
    },
    respond: ({ status, body, req }) => {
      const shared = req.body && typeof req.body === "object" ? (req.body as { shared?: unknown }).shared : undefined;
      return status === 200 && shared !== undefined && typeof shared !== "boolean" ? { ...body, id: Number(req.params.workbookId) } : body;
    },
  },
  {
    name: "folders-cursor-skips-one",
    breaks: "E14 (GET .../folders: cursor pagination); Pagination styles 2",
    description:
      "the folders list reads a cursor as the position after the one it marks: each page after the first starts one folder late, and a walk skips one per page",
    because: { "workspace.folders.cursor-walk": "missing" },
    operations: ["listFolders"],
    handle: ({ req, next }) => {
      const after = req.query.get("after");
      if (after) {
        try {
          const p = JSON.parse(Buffer.from(after, "base64url").toString("utf8")).p;
          if (Number.isInteger(p)) req.query.set("after", Buffer.from(JSON.stringify({ p: p + 1 })).toString("base64url"));
        } catch {
          /* not a cursor of this server's: the handler refuses it */
        }
      }
      return next();
    },
  },
];

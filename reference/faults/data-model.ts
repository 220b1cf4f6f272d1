import { branchFiles, devModeOf, e14 } from "../e14/state.js";
import { deploymentOf } from "../routes/common.js";
import { ok, type App, type Fault, type Req } from "../http.js";

/** The faults of the group data-model (suites/data-model/): each makes a check of it fail, for the reason its `because` names. */
/** Per reference app, the branches whose validation failed once (fault validate-result-cached). */
/** The handler takes the branch the request names as in dev mode for its caller (the dev-mode rule skipped), and dev mode is put back after. */
function devModeLent(branchOf: (req: Req, app: App) => unknown): NonNullable<Fault["handle"]> {
  return async ({ req, app, next }) => {
    const dev = devModeOf(e14(app.store), deploymentOf(app, req).id);
    const branch = branchOf(req, app);
    const lent = typeof branch === "string" && !dev.has(branch);
    if (lent) dev.set(branch, req.user.id);
    try {
      return await next();
    } finally {
      if (lent) dev.delete(branch);
    }
  };
}

const failedOnce = new WeakMap<object, Set<string>>();

export const dataModelFaults: Fault[] = [
  {
    name: "rename-outside-dev-mode",
    breaks: "E14 rule 2 (data-model files are written only on dev-mode branches)",
    description: "a rename is applied on a branch that is not in dev mode (writes and deletes are still refused there)",
    because: { "data-model.files.rename-needs-dev-mode": "refused-outside-dev-mode" },
    operations: ["renameDataModelFiles"],
    handle: devModeLent((req) => req.body?.branchName),
  },
  {
    name: "rename-copies",
    breaks: "E14 rule 14 (rename)",
    description: "renaming a data-model file copies it: the old name stays",
    because: { "data-model.files.rename": "source-gone" },
    operations: ["renameDataModelFiles"],
    handle: async ({ req, app, next }) => {
      const reply = await next();
      const renamed = reply.body as { branchName: string; from: string; to: string };
      if (reply.status === 200) {
        const files = branchFiles(e14(app.store), deploymentOf(app, req), renamed.branchName);
        files.set(renamed.from, files.get(renamed.to)!);
      }
      return reply;
    },
  },
  {
    name: "upload-keeps-first-chunk",
    breaks: "E14 rule 14 (chunked upload)",
    description: "a second chunk of the same file in an upload is acknowledged and dropped",
    because: { "data-model.upload.chunks-joined": "chunks-joined" },
    operations: ["uploadFile"],
    handle: ({ req, app, next }) => {
      const upload = e14(app.store).uploads.get(req.body?.uploadId);
      if (upload?.files.has(req.body.fileName))
        return ok({ uploadId: req.body.uploadId, fileName: req.body.fileName, size: upload.files.get(req.body.fileName)!.length });
      return next();
    },
  },
  {
    name: "files-written-outside-dev-mode",
    breaks: "E14 rule 2 (writes only on dev-mode branches)",
    description: "data-model files are written on any branch, in dev mode or not",
    because: { "data-model.files.write-needs-dev-mode": "refused-outside-dev-mode" },
    behaviour: { fileWriteAllowed: () => true },
  },
  {
    name: "files-deleted-outside-dev-mode",
    breaks: "E14 rule 2 (data-model files are written only on dev-mode branches)",
    description: "a data-model file is removed on a branch that is not in dev mode (writes and renames are still refused there)",
    because: { "data-model.files.delete-needs-dev-mode": "refused-outside-dev-mode" },
    operations: ["deleteDataModelFiles"],
    handle: devModeLent((req) => req.query.get("branchName") ?? req.body?.branchName),
  },
  {
    name: "files-written-on-production",
    breaks: "E14 rule 2 (writes only on dev-mode branches)",
    description: "data-model files are written on the production branch, which is never in dev mode (other branches outside dev mode are still refused)",
    because: { "data-model.files.production-write-refused": "refused-outside-dev-mode" },
    operations: ["writeDataModelFiles"],
    handle: devModeLent((req, app) => {
      const name = req.body?.branchName;
      return typeof name === "string" && deploymentOf(app, req).branches.find((b) => b.name === name)?.kind === "production" ? name : undefined;
    }),
  },
  {
    name: "upload-finished-outside-dev-mode",
    breaks: "E14 rule 2 (data-model files are written only on dev-mode branches)",
    description: "a chunked upload's finish writes its files whether or not its branch is still in dev mode (the start is still refused outside it)",
    because: { "data-model.upload.finish-needs-dev-mode": "refused-after-stop" },
    operations: ["finishUpload"],
    handle: devModeLent((req, app) => e14(app.store).uploads.get(req.body?.uploadId)?.branchName),
  },
  {
    name: "dev-mode-stop-ignored",
    breaks: "E14 rule 2 (writes only on dev-mode branches)",
    description: "stopping dev mode answers as stopped and leaves every branch in dev mode: files are still written there",
    because: { "data-model.files.write-needs-dev-mode": "refused-after-stop" },
    operations: ["stopDevMode"],
    handle: async ({ req, app, next }) => {
      const dev = devModeOf(e14(app.store), deploymentOf(app, req).id);
      const before = [...dev];
      const reply = await next();
      for (const [branch, user] of before) dev.set(branch, user);
      return reply;
    },
  },
  {
    name: "validate-compile-errors-400",
    breaks: "E14 rule 3; Errors 4",
    description: "a branch that does not compile validates as a 400 request error",
    because: { "data-model.validate.compile-errors-200": "status-200" },
    operations: ["validateDataModel"],
    handle: async ({ req, next }) => {
      const reply = await next();
      return (reply.body as { valid?: boolean }).valid === false ? { ...reply, status: 400 } : reply;
    },
  },
  {
    name: "validate-result-cached",
    breaks: "E14 rule 3; Errors 4",
    description: "a branch's validation is kept from the first time it failed: with the broken file removed it still validates as valid=false",
    because: { "data-model.validate.follows-the-files": "valid-again" },
    operations: ["validateDataModel"],
    handle: async ({ req, app, next }) => {
      const reply = await next();
      const failed = failedOnce.get(app) ?? new Set<string>();
      failedOnce.set(app, failed);
      const key = `${req.params.deploymentId}:${req.query.get("branchName") ?? req.query.get("branch")}`;
      if ((reply.body as { valid?: boolean }).valid === false) failed.add(key);
      return failed.has(key) ? { ...reply, body: { ...(reply.body as object), valid: false } } : reply;
    },
  },
  {
    name: "files-first-ignored",
    breaks: "E14 rule 11 (cursor pagination of files)",
    description: "the data-model files list ignores first and answers every file",
    because: { "data-model.files.cursor": "first-honoured" },
    operations: ["listDataModelFiles"],
    handle: ({ req, next }) => {
      req.query.delete("first");
      return next();
    },
  },
];

import { group } from "../../core/check/check.js";
import { runPrefixOf } from "../../core/ledger/scratch.js";
import { field } from "../../core/served/served-operations.js";
import { branchesByName, devModeBranch, documented, fileDelete, fileNames, fileWrite, modelFile, ok2xx, ownBranch, setup, stopDevMode } from "../lib/e14.js";
import { cursorList } from "../lib/cursor-list.js";
import { WRITES } from "../lib/needs.js";
import { NotExercised } from "../../core/model/outcome.js";

/**
 * E14 rules of the data model (/build/api/v1): files are written (and removed) only on dev-mode
 * branches, a model that does not compile validates as 200 with valid=false (Errors 4), and the
 * files list is cursor-paginated (0.4.0).
 */
/**
 * Does not compile on any server, whichever check its compiler makes first: YAML broken three ways
 * at once (a tab indent, an unclosed flow mapping, an unclosed flow sequence).
 */
const BROKEN_MODEL = "cubes:\n\t- name: {unclosed\n    sql_table: [public.orders\n";

export const dataModelChecks = [
  ...group("data-model", [
    {
      id: "data-model.files.write-needs-dev-mode",
      spec: "E14 rule 2",
      level: "MUST",
      title:
        "Data-model files are written only on a branch in dev mode: a write on a branch never in dev mode, or on one whose dev mode was stopped, is refused and changes nothing",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const write = doc.requireNamed("writeDataModelFiles", "writes data-model files");
        const branch = await ownBranch(ctx, doc, dep);
        const name = `model/cubes/${ctx.scratch.slug("cube").replace(/-/g, "_")}.yml`;
        const refused = await ctx.api.call("writeDataModelFiles", { deploymentId: dep }, { body: fileWrite(write, branch, name, "cubes: []\n") });
        ctx.requireRoute(refused, "E14", "writing a file on a branch not in dev mode");
        ctx.expect.clientError(refused, `a write on ${branch}, which is not in dev mode, is refused`, "refused-outside-dev-mode");
        ctx.expect.that(!(await fileNames(ctx, doc, dep, branch)).includes(name), "the refused write created no file", {
          expected: `no ${name}`,
          reason: "not-applied",
        });
        // The same branch in dev mode, or, where dev mode is the caller's own branch, one created in it.
        const live = await devModeBranch(ctx, doc, dep, branch);
        const accepted = await ctx.api.call("writeDataModelFiles", { deploymentId: dep }, { body: fileWrite(write, live, name, "cubes: []\n") });
        ctx.expect.that(accepted.status >= 200 && accepted.status < 300, `the same write in dev mode on ${live} is applied`, {
          expected: "2xx",
          got: accepted.status,
          res: accepted,
          reason: "dev-mode-write",
        });
        // Dev mode stopped on that branch (DELETE dev-mode, where the document's stop names a branch), it is one not in dev mode again.
        const stopped = await stopDevMode(ctx, doc, dep, live, { namedOnly: true });
        if (!stopped) return;
        setup(ctx, stopped, `stopping dev mode on ${live}`, ok2xx);
        const later = modelFile(ctx, "after-stop");
        const again = await ctx.api.call("writeDataModelFiles", { deploymentId: dep }, { body: fileWrite(write, live, later, "cubes: []\n") });
        // No requireRoute: the same route just took a write. Any 4xx: a server may also drop a dev branch when dev mode stops (404).
        ctx.expect.clientError(again, `a write on ${live} once its dev mode was stopped is refused`, "refused-after-stop");
        ctx.expect.that(!(await fileNames(ctx, doc, dep, live)).includes(later), "the write refused after the stop created no file", {
          expected: `no ${later}`,
          reason: "not-applied",
        });
      },
    },
    {
      id: "data-model.files.delete-needs-dev-mode",
      spec: "E14 rule 2 (data-model files are written only on dev-mode branches); E14 (DELETE .../data-model/files)",
      // SHOULD: the table's row lists, writes and removes files and says "writes only on dev-mode branches"; that a removal is such a write is implied.
      level: "SHOULD",
      title: "A file removed on a branch of the run's own that is not in dev mode is refused and removes nothing: the file is still listed",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const remove = doc.requireNamed("deleteDataModelFiles", "removes data-model files");
        const branch = await ownBranch(ctx, doc, dep);
        // A branch starts with its parent's files: one of them, on the run's own branch, is what a wrong delete would remove.
        const file = (await fileNames(ctx, doc, dep, branch))[0];
        if (file === undefined) throw new NotExercised(`the run's branch ${branch} holds no file to remove`);
        const { query, body } = fileDelete(remove, branch, file);
        const res = await ctx.api.call("deleteDataModelFiles", { deploymentId: dep }, { query, body });
        ctx.requireRoute(res, "E14", "removing a data-model file on a branch not in dev mode");
        ctx.expect.clientError(res, `a delete on ${branch}, which is not in dev mode, is refused`, "refused-outside-dev-mode");
        ctx.expect.that((await fileNames(ctx, doc, dep, branch)).includes(file), `the refused delete left ${file} on ${branch}`, {
          expected: `${file} listed`,
          reason: "not-applied",
        });
      },
    },
    {
      id: "data-model.validate.compile-errors-200",
      spec: "E14 rule 3; Errors 4",
      level: "MUST",
      title: "Validating a branch that does not compile answers 200 with valid=false, not a request error",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const write = doc.requireNamed("writeDataModelFiles", "writes the file that does not compile");
        const validate = doc.requireNamed("validateDataModel", "compiles a branch");
        const param = validate.requireQueryParam("branchName|branch", "names the branch to compile");
        const branch = await devModeBranch(ctx, doc, dep);
        setup(
          ctx,
          await ctx.api.call("writeDataModelFiles", { deploymentId: dep }, { body: fileWrite(write, branch, "model/cubes/cf_broken.yml", BROKEN_MODEL) }),
          "writing a file that does not compile",
        );
        const res = await ctx.api.call("validateDataModel", { deploymentId: dep }, { query: { [param]: branch } });
        ctx.expect.status(res, 200, "a compile error is reported in a 200 answer", "status-200");
        ctx.expect.json(res);
        ctx.expect.equal(field(validate.record(res), "valid"), false, "the answer says valid=false", { res, reason: "valid-false" });
      },
    },
    {
      id: "data-model.validate.follows-the-files",
      // SHOULD: E14 states what a model that does not compile answers; that validity is read from the files as they are now is implied.
      spec: "E14 rule 3; Errors 4",
      level: "SHOULD",
      title:
        "Validation reads the branch's files as they are now: a branch that validates, then holds a file that does not compile, validates again once that file is removed",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const write = doc.requireNamed("writeDataModelFiles", "writes the file that breaks the branch");
        const remove = doc.requireNamed("deleteDataModelFiles", "removes the file that broke the branch");
        const validate = doc.requireNamed("validateDataModel", "compiles a branch");
        const param = validate.requireQueryParam("branchName|branch", "names the branch to compile");
        const branch = await devModeBranch(ctx, doc, dep);
        const validity = async (when: string) => {
          const res = await ctx.api.call("validateDataModel", { deploymentId: dep }, { query: { [param]: branch } });
          ctx.expect.status(res, 200, `validating branch ${branch} ${when}`, "status-200");
          return { valid: field(validate.record(res), "valid"), res };
        };
        if ((await validity("before any file of the run's")).valid !== true)
          throw new NotExercised(`branch ${branch}, made from the deployment's model, does not validate before the run writes to it`);
        const file = `model/cubes/${ctx.scratch.slug("cube").replace(/-/g, "_")}.yml`;
        setup(
          ctx,
          await ctx.api.call("writeDataModelFiles", { deploymentId: dep }, { body: fileWrite(write, branch, file, BROKEN_MODEL) }),
          "writing a file that does not compile",
        );
        const broken = await validity("holding a file that does not compile");
        ctx.expect.equal(broken.valid, false, "the answer says valid=false", { res: broken.res, reason: "valid-false" });
        // Removed, not rewritten: which content compiles is the server's model language; the files it validated before do.
        const { query, body } = fileDelete(remove, branch, file);
        setup(ctx, await ctx.api.call("deleteDataModelFiles", { deploymentId: dep }, { query, body }), "removing the file that does not compile");
        const fixed = await validity("once the file is removed");
        ctx.expect.equal(fixed.valid, true, `branch ${branch} validates again once its broken file is removed`, { res: fixed.res, reason: "valid-again" });
      },
    },
    {
      id: "data-model.files.cursor",
      spec: "E14 rule 11; Pagination styles 2",
      level: "MUST",
      title: "The data-model files list is cursor-paginated: first bounds a page, after continues it, items and pageInfo (0.4.0)",
      needs: ["fixture:deployment"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        // A branch named, so that no dev-mode change elsewhere moves the list under the walk: the first
        // one listed that this run did not create (checks beside this one create and delete their own).
        const names = [...(await branchesByName(ctx, dep)).keys()];
        const branch = names.find((n) => typeof n === "string" && !n.startsWith(runPrefixOf(ctx.settings.seed))) ?? names[0];
        const param = (await documented(ctx)).requireNamed("listDataModelFiles", "lists data-model files").queryParam("branchName|branch")?.name;
        await cursorList(ctx, "listDataModelFiles", { deploymentId: dep }, "data-model files", param && branch ? { [param]: branch } : {});
      },
    },
  ]),
];

import { group } from "../../core/model/check.js";
import type { CheckContext } from "../../core/model/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { runPrefixOf } from "../../core/ledger/scratch.js";
import { field } from "../../core/served/served-operations.js";
import { type OperationParams, pathTo } from "../../core/api/client.js";
import type { OperationName } from "../../core/api/operations.js";
import { branchesByName, devMode, documented, fileNames, fileWrite, ownBranch, setup } from "../lib/e14.js";
import { WRITES } from "../lib/needs.js";

/**
 * E14 rules of the build surface (/build/api/v1): branch deletion re-parents the children,
 * data-model files are written only on dev-mode branches, a model that does not compile validates
 * as 200 with valid=false (Errors 4), and the lists 0.4.0 made cursor-paginated page by
 * first/after with items and pageInfo.
 */
/**
 * Does not compile on any server, whichever check its compiler makes first: YAML broken three ways
 * at once (a tab indent, an unclosed flow mapping, an unclosed flow sequence).
 */
const BROKEN_MODEL = "cubes:\n\t- name: {unclosed\n    sql_table: [public.orders\n";

/** 0.4.0: `first` bounds the page, `after` continues it, and the walk holds every record once. */
async function cursorList(ctx: CheckContext, list: OperationName, params: OperationParams, what: string, query: Record<string, string> = {}): Promise<void> {
  const { api, expect } = ctx;
  const doc = await documented(ctx);
  doc.requireNamed(list, `is the ${what} list`);
  const path = pathTo(list, params);
  const res = await api.get(path, { ...query, first: 1 });
  const body = setup(ctx, res, `the first page of the ${what} list`);
  expect.that(Array.isArray(body.items), `the ${what} list answers items (cursor style)`, {
    expected: "an items array",
    got: Object.keys(body),
    res,
    reason: "items",
  });
  expect.that(
    !!body.pageInfo && typeof body.pageInfo === "object" && typeof body.pageInfo.hasNextPage === "boolean",
    `the ${what} list answers pageInfo with hasNextPage`,
    { expected: "pageInfo {hasNextPage, ...}", got: body.pageInfo, res, reason: "page-info" },
  );
  expect.that(body.items.length <= 1, `first=1 bounds the ${what} page to one record`, {
    expected: "at most 1 item",
    got: body.items.length,
    res,
    reason: "first-honoured",
  });
  const all = await walkCursor(api, path, { first: 100, query });
  if (all.items.length < 2) throw new NotExercised(`the ${what} list holds ${all.items.length} record(s): no second page to reach`);
  const walk = await walkCursor(api, path, { first: 1, stopAfter: 60, query });
  const key = (x: unknown) => JSON.stringify(x);
  const want = all.items.slice(0, walk.items.length).map(key).sort();
  expect.equal(
    walk.items.map(key).sort(),
    want,
    `walking the ${what} list one record a page (after = endCursor) gives the records of one large page, each once`,
    { res: walk.pages.at(-1)?.res, reason: "walk-complete" },
  );
}

export const e14BuildChecks = [
  ...group("branches", [
    {
      id: "branches.delete.children-reparented",
      spec: "E14 rule 4",
      level: "MUST",
      title: "Deleting a branch by branchName re-parents its children to the deleted branch's parent",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const parent = await ownBranch(ctx, doc, dep);
        const child = await ownBranch(ctx, doc, dep, parent);
        const before = await branchesByName(ctx, dep);
        const grand = field(before.get(parent), "parentBranch|parent");
        const childParent = field(before.get(child), "parentBranch|parent");
        if (childParent !== parent)
          throw new NotExercised(`the branch created from ${parent} lists parentBranch ${JSON.stringify(childParent)}: no parent link to re-parent`);
        const res = await ctx.api.call("deleteBranch", { deploymentId: dep }, { query: { branchName: parent } });
        ctx.expect.that(res.status >= 200 && res.status < 300, "DELETE branches?branchName= deletes the branch", {
          expected: "2xx",
          got: res.status,
          res,
          reason: "status",
        });
        const after = await branchesByName(ctx, dep);
        ctx.expect.that(!after.has(parent), `branch ${parent} is gone after its delete`, { expected: "not listed", got: after.get(parent), reason: "deleted" });
        ctx.expect.equal(field(after.get(child), "parentBranch|parent") ?? null, grand ?? null, `the child ${child} now has the deleted branch's parent`, {
          reason: "reparented",
        });
      },
    },
    {
      id: "branches.list.cursor",
      spec: "E14 rule 11; Pagination styles 2",
      level: "MUST",
      title: "The branches list is cursor-paginated: first bounds a page, after continues it, items and pageInfo (0.4.0)",
      needs: ["fixture:deployment"],
      run: (ctx) => cursorList(ctx, "listBranches", { deploymentId: ctx.fixture("deployment").id }, "branches"),
    },
  ]),
  ...group("data-model", [
    {
      id: "data-model.files.write-needs-dev-mode",
      spec: "E14 rule 2",
      level: "MUST",
      title: "Data-model files are written only on a branch in dev mode: a write elsewhere is refused and changes nothing",
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
        await devMode(ctx, doc, dep, branch);
        const accepted = await ctx.api.call("writeDataModelFiles", { deploymentId: dep }, { body: fileWrite(write, branch, name, "cubes: []\n") });
        ctx.expect.that(accepted.status >= 200 && accepted.status < 300, `the same write in dev mode on ${branch} is applied`, {
          expected: "2xx",
          got: accepted.status,
          res: accepted,
          reason: "dev-mode-write",
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
        const branch = await ownBranch(ctx, doc, dep);
        await devMode(ctx, doc, dep, branch);
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
  ...group("regions", [
    {
      id: "regions.list.cursor",
      spec: "E14 rule 11; Pagination styles 2",
      level: "MUST",
      title: "The regions list is cursor-paginated: first bounds a page, after continues it, items and pageInfo (0.4.0)",
      needs: [],
      run: (ctx) => cursorList(ctx, "listRegions", {}, "regions"),
    },
  ]),
  ...group("user-attributes", [
    {
      id: "user-attributes.list.cursor",
      spec: "E14 rule 11; Pagination styles 2",
      level: "MUST",
      title: "The user attributes list is cursor-paginated: first bounds a page, after continues it, items and pageInfo (0.4.0)",
      needs: [],
      run: (ctx) => cursorList(ctx, "listUserAttributes", {}, "user attributes"),
    },
  ]),
];

import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { runPrefixOf } from "../../core/ledger/scratch.js";
import { DocumentSchemas } from "../../core/served/document-schemas.js";
import { field, listed as listedIn } from "../../core/served/served-operations.js";
import { runChains } from "./chains.js";
import { answeredAsDocumented } from "./refusals.js";
import { PathIds } from "../lib/path-ids.js";
import { ownDeployment } from "../lib/own-deployment.js";
import { devMode, devModeBranch, documented, fileDelete, fileNames, fileWrite, modelFile, ownBranch, records, setup } from "../lib/e14.js";
import { duplicate, unlessAtWorkbookLimit } from "../lib/workbook-writes.js";
import { userOfTheRun } from "../lib/users.js";
import { type Attribute, attributeOfType, holdsValue, valuesBody } from "../lib/attribute-values.js";

/**
 * Issue 21: the operations of the document that only an object of the run's own may receive, each
 * sent once with a request built from its document and judged by it (a documented 2xx, content
 * type and body schema): a deployment's lifecycle and setup wizard, the git operations, a user's
 * update and attribute values, a dashboard's signed embedding and Python run, a data-model file's
 * delete. What a real tenant must opt into is declared as a need (core/model/needs.ts) and named in the
 * plan line before the first request (core/run/write-plan.ts).
 */
const SPEC = "E14; Versioning 1";

/**
 * The git operations on the run's branch, with the body hints that name it and the branch a merge
 * goes into, by the names a document may give them (E14 shows no body: a merge's source is
 * `branchName` on one server, `sourceBranch` on another).
 */
export const gitSteps = (branch: string, parent: string, message: string) =>
  [
    ["commitBranch", { "branchName|branch?": branch, "message?": message }],
    ["pullBranch", { "branchName|branch?": branch }],
    ["mergeBranch", { "branchName|branch|sourceBranch|source|from?": branch, "target|into|targetBranch|base?": parent }],
    ["mergeToDefault", { "branchName|branch?": branch }],
  ] as const;

export const e14OptInChecks = group("documented", [
  {
    id: "documented.resources.deployment-lifecycle",
    spec: SPEC,
    level: "SHOULD",
    title:
      "A deployment the run creates from the document can be found in the deployments list, its setup wizard advanced and reset, and deleted (only once a read-back shows it as the run's own), and is no longer listed",
    needs: ["writes", "deployment-lifecycle", "fixture:deployment"],
    async run(ctx) {
      const ops = (await documented(ctx)).operations;
      const deploymentId = ctx.fixture("deployment").id;
      const env = { ops, deploymentId, ids: new PathIds(ctx.api, ops, deploymentId, runPrefixOf(ctx.settings.seed)), schemas: new DocumentSchemas() };
      const failures: Parameters<typeof ctx.expect.fail>[] = [];
      const { exercised, unbuilt } = await runChains(ctx, env, { fail: (what, d) => failures.push([what, d]) }, "deployment-lifecycle");
      if (failures.length)
        ctx.expect.fail(
          `${failures[0][0]}${
            failures.length > 1
              ? ` (and ${failures.length - 1} more: ${failures
                  .slice(1)
                  .map((f) => f[0])
                  .join("; ")})`
              : ""
          }`,
          failures[0][1],
        );
      if (!exercised)
        throw new NotVerifiable(
          `the served document shows no deployment create whose deployment it lets a client delete${unbuilt.length ? ` (${unbuilt.join("; ")})` : ""}`,
        );
    },
  },
  {
    id: "documented.operations.git",
    spec: SPEC,
    level: "SHOULD",
    title:
      "In a deployment the run created: commit, pull, merge (into the parent the run made) and merge-to-default of a branch the run created, and connecting the deployment to a repository its GitHub installation lists, are answered as documented",
    // Merging into a default branch and connecting a repository cannot be undone: only on a deployment of the run's own, deleted after.
    needs: ["writes", "git-operations", "deployment-lifecycle", "fixture:deployment"],
    async run(ctx) {
      const doc = await documented(ctx);
      const dep = await ownDeployment(ctx, doc.operations, ctx.fixture("deployment").id, "to send git operations to");
      const parent = await ownBranch(ctx, doc, dep);
      const branch = await ownBranch(ctx, doc, dep, parent);
      // A commit needs a change to commit (a server may refuse an empty one): a file written on the branch
      // in dev mode, where the document starts dev mode on a branch it names and writes files.
      const write = doc.findNamed("writeDataModelFiles");
      if (write && doc.findNamed("startDevMode")?.bodyProperty("branchName|branch") !== undefined) {
        await devMode(ctx, doc, dep, branch);
        const file = modelFile(ctx, "commit");
        setup(
          ctx,
          await ctx.api.call(
            "writeDataModelFiles",
            { deploymentId: dep },
            { body: fileWrite(write, branch, file, "cubes:\n  - name: cf_commit\n    sql_table: public.orders\n") },
          ),
          `writing ${file} on ${branch}, a change to commit`,
        );
      }
      for (const [name, hints] of gitSteps(branch, parent, `${ctx.scratch.prefix} commit`)) {
        const op = doc.requireNamed(name, "is a git operation on a branch");
        const body = op.body(hints);
        answeredAsDocumented(ctx, op, await ctx.api.call(name, { deploymentId: dep }, { body }), `${name} of the run's branch ${branch}`, body);
      }
      const connect = doc.requireNamed("connectGithub", "connects a deployment to a repository");
      const repo = await firstRepository(ctx);
      // Owner and name apart where the document has an owner, else the repository's full name (`owner/name`, as GitHub writes it).
      const named =
        connect.bodyProperty("owner|ownerLogin") !== undefined
          ? { "owner|ownerLogin": repo.owner, "repo|repository|name": repo.name }
          : { "repository|repo|fullName|full_name|name": `${repo.owner}/${repo.name}` };
      const body = connect.body({ ...named, ...(repo.branch ? { "branch|branchName?": repo.branch } : {}) });
      answeredAsDocumented(
        ctx,
        connect,
        await ctx.api.call("connectGithub", { deploymentId: dep }, { body }),
        `connecting to ${repo.owner}/${repo.name}`,
        body,
      );
    },
  },
  {
    id: "documented.operations.own-user",
    spec: SPEC,
    level: "SHOULD",
    title:
      "Updating a user the run created, and setting and reading its value of an attribute the run created, are answered as documented, and the value set is read back",
    needs: ["writes", "admin-writes"],
    async run(ctx) {
      const doc = await documented(ctx);
      const user = await userOfTheRun(ctx, doc);
      const update = doc.requireNamed("updateUser", "updates a user");
      const changed = update.body({ "firstName|name?": ctx.scratch.name("first") });
      answeredAsDocumented(ctx, update, await ctx.api.call("updateUser", { id: user }, { body: changed }), `updating the run's user ${user}`, changed);
      const attr = await stringAttribute(ctx, doc);
      const set = doc.requireNamed("setUserAttributeValues", "sets a user's attribute values");
      const value = ctx.scratch.name("value");
      const values = valuesBody(set, attr, value);
      answeredAsDocumented(
        ctx,
        set,
        await ctx.api.call("setUserAttributeValues", { userId: user }, { body: values }),
        `setting user ${user}'s value of attribute ${attr.name}`,
        values,
      );
      const read = doc.requireNamed("getUserAttributeValues", "reads a user's attribute values");
      const res = await ctx.api.call("getUserAttributeValues", { userId: user });
      const record = answeredAsDocumented(ctx, read, res, `reading user ${user}'s attribute values`);
      ctx.expect.that(holdsValue(record, attr, value), `user ${user}'s values hold ${value} for attribute ${attr.name}`, {
        expected: `${attr.name} (id ${attr.id}) = ${value}`,
        got: res.text.slice(0, 300),
        res,
        reason: "value-read-back",
      });
    },
  },
  {
    id: "documented.operations.own-dashboard",
    spec: SPEC,
    level: "SHOULD",
    title: "Enabling signed embedding of the published dashboard of a clone the run made, and running one of its Python reports, are answered as documented",
    needs: ["writes", "admin-writes", "fixture:deployment", "fixture:publishedWorkbook"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const patch = doc.requireNamed("setDashboardEmbedding", "enables signed embedding");
      const python = doc.requireNamed("runDashboardPython", "runs a Python report of a dashboard");
      const res = await duplicate(ctx.scratch, ctx.api, dep, ctx.fixture("publishedWorkbook").id);
      unlessAtWorkbookLimit(res, "cloning the published workbook");
      // E10 is spec'd: a clone that does not answer blocks this check under E10's own check.
      const clone = ctx.require<any>(
        res,
        "E10",
        "cloning the published workbook, whose clone carries a copy of its dashboard",
        (r) => r.isJson && Number.isSafeInteger(r.body?.id),
      );
      // E10 names a clone `Copy of …`: the ledger's entry carries when it was answered, which tells the run's clone from an older one.
      const made = ctx.scratch.entries.find((m) => m.deploymentId === dep && m.ref.type === "WORKBOOK" && m.ref.id === clone.id);
      await ctx.scratch.requireOwn(ctx.api, dep, [made?.ref ?? { type: "WORKBOOK", id: clone.id }]);
      const dashboard = clone.publishedDashboard;
      if (typeof dashboard?.publicId !== "string") throw new NotVerifiable(`the clone ${clone.id} shows no publishedDashboard.publicId`);
      const on = patch.body({ allowEmbed: true });
      answeredAsDocumented(
        ctx,
        patch,
        await ctx.api.call("setDashboardEmbedding", { publicId: dashboard.publicId }, { body: on }),
        `enabling signed embedding of the run's clone ${clone.id}`,
        on,
      );
      // A Python report is one whose snapshot carries pythonCode (ReportSnapshot); where no snapshot shows the field, any may be.
      const snapshots: any[] = Array.isArray(dashboard.reportSnapshots) ? dashboard.reportSnapshots : [];
      const shown = snapshots.some((r) => r && typeof r === "object" && "pythonCode" in r);
      const reportId = (shown ? snapshots.find((r) => typeof r?.pythonCode === "string" && r.pythonCode.trim() !== "") : snapshots[0])?.reportId;
      if (!Number.isSafeInteger(reportId))
        throw new NotVerifiable(
          `the clone's dashboard ${dashboard.publicId} holds no ${shown ? "Python report (a snapshot with pythonCode)" : "report snapshot"} to run`,
        );
      const run = python.body({ "reportId|id": reportId });
      answeredAsDocumented(
        ctx,
        python,
        await ctx.api.call("runDashboardPython", { publicId: dashboard.publicId }, { body: run }),
        `running report ${reportId} of the run's clone's dashboard`,
        run,
      );
    },
  },
  {
    id: "documented.operations.own-file-delete",
    spec: SPEC,
    level: "SHOULD",
    title: "Deleting a data-model file the run wrote on its own dev-mode branch is answered as documented, and the file is no longer listed",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const write = doc.requireNamed("writeDataModelFiles", "writes the file to delete");
      const remove = doc.requireNamed("deleteDataModelFiles", "removes data-model files");
      const branch = await devModeBranch(ctx, doc, dep);
      const name = `model/cubes/${ctx.scratch.slug("cube").replace(/-/g, "_")}.yml`;
      setup(
        ctx,
        await ctx.api.call("writeDataModelFiles", { deploymentId: dep }, { body: fileWrite(write, branch, name, "cubes: []\n") }),
        `writing ${name} on the run's branch ${branch}`,
      );
      const { query, body } = fileDelete(remove, branch, name);
      const res = await ctx.api.call("deleteDataModelFiles", { deploymentId: dep }, { query, body });
      answeredAsDocumented(ctx, remove, res, `deleting ${name} from the run's branch ${branch}`, { ...query, ...body });
      ctx.expect.that(!(await fileNames(ctx, doc, dep, branch)).includes(name), `${name} is no longer listed on ${branch}`, {
        expected: `no ${name}`,
        reason: "read-after-delete",
      });
    },
  },
]);

/**
 * An attribute of type string whose value the run may set on its own user: the first listed (the
 * attribute itself is left as it is), else one of the run's own, made where the document can delete it.
 */
async function stringAttribute(ctx: CheckContext, doc: Awaited<ReturnType<typeof documented>>): Promise<Attribute> {
  const list = doc.findNamed("listUserAttributes");
  const res = list ? await ctx.api.call("listUserAttributes") : undefined;
  const listedOne =
    res?.status === 200 && res.isJson
      ? (listedIn(list!.record(res)) ?? listedIn(res.body) ?? []).find(
          (a) => field(a, "type|dataType") === "string" && typeof field(a, "name|key") === "string",
        )
      : undefined;
  if (listedOne) return { id: field(listedOne, "id|attributeId"), name: field(listedOne, "name|key") };
  return attributeOfType(ctx, doc, "string", "creates the attribute whose value is set (none of type string is listed)");
}

/** The first repository the tenant's GitHub installations list, and its first branch (each list read once). */
async function firstRepository(ctx: CheckContext): Promise<{ owner: string; name: string; branch?: string }> {
  const installation = records(ctx, setupList(ctx, await ctx.api.call("listGithubInstallations"), "the GitHub installations"), "the GitHub installations")[0];
  const installationId = field(installation, "id|installationId");
  if (installationId === undefined) throw new NotVerifiable("the tenant lists no GitHub installation: no repository to connect");
  const repo = records(
    ctx,
    setupList(ctx, await ctx.api.call("listGithubRepositories", { installationId }), "the installation's repositories"),
    "the installation's repositories",
  )[0];
  const owner = field(repo, "owner|ownerLogin");
  const name = field(repo, "repo|name");
  if (typeof owner !== "string" || typeof name !== "string")
    throw new NotVerifiable(`installation ${installationId} lists no repository with an owner and a name`);
  const branches = await ctx.api.call("listGithubBranches", { owner, repo: name });
  const branch = branches.status === 200 && branches.isJson ? field(records(ctx, branches, `the branches of ${owner}/${name}`)[0], "name") : undefined;
  return { owner, name, branch: typeof branch === "string" ? branch : undefined };
}

const setupList = (ctx: CheckContext, res: Parameters<typeof setup>[1], what: string) => (setup(ctx, res, `listing ${what}`), res);

import { HttpError, type Fault, type Req } from "../http.js";
import { deploymentOf } from "../routes/common.js";

type Branch = ReturnType<typeof deploymentOf>["branches"][number];

/** A branch delete that leaves the children `pick` chooses pointing at the deleted branch. */
function childrenLeftPointing(pick: (children: Branch[], req: Req) => Branch[]): NonNullable<Fault["handle"]> {
  return async ({ req, app, next }) => {
    const deleted = req.query.get("branchName");
    const children = pick(
      deploymentOf(app, req).branches.filter((b) => deleted && b.parentBranch === deleted),
      req,
    );
    const reply = await next();
    if (reply.status === 200) for (const c of children) c.parentBranch = deleted!;
    return reply;
  };
}

/** The faults of the group branches (suites/branches/): each makes a check of it fail, for the reason its `because` names. */
/** Per reference app and deployment, the names of the branches deleted (fault branch-name-reserved-after-delete). */
const deletedNames = new WeakMap<object, Set<string>>();

export const branchesFaults: Fault[] = [
  {
    name: "branch-name-reserved-after-delete",
    breaks: "E14 (list, create, delete a branch)",
    description: "a deleted branch keeps its name reserved: creating a branch with that name again answers 409, though no branch holds it",
    because: { "branches.create.name-free-after-delete": "status" },
    operations: ["createBranch", "deleteBranch"],
    handle: async ({ req, app, next }) => {
      const names = deletedNames.get(app) ?? new Set<string>();
      deletedNames.set(app, names);
      const key = (name: unknown) => `${req.params.deploymentId}/${String(name)}`;
      if (req.method === "DELETE") {
        const reply = await next();
        if (reply.status < 300) names.add(key(req.query.get("branchName")));
        return reply;
      }
      const name = (req.body as { name?: unknown } | undefined)?.name;
      if (names.has(key(name))) throw new HttpError(409, `branch ${String(name)} already exists`);
      return next();
    },
  },
  {
    name: "branch-delete-remove-on-upstream-refused",
    breaks: "E14 rule 4 (removeOnUpstream)",
    description: "a branch delete that names removeOnUpstream is refused with 400",
    because: { "branches.delete.remove-on-upstream": "remove-on-upstream-accepted" },
    operations: ["deleteBranch"],
    handle: ({ req, next }) => {
      if (req.query.has("removeOnUpstream")) throw new HttpError(400, "removeOnUpstream is not supported");
      return next();
    },
  },
  {
    name: "branch-delete-orphans-children",
    breaks: "E14 rule 4 (children re-parented)",
    description: "deleting a branch leaves its children pointing at the deleted branch",
    because: { "branches.delete.children-reparented": "reparented" },
    operations: ["deleteBranch"],
    handle: childrenLeftPointing((children) => children),
  },
  {
    name: "branch-delete-upstream-orphans-children",
    breaks: "E14 rule 4 (children re-parented; removeOnUpstream also deletes the remote ref)",
    description:
      "a branch delete with removeOnUpstream=true goes down the path that also removes the remote ref, which forgets the re-parenting: the children keep pointing at the deleted branch (without the flag they are re-parented)",
    because: { "branches.delete.children-reparented": "reparented" },
    operations: ["deleteBranch"],
    handle: childrenLeftPointing((children, req) => (req.query.get("removeOnUpstream") === "true" ? children : [])),
  },
  {
    name: "branch-delete-personal-children-kept",
    breaks: "E14 rule 4 (children re-parented)",
    description: "a branch delete re-parents its shared children only: a personal development branch made from it keeps pointing at the deleted branch",
    because: { "branches.delete.children-reparented": "reparented" },
    operations: ["deleteBranch"],
    handle: childrenLeftPointing((children) => children.filter((c) => c.kind === "personal")),
  },
  {
    name: "branch-delete-reparents-first-child",
    breaks: "E14 rule 4 (children re-parented)",
    description: "a branch delete re-parents only its first child: the others keep pointing at the deleted branch",
    because: { "branches.delete.children-reparented": "reparented" },
    operations: ["deleteBranch"],
    handle: childrenLeftPointing((children) => children.slice(1)),
  },
  {
    name: "branch-delete-empty-name-deletes-newest",
    breaks: "E14 rule 4 (a branch is deleted by branchName)",
    description:
      "an empty branchName is read as no name, and the delete falls back to the caller's current branch, as the git operations do: the newest branch that is not the production one is deleted",
    because: { "branches.delete.unknown-name": "unknown-name-deletes-none" },
    operations: ["deleteBranch"],
    handle: ({ req, app, next }) => {
      const newest = deploymentOf(app, req)
        .branches.filter((b) => b.kind !== "production")
        .pop();
      if (req.query.get("branchName") === "" && newest) req.query.set("branchName", newest.name);
      return next();
    },
  },
  {
    name: "branch-delete-long-name-crashes",
    breaks: "E14 rule 4 (a branch is deleted by branchName)",
    description: "a branchName longer than its VARCHAR(255) column reaches the database, whose error is answered 500 instead of a refusal",
    because: { "branches.delete.unknown-name": "no-5xx" },
    operations: ["deleteBranch"],
    handle: ({ req, next }) => {
      if ((req.query.get("branchName") ?? "").length > 255) throw new HttpError(500, "value too long for type character varying(255)");
      return next();
    },
  },
  {
    name: "e14-lists-without-page-info",
    breaks: "E14 rule 11 (cursor pagination, 0.4.0); Pagination styles 2",
    description: "the branches, data-model files, regions and user attributes lists answer without pageInfo",
    because: {
      "branches.list.cursor": "page-info",
      "data-model.files.cursor": "page-info",
      "regions.list.cursor": "page-info",
      "user-attributes.list.cursor": "page-info",
    },
    operations: ["listBranches", "listDataModelFiles", "listRegions", "listUserAttributes"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !body || typeof body !== "object") return body;
      const { pageInfo: _dropped, ...rest } = body;
      return rest;
    },
  },
];

import { HttpError, type Fault } from "../http.js";
import { deploymentOf } from "../routes/common.js";

/** The faults of the group branches (suites/branches/): each makes a check of it fail, for the reason its `because` names. */
export const branchesFaults: Fault[] = [
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
    handle: async ({ req, app, next }) => {
      const deleted = req.query.get("branchName");
      const children = deploymentOf(app, req).branches.filter((b) => deleted && b.parentBranch === deleted);
      const reply = await next();
      if (reply.status === 200) for (const c of children) c.parentBranch = deleted!;
      return reply;
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

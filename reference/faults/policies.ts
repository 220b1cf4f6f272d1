import { HttpError, type Fault } from "../http.js";

/** The faults of the group policies (suites/policies/): each makes a check of it fail, for the reason its `because` names. */
export const policiesFaults: Fault[] = [
  {
    name: "policy-secrets-manage-refused",
    breaks: "Authentication 5",
    description: "a policy with the action SecretsManage is refused, though the document lists the action",
    because: { "policies.actions.named": "policy-action-accepted" },
    operations: ["createPolicy", "updatePolicy"],
    handle: ({ req, next }) => {
      if (req.body?.action === "SecretsManage") throw new HttpError(400, "action must be one of Read, Edit, Manage, DownloadData, AuditLogManage");
      return next();
    },
  },
];

import type { Fault } from "../http.js";

/** The faults of the group embed-tenants (suites/embed-tenants/): each makes a check of it fail, for the reason its `because` names. */
export const embedTenantsFaults: Fault[] = [
  {
    name: "embed-member-removal-ignored",
    breaks: "E14 (embed tenants: group members)",
    description: "removing a member from an embed group answers 204 and keeps the member",
    because: { "embed-tenants.groups.members": "member-gone" },
    operations: ["removeEmbedGroupMember"],
    handle: () => ({ status: 204 }),
  },
];

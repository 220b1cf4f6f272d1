import type { CheckContext } from "../../core/check/context.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import type { ServedModel } from "../../core/served/model.js";
import { field, listed } from "../../core/served/served-operations.js";
import type { Response } from "../../core/transport/http.js";

/** Where a group record may carry its members (E14 shows no shape): ids, or records naming their user. */
const MEMBER_FIELDS = "members|memberIds|users|userIds|embedUserIds";

/** The members of an embed group as read, and the answer that showed them. */
export interface Members {
  res: Response;
  held: unknown[];
  /** Where the members were read, for a message: the members list, or the group's entry in the groups list. */
  where: string;
}

/**
 * The members of an embed group, where the server's own document shows them: its members list
 * (GET …/members); else the members its entry in the tenant's groups list carries (the tenant is
 * the run's: its one group is on the first page). A document that shows neither leaves the rule
 * not verifiable here.
 */
export async function membersOf(ctx: CheckContext, doc: ServedModel, inGroup: { tenantId: string | number; embedGroupId: string | number }): Promise<Members> {
  if (doc.findNamed("listEmbedGroupMembers")) {
    const res = await ctx.api.call("listEmbedGroupMembers", inGroup);
    return { res, held: listed(res.body) ?? [], where: `the members of group ${inGroup.embedGroupId}` };
  }
  const res = doc.findNamed("listEmbedGroups") ? await ctx.api.call("listEmbedGroups", { tenantId: inGroup.tenantId }) : undefined;
  const entry = (listed(res?.body) ?? []).find((g) => String(field(g, "id")) === String(inGroup.embedGroupId));
  const members = field(entry, MEMBER_FIELDS);
  if (!res || (res.status < 300 && !Array.isArray(members)))
    throw new NotVerifiable(
      `the served document shows no list of an embed group's members, and group ${inGroup.embedGroupId} in its tenant's groups list shows none (${MEMBER_FIELDS.split("|").join(", ")})`,
    );
  return { res, held: Array.isArray(members) ? members : [], where: `group ${inGroup.embedGroupId} in its tenant's groups list` };
}

/** Whether a member, as listed (a record naming its user, or the user's id itself), is user `user`. */
export const isMember = (rec: unknown, user: string | number): boolean =>
  String(rec !== null && typeof rec === "object" ? (field(rec, "embedUserId|userId") ?? field(rec, "id")) : rec) === String(user);

/** The id that removes a member (DELETE …/members/{id}): a member record's own id, or the listed id itself. */
export const memberKey = (rec: unknown): unknown => (rec !== null && typeof rec === "object" ? field(rec, "id") : rec);

import { type App, HttpError, type Req } from "./http.js";
import type { Variant } from "./variant.js";
import { e14 } from "./e14/state.js";
import { operation } from "../core/api/operations.js";

/** The member records of one embed group, as the E14 engine keeps them (reference/routes/e14/resources.ts). */
function membersIn(app: App, tenantId: string, embedGroupId: string) {
  const scope = `embedGroupId=${embedGroupId}&tenantId=${tenantId}`;
  return [...(e14(app.store).resources.get("embed-group-members")?.get(scope)?.values() ?? [])];
}

/** The served document without the members list, its groups carrying memberIds instead. */
function withoutMembersList(doc: any): any {
  const out = structuredClone(doc);
  for (const name of NOT_SERVED) delete out.paths?.[operation(name).path]?.get;
  const group = out.components?.schemas?.EmbedGroup;
  if (group?.properties) group.properties.memberIds = { type: "array", items: { type: "integer" } };
  return out;
}

/** The reads this server does not serve (405), nor its document show: a group is read in the groups list. */
const NOT_SERVED = ["listEmbedGroupMembers", "getEmbedGroup"] as const;

/**
 * An embed group's members shown on the group, not listed apart (E14 shows neither): the
 * document has no GET …/members and no GET of one group (405), each group of the tenant's groups
 * list carries the ids of its users in `memberIds`, and a member is removed by its user's id (the
 * blind Java server's choices, issue 30).
 */
export const embedMembersOnGroup: Variant = {
  name: "embed-members-on-group",
  description:
    "An embed group and its members (memberIds) read in the groups list only, with no read of one group nor members list; a member removed by its user's id",
  routes: ["E14"],
  request: (req: Req, app: App) => {
    if (NOT_SERVED.some((n) => n === req.operation)) throw new HttpError(405, "a group and its members are shown in the groups list");
    if (req.operation !== "removeEmbedGroupMember") return;
    const member = membersIn(app, req.params.tenantId, req.params.embedGroupId).find((m) => String(m.embedUserId) === req.params.memberId);
    if (member) req.params.memberId = String(member.id);
  },
  respond: (body: any, req: Req, app: App) => {
    if (req.operation === "getSpec") return withoutMembersList(body);
    if (req.operation !== "listEmbedGroups" || !Array.isArray(body?.items)) return body;
    const withMembers = (g: any) => ({ ...g, memberIds: membersIn(app, req.params.tenantId, String(g.id)).map((m) => m.embedUserId) });
    return { ...body, items: body.items.map(withMembers), data: Array.isArray(body.data) ? body.data.map(withMembers) : body.data };
  },
};

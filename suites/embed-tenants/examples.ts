import { group } from "../../core/check/check.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { accepted, documented, ok2xx, shownStatus } from "../lib/e14.js";
import { ADMIN } from "../lib/needs.js";
import { createOwn, EMBED_TENANTS } from "../lib/own-records.js";
import { isMember, memberKey, membersOf } from "./members.js";

/**
 * E14 rules of embed tenants: their users, groups and members. Shapes come from the server's own
 * document (E14 shows none).
 */

export const embedTenantChecks = [
  ...group("embed-tenants", [
    {
      id: "embed-tenants.groups.members",
      spec: "E14",
      level: "MUST",
      title: "An embed tenant's user added to one of its groups is listed among the group's members, and no longer once removed",
      needs: [...ADMIN],
      async run(ctx) {
        const doc = await documented(ctx);
        const tenantId = await createOwn(ctx, doc, EMBED_TENANTS, {}, { "name|title": ctx.scratch.name("tenant") }, "an embed tenant");
        const user = await createOwn(
          ctx,
          doc,
          { create: "createEmbedUser", remove: "deleteEmbedUser", id: "embedUserId" },
          { tenantId },
          { "email|externalId|name": `${ctx.scratch.slug("embed-user")}@example.com` },
          "an embed user",
        );
        const grp = await createOwn(
          ctx,
          doc,
          { create: "createEmbedGroup", remove: "deleteEmbedGroup", id: "embedGroupId" },
          { tenantId },
          { "name|title": ctx.scratch.name("group") },
          "an embed group",
        );
        const inGroup = { tenantId, embedGroupId: grp };
        const add = doc.requireNamed("addEmbedGroupMember", "adds a member to an embed group");
        const member = add.body({ "embedUserId|userId|id": user });
        const added = await ctx.api.call("addEmbedGroupMember", inGroup, { body: member });
        const underTest = ["embedUserId", "userId", "id", String(user)];
        accepted(ctx, added, { body: member, op: add, underTest }, `user ${user} is added to group ${grp}`, "member-added");
        const memberOf = (rec: unknown) => isMember(rec, user);
        // The group and the user are the run's: a membership the check did not get to remove (it was stopped) is removed at cleanup.
        let removedMember = false;
        ctx.scratch.onCleanup(`remove user ${user} from group ${grp}`, async () => {
          if (removedMember || !doc.findNamed("removeEmbedGroupMember")) return;
          const memberId = memberKey((await membersOf(ctx, doc, inGroup)).held.find(memberOf));
          if (memberId !== undefined) await ctx.api.call("removeEmbedGroupMember", { ...inGroup, memberId: String(memberId) });
        });
        const members = await membersOf(ctx, doc, inGroup);
        ctx.expect.status(members.res, 200, `GET ${members.where}`, "members-listed");
        ctx.expect.that(members.held.some(memberOf), `${members.where} holds user ${user} among the members`, {
          expected: `user ${user}`,
          got: members.held,
          res: members.res,
          reason: "member-listed",
        });
        const memberId = memberKey(members.held.find(memberOf));
        const removal = doc.findNamed("removeEmbedGroupMember");
        if (!removal || memberId === undefined) throw new NotVerifiable(`the document shows no way to remove member ${memberId ?? user} of group ${grp}`);
        const removed = await ctx.api.call("removeEmbedGroupMember", { ...inGroup, memberId: String(memberId) });
        removedMember = ok2xx(removed);
        ctx.expect.that(ok2xx(removed), `member ${memberId} is removed from group ${grp}`, {
          expected: "2xx",
          got: shownStatus(removed),
          res: removed,
          reason: "member-removed",
        });
        const after = await membersOf(ctx, doc, inGroup);
        ctx.expect.that(!after.held.some(memberOf), `${after.where} no longer holds user ${user} among the members`, {
          expected: "not listed",
          got: after.held,
          res: after.res,
          reason: "member-gone",
        });
      },
    },
  ]),
];

import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { field, listed, type ServedOperation } from "../../core/served/served-operations.js";
import { propertiesOf, requiredOf } from "../../core/served/answers.js";
import { accepted, bodyWith, documented } from "../lib/e14.js";
import { duplicate, readWorkbook, unlessAtWorkbookLimit } from "../lib/workbook-writes.js";

/** E14 rules of embedding: embed access actions read and none, and signed embedding on and off, read back. */
export const embedChecks = [
  ...group("embed", [
    {
      id: "embed.access.actions",
      spec: "E14 rule 8",
      level: "MUST",
      title: "Embed access of a workbook can be set to read and to none, and reads back so",
      needs: ["writes", "fixture:deployment", "fixture:publishedWorkbook"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const put = doc.requireNamed("setEmbedAccess", "changes embed access");
        const get = doc.requireNamed("getEmbedAccess", "reads embed access");
        const target = embedTarget(put);
        // Access is to a workbook's dashboard: a clone of one with a published dashboard (E10 rule 1 copies it) is the run's own to change.
        const wb = await publishedOfItsOwn(ctx, dep);
        const workbook = { deploymentId: dep, workbookId: wb.id };
        for (const action of ["read", "none"]) {
          // A tenant the document requires is one the server lists (bodyWith), typed as the document types it.
          const body = await bodyWith(ctx, put, target.hints(action), dep);
          const res = await ctx.api.call("setEmbedAccess", workbook, { body });
          // A tenant left out where the document shows no all-users flag: a refusal says the server needs one, which the run cannot name.
          if (target.tenantLeftOut && res.status >= 400 && res.status < 500)
            throw new NotVerifiable(
              `embed access is documented with an optional tenant, no all-users flag, and the server lists no embed tenant; a body naming none was answered ${res.status}`,
            );
          accepted(ctx, res, { body, op: put, underTest: ["action", action] }, `action ${action} is accepted`, "action-accepted");
          const read = await ctx.api.call("getEmbedAccess", workbook);
          const shown = embedActions(get.record(read));
          ctx.expect.that(shown.includes(action), `embed access reads back with action ${action}`, {
            expected: action,
            got: shown,
            res: read,
            reason: "action-kept",
          });
        }
      },
    },
    {
      id: "embed.dashboard.enable-then-disable",
      spec: "E14 (PATCH /api/v1/embed/dashboard/{publicId}: enable or disable signed embedding)",
      level: "MUST",
      title:
        "Signed embedding of a dashboard of the run's own is enabled, then disabled: each answered 2xx and read back on the workbook's published dashboard (allowEmbed true, then false)",
      needs: ["writes", "admin-writes", "fixture:deployment", "fixture:publishedWorkbook"],
      reasons: {
        "embedding-accepted": { title: "Signed embedding is enabled, or disabled", expected: "2xx" },
        "embedding-kept": { title: "The published dashboard shows allowEmbed as set", expected: "the value set" },
      },
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const patch = doc.requireNamed("setDashboardEmbedding", "enables and disables signed embedding");
        if (patch.bodyProperty("allowEmbed|enabled") === undefined)
          throw new NotVerifiable("the server's document shows no allowEmbed (or enabled) flag in the embedding body");
        const wb = await publishedOfItsOwn(ctx, dep);
        const publicId = field((await readWorkbook(ctx, ctx.api, dep, wb.id)).workbook.publishedDashboard, "publicId");
        if (typeof publicId !== "string") throw new NotVerifiable(`the run's clone ${wb.id} shows no publishedDashboard.publicId`);
        // On, then off: false is the value a careless `flag || current` drops.
        for (const on of [true, false]) {
          const body = patch.body({ "allowEmbed|enabled": on });
          const res = await ctx.api.call("setDashboardEmbedding", { publicId }, { body });
          accepted(
            ctx,
            res,
            { body, op: patch, underTest: ["allowEmbed", "enabled"] },
            `signed embedding is ${on ? "enabled" : "disabled"}`,
            "embedding-accepted",
          );
          const read = await readWorkbook(ctx, ctx.api, dep, wb.id);
          const shown = field(read.workbook.publishedDashboard, "allowEmbed");
          if (shown === undefined) throw new NotVerifiable(`the workbook ${wb.id} shows no publishedDashboard.allowEmbed to read back`);
          ctx.expect.equal(shown, on, `after ${on ? "enabling" : "disabling"}, the published dashboard of workbook ${wb.id} shows allowEmbed ${on}`, {
            res: read.res,
            reason: "embedding-kept",
          });
        }
      },
    },
  ]),
];

/** The spellings of the all-users target and of a tenant in embed access bodies and answers. */
export const ALL_USERS = "allEmbedUsers|allUsers|all";
export const TENANT = "tenantId|embedTenantId";

/** A workbook of the run's own with a published dashboard: a clone of the one discovery found (fixture publishedWorkbook). */
export async function publishedOfItsOwn(ctx: CheckContext, dep: string): Promise<{ id: number }> {
  const res = await duplicate(ctx.scratch, ctx.api, dep, ctx.fixture("publishedWorkbook").id);
  unlessAtWorkbookLimit(res, "cloning the workbook with a published dashboard");
  const clone = ctx.require<{ id: number }>(
    res,
    "E10",
    "cloning a workbook with a published dashboard, to set its embed access",
    (r) => r.isJson && Number.isSafeInteger(r.body?.id),
  );
  // An answer may name another workbook than the one it made: E9 must show it is the run's clone before its access is changed.
  // The ledger's entry carries when the clone was answered by the server's clock (its Date header, else the clock the run's own creates show).
  const made = ctx.scratch.entries.find((m) => m.deploymentId === dep && m.ref.type === "WORKBOOK" && m.ref.id === clone.id);
  await ctx.scratch.requireOwn(ctx.api, dep, [made?.ref ?? { type: "WORKBOOK", id: clone.id }]);
  return clone;
}

/**
 * Whom the check sets embed access for, per action: all embed users by the document's field,
 * spelled as the document types it (a boolean flag beside the action, the action itself, or an
 * object holding it); else, where the tenant is optional, by leaving it out; else (the tenant
 * required, no hint naming it) an embed tenant the server lists, filled in by `bodyWith`.
 */
function embedTarget(put: ServedOperation): { hints: (action: string) => Record<string, unknown>; tenantLeftOut: boolean } {
  const schema = put.bodySchema();
  const props = propertiesOf(schema);
  const all = Object.keys(props).find((k) => ALL_USERS.toLowerCase().split("|").includes(k.toLowerCase()));
  const allType = all === undefined ? undefined : [props[all]?.type, ...(props[all]?.anyOf ?? props[all]?.oneOf ?? []).map((b: any) => b?.type)].flat();
  const forAll = (hints: (action: string) => Record<string, unknown>) => ({ hints, tenantLeftOut: false });
  if (all !== undefined && props[all]?.const !== undefined) return forAll((action) => ({ action, [all]: props[all].const }));
  if (all !== undefined && (allType?.includes("boolean") || allType?.every((t) => t === undefined))) return forAll((action) => ({ action, [all]: true }));
  if (all !== undefined && allType?.includes("string")) return forAll((action) => ({ "action?": action, [all]: action }));
  if (all !== undefined && allType?.includes("object") && "action" in propertiesOf(props[all]))
    return forAll((action) => ({ "action?": action, [all]: { action } }));
  const tenant = Object.keys(props).find((k) => TENANT.toLowerCase().split("|").includes(k.toLowerCase()));
  return { hints: (action) => ({ action }), tenantLeftOut: !tenant || !requiredOf(schema).includes(tenant) };
}

/** The actions an embed access answer shows: each entry's `action`, and an all-users field that holds one (`allEmbedUsers: "read"`). */
function embedActions(record: any): unknown[] {
  const entries = listed(record) ?? Object.values(record ?? {}).find((v) => Array.isArray(v)) ?? [];
  return [...(entries as any[]).map((e) => field(e, "action")), field(record, ALL_USERS)].filter((a) => typeof a === "string");
}

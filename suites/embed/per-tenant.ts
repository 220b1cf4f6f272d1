import { isDeepStrictEqual } from "node:util";
import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { propertiesOf } from "../../core/served/answers.js";
import { field, listed, type ServedOperation } from "../../core/served/served-operations.js";
import { accepted, documented, typedAs } from "../lib/e14.js";
import { ADMIN } from "../lib/needs.js";
import { createOwn, EMBED_TENANTS } from "../lib/own-records.js";
import { ALL_USERS, publishedOfItsOwn, TENANT } from "./examples.js";

/** E14 rule 8, per embed tenant: two tenants of the run's own set apart, and the all-users access left alone. */
export const perTenantChecks = [
  ...group("embed", [
    {
      id: "embed.access.per-tenant",
      spec: "E14 rule 8",
      level: "MUST",
      title:
        "Embed access set per embed tenant (one tenant of the run's own to read, another to read and then none) reads back for each tenant as set, and the access for all embed users reads as it did",
      needs: [...ADMIN, "fixture:deployment", "fixture:publishedWorkbook"],
      reasons: {
        "tenant-action-accepted": { title: "Embed access for one embed tenant is accepted", expected: "2xx" },
        "tenant-kept": { title: "Each embed tenant's access reads back as it was set for that tenant", expected: "the action set for that tenant" },
        "all-users-kept": {
          title: "Access set for an embed tenant leaves the access for all embed users as it was",
          expected: "the all-users access read before",
        },
      },
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const put = doc.requireNamed("setEmbedAccess", "changes embed access");
        const get = doc.requireNamed("getEmbedAccess", "reads embed access");
        if (!doc.findNamed(EMBED_TENANTS.create))
          throw new NotExercised("the server documents no embed tenant create: the run has no tenants of its own to set apart");
        const tenantKey = put.bodyProperty(TENANT);
        if (tenantKey === undefined) throw new NotVerifiable(`${put.label} documents no tenant (tenantId) in its body`);
        // Two tenants of the run's own (removed at cleanup), and a workbook of its own: the access set goes with the clone, which cleanup removes.
        const tenants: (string | number)[] = [];
        for (const label of ["tenant-a", "tenant-b"])
          tenants.push(
            await createOwn(ctx, doc, EMBED_TENANTS, {}, { "name|title": ctx.scratch.name(label), "externalId?": ctx.scratch.slug(label) }, "an embed tenant"),
          );
        const wb = await publishedOfItsOwn(ctx, dep);
        const workbook = { deploymentId: dep, workbookId: wb.id };
        // Tenant B goes to read and then to none, so that none is seen to change what B held; A must read read throughout.
        const steps: [string | number, string][] = [
          [tenants[0]!, "read"],
          [tenants[1]!, "read"],
          [tenants[1]!, "none"],
        ];
        const allBefore = allUsersAccess((await readAccess(ctx, get, workbook, [])).record);
        const held = new Map<string | number, string>();
        for (const [tenant, action] of steps) {
          const body = put.body({ action, [tenantKey]: typedAs(propertiesOf(put.bodySchema())[tenantKey], tenant) });
          const res = await ctx.api.call("setEmbedAccess", workbook, { body });
          accepted(
            ctx,
            res,
            { body, op: put, underTest: ["action", action, tenantKey] },
            `embed access ${action} for tenant ${tenant} is accepted`,
            "tenant-action-accepted",
          );
          held.set(tenant, action);
          // Read after each write: every tenant set so far reads its own action, and the all-users access reads as before.
          const now = await readAccess(ctx, get, workbook, tenants);
          const allNow = allUsersAccess(now.record);
          for (const [t, a] of held) {
            const shown = tenantAccess(now.byTenant.get(t) ?? now.record, t);
            // A server may list only the tenants that have access: no entry is none while all embed users have none (or nothing is set for them).
            if (shown === undefined && a === "none" && allNow === "read")
              throw new NotVerifiable(
                `after setting tenant ${t} to none the answer lists no entry for it, and all embed users read: whether the tenant has access is not shown`,
              );
            ctx.expect.equal(
              shown === undefined && a === "none" ? "none" : shown,
              a,
              `after setting tenant ${tenant} to ${action}, embed access of workbook ${wb.id} reads ${a} for tenant ${t}`,
              {
                res: now.byTenantRes.get(t) ?? now.res,
                reason: "tenant-kept",
              },
            );
          }
          ctx.expect.that(isDeepStrictEqual(allNow, allBefore), `after setting tenant ${tenant} to ${action}, the access for all embed users reads as before`, {
            expected: allBefore ?? "not set",
            got: allNow ?? "not set",
            res: now.res,
            reason: "all-users-kept",
          });
        }
      },
    },
  ]),
];

/**
 * The workbook's embed access: the whole read, and, where the read documents a tenant query
 * parameter (access read per tenant), one read per tenant besides.
 */
async function readAccess(ctx: CheckContext, get: ServedOperation, workbook: { deploymentId: string; workbookId: number }, tenants: (string | number)[]) {
  const read = async (query?: Record<string, string>) => {
    const res = await ctx.api.call("getEmbedAccess", workbook, query ? { query } : {});
    ctx.require(res, "E14", "reading the workbook's embed access", (r) => r.status === 200 && r.isJson);
    return { res, record: get.record(res) };
  };
  const whole = await read();
  const byTenant = new Map<string | number, unknown>();
  const byTenantRes = new Map<string | number, Awaited<ReturnType<typeof read>>["res"]>();
  const param = get.queryParam(TENANT);
  if (param)
    for (const t of tenants) {
      const one = await read({ [param.name]: String(t) });
      byTenant.set(t, one.record);
      byTenantRes.set(t, one.res);
    }
  return { ...whole, byTenant, byTenantRes };
}

/** The entries of an embed access answer: its list (items, data, tenants or any one array), else the record itself as one entry. */
function entriesOf(record: any): any[] {
  const list = listed(record) ?? Object.values(record ?? {}).find((v) => Array.isArray(v));
  return Array.isArray(list) ? list : record && typeof record === "object" ? [record] : [];
}

/** The id an entry names its tenant by: `tenantId` (or `embedTenantId`), or a `tenant` object's id. */
const tenantOf = (entry: any) => field(entry, TENANT) ?? field(field(entry, "tenant"), "id");

/** The action an answer shows for one tenant, or undefined where it shows none. */
function tenantAccess(record: any, tenant: string | number): unknown {
  const entry = entriesOf(record).find((e) => tenantOf(e) !== undefined && tenantOf(e) !== null && String(tenantOf(e)) === String(tenant));
  return field(entry, "action");
}

/**
 * The access for all embed users an answer shows: a field holding the action (`allEmbedUsers:
 * "read"`), else the action of an entry flagged for all users (`allEmbedUsers: true`) or naming no
 * tenant; undefined where none is set.
 */
function allUsersAccess(record: any): unknown {
  const flat = field(record, ALL_USERS);
  if (typeof flat === "string" || (flat && typeof flat === "object" && !Array.isArray(flat))) return flat;
  const entry = entriesOf(record).find((e) => field(e, ALL_USERS) === true || (field(e, "action") !== undefined && (tenantOf(e) ?? null) === null));
  return entry === undefined ? undefined : field(entry, "action");
}

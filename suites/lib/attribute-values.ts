import type { CheckContext } from "../../core/check/context.js";
import type { ServedModel } from "../../core/served/model.js";
import { propertiesOf } from "../../core/served/answers.js";
import { field, type ServedOperation } from "../../core/served/served-operations.js";
import { allRecords, createdIn, ok2xx } from "./e14.js";
import { pathTo } from "../../core/transport/client.js";
import { fixedAttributeName } from "../../core/api/fixed-names.js";
import { canonicalJson } from "./values.js";

/** A user attribute as a user's values name it: by id in a list of {attributeId, value}, by name in a map. */
export interface Attribute {
  id: unknown;
  name: string;
}

/** Why a check that makes an attribute needs the user's leave for writes that stay, where the server documents no delete of one. */
export const ATTRIBUTES_STAY =
  "the server's document shows no delete of a user attribute (with the opt-in, the tool's fixed attributes are made once and kept)";

/**
 * An attribute of `type` whose values the run may set: one of the run's own where the document can
 * delete it (deleted at cleanup); else, where the user allows writes that stay, the tool's fixed
 * attribute of that type (core/api/fixed-names.ts: made once a tenant, found by its name after
 * that); else the check ends skipped, asking for that opt-in (ctx.needHere).
 */
export async function attributeOfType(ctx: CheckContext, doc: ServedModel, type: string, why: string): Promise<Attribute> {
  const create = doc.requireNamed("createUserAttribute", why);
  const removable = doc.findNamed("deleteUserAttribute") !== undefined;
  if (!removable) ctx.needHere("unremovable-writes", ATTRIBUTES_STAY);
  const name = removable ? ctx.scratch.slug(`attr-${type}`).replace(/-/g, "_") : fixedAttributeName(type);
  const res = await ctx.api.call("createUserAttribute", {}, { body: create.body({ "name|key": name, "type|dataType": type }) });
  if (!removable && !ok2xx(res)) {
    // Made by an earlier run (or by a check beside this one): found in the list by its fixed name.
    const listed = (await allRecords(ctx, pathTo("listUserAttributes", {}), {}, "the user attributes")).items.find((a) => field(a, "name|key") === name);
    if (listed && field(listed, "type|dataType") === type) return { id: field(listed, "id|attributeId"), name };
  }
  const made = createdIn(ctx, create, res, `creating a ${type} user attribute (${name})`);
  if (removable)
    ctx.scratch.onCleanup(`delete user attribute ${made.id}`, async () => void (await ctx.api.call("deleteUserAttribute", { attributeId: made.id })));
  return { id: made.id, name };
}

/** A user's values as the document spells them: a list of {attributeId, value}, or a map from the attribute's name to its value. */
export function valuesBody(set: ServedOperation, attr: Attribute, value: unknown): Record<string, unknown> {
  const props = propertiesOf(set.bodySchema());
  const key = Object.keys(props).find((k) => /^(values|items|attributes)$/i.test(k)) ?? "values";
  const byId = props[key]?.items?.properties?.attributeId || props[key]?.items?.properties?.id;
  return set.body({
    [key]: props[key]?.type === "array" ? [{ "attributeId|id|attribute|name|key": byId ? attr.id : attr.name, value }] : { [attr.name]: value },
  });
}

/** The value a read of a user's values holds for the attribute, in either spelling (undefined: none). */
export function heldValue(record: any, attr: Attribute): unknown {
  const values = field(record, "values|items|data") ?? record;
  if (Array.isArray(values))
    return field(
      values.find((v) => String(field(v, "attributeId|id|attribute")) === String(attr.id) || field(v, "name|key") === attr.name),
      "value",
    );
  return values && typeof values === "object" ? values[attr.name] : undefined;
}

/** Whether a read of a user's values holds `value` for the attribute (an array or object compared whole, in any key order). */
export const holdsValue = (record: any, attr: Attribute, value: unknown): boolean => canonicalJson(heldValue(record, attr)) === canonicalJson(value);

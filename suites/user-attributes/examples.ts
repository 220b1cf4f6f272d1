import { group } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { ATTRIBUTES_STAY } from "../lib/attribute-values.js";
import { field } from "../../core/served/served-operations.js";
import { accepted, createdIn, documented } from "../lib/e14.js";
import { cursorList } from "../lib/cursor-list.js";
import { ADMIN } from "../lib/needs.js";
import { fixedAttributeName } from "../../core/api/fixed-names.js";

/**
 * E14 rules of user attributes: the list is cursor-paginated (0.4.0), and an attribute can be made
 * with each type. Attribute writes touch a real tenant: they need --allow-admin-writes.
 */
export const ATTRIBUTE_TYPES = ["string", "number", "boolean", "string_array", "number_array"];

export const userAttributeChecks = [
  ...group("user-attributes", [
    {
      id: "user-attributes.list.cursor",
      spec: "E14 rule 11; Pagination styles 2",
      level: "MUST",
      title: "The user attributes list is cursor-paginated: first bounds a page, after continues it, items and pageInfo (0.4.0)",
      needs: [],
      run: (ctx) => cursorList(ctx, "listUserAttributes", {}, "user attributes"),
    },
    {
      id: "user-attributes.types.accepted",
      spec: "E14 rule 7",
      level: "MUST",
      title: "A user attribute can be created with each type: string, number, boolean, string_array, number_array",
      needs: [...ADMIN],
      async run(ctx) {
        const doc = await documented(ctx);
        const create = doc.requireNamed("createUserAttribute", "creates user attributes");
        // Without a documented delete, what it makes stays: only the tool's fixed names, and only as the user allowed.
        const removable = doc.findNamed("deleteUserAttribute") !== undefined;
        if (!removable) ctx.needHere("unremovable-writes", ATTRIBUTES_STAY);
        for (const type of ATTRIBUTE_TYPES) {
          const name = removable ? ctx.scratch.slug(`attr-${type}`).replace(/-/g, "_") : fixedAttributeName(type);
          const body = create.body({ "name|key": name, "type|dataType": type });
          const res = await ctx.api.call("createUserAttribute", {}, { body });
          if (!removable && res.status === 409)
            throw new NotExercised(
              `${name}, a fixed attribute of the tool, exists from an earlier run and the server documents no delete: creating a ${type} attribute was not tried anew`,
            );
          accepted(ctx, res, { body, op: create, underTest: ["type", "dataType", type] }, `an attribute of type ${type} is created`, "type-accepted");
          const { id, record } = createdIn(ctx, create, res, `creating a ${type} attribute`);
          if (removable)
            ctx.scratch.onCleanup(`delete user attribute ${id}`, async () => void (await ctx.api.call("deleteUserAttribute", { attributeId: id })));
          const shown = field(record, "type|dataType");
          if (shown !== undefined) ctx.expect.equal(shown, type, `the ${type} attribute is stored with its type`, { res, reason: "type-kept" });
        }
      },
    },
  ]),
];

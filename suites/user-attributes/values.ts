import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import type { ServedOperation } from "../../core/served/served-operations.js";
import { documented, ok2xx, setup, shownStatus } from "../lib/e14.js";
import { attributeOfType, heldValue, holdsValue, valuesBody } from "../lib/attribute-values.js";
import { userOfTheRun } from "../lib/users.js";
import { ADMIN } from "../lib/needs.js";
import { ATTRIBUTE_TYPES } from "./examples.js";
import { LOOSELY_EQUAL_STRINGS } from "../../core/api/number-spellings.js";

/**
 * Values each type holds, set one after another: a fraction and more than one element, where an
 * array is; then the type's falsy value (a server once removed a value of 0 or false).
 */
const FITTING: Record<string, unknown[]> = {
  string: ["conformance", ""],
  number: [42, 42.5, 0],
  boolean: [true, false],
  string_array: [["north", "south"], []],
  number_array: [[1, 2], [1, 2.5], [0]],
};

/**
 * Values of another type, none a lenient server could read as meant (no "1" for 1, no 1 for "1"):
 * a scalar of another type, an array for a scalar and a scalar for an array, and for the arrays
 * an element of another type first, after a fitting one, and an array nested in the array.
 */
const MISFITTING: Record<string, unknown[]> = {
  string: [{ text: "north" }, ["north"]],
  number: ["north", [1]],
  boolean: ["north", [true]],
  string_array: ["north", [{ text: "north" }], ["north", { text: "south" }], [["north"]]],
  number_array: [["north"], [1, "north"], [[1]], 1],
};

/** The user's values as read back (one read a judgement). */
async function valuesOf(ctx: CheckContext, read: ServedOperation, user: string | number): Promise<{ record: unknown; res: Response }> {
  const res = await ctx.api.call("getUserAttributeValues", { userId: user });
  setup(ctx, res, `reading user ${user}'s attribute values`, (r) => r.status === 200 && r.isJson);
  return { record: read.record(res), res };
}

const shown = (v: unknown) => JSON.stringify(v) ?? "nothing";

/** A number's two spellings (LOOSELY_EQUAL_STRINGS), as a value of each type that holds text: the second sent right after the first. */
const RESPELLED: Record<string, (s: string) => unknown> = { string: (s) => s, string_array: (s) => [s] };

/** The served operations that set and read a user's attribute values, and the user of the run whose values are set. */
async function valueCalls(ctx: CheckContext) {
  const doc = await documented(ctx);
  const set = doc.requireNamed("setUserAttributeValues", "sets a user's attribute values");
  const read = doc.requireNamed("getUserAttributeValues", "reads a user's attribute values back");
  return { doc, set, read, user: await userOfTheRun(ctx, doc) };
}

export const attributeValueChecks = group("user-attributes", [
  {
    id: "user-attributes.values.typed",
    spec: "E14 (user attributes of types string, number, boolean, string_array, number_array, and per-user values)",
    level: "SHOULD",
    title:
      "A user's value of an attribute is held to the attribute's type: values of each type, its falsy one too (0, false, \"\", []), are set and read back; one of another type (an array's element included, first or later, and a nested array) is refused with a 4xx, and the value before it is read back",
    needs: [...ADMIN],
    async run(ctx) {
      const { doc, set, read, user } = await valueCalls(ctx);
      for (const type of ATTRIBUTE_TYPES) {
        const attr = await attributeOfType(ctx, doc, type, `creates a ${type} attribute whose values are set`);
        let fitting: unknown;
        for (const [i, value] of FITTING[type].entries()) {
          const sent = await ctx.api.call("setUserAttributeValues", { userId: user }, { body: valuesBody(set, attr, value) });
          // The first fitting value refused is a shape of the values the run does not know (E14 shows none): nothing to judge
          // the others by. A falsy one refused (an empty string or list, say, the last) sets nothing to read back. Any
          // other is of the type as the first is: a number with a fraction among them (a server once took integers only).
          if (i === FITTING[type].length - 1 && i > 0 && !ok2xx(sent)) continue;
          if (i === 0) setup(ctx, sent, `setting user ${user}'s ${type} attribute ${attr.name} to ${shown(value)}`, ok2xx);
          ctx.expect.that(
            ok2xx(sent),
            `${shown(value)}, a value of the type as ${shown(FITTING[type][0])} was, is taken for the ${type} attribute ${attr.name}`,
            {
              expected: "2xx",
              got: shownStatus(sent),
              res: sent,
              reason: "typed-value-taken",
            },
          );
          fitting = value;
          const before = await valuesOf(ctx, read, user);
          ctx.expect.that(holdsValue(before.record, attr, fitting), `user ${user}'s ${type} attribute ${attr.name} is read back as set`, {
            expected: shown(fitting),
            got: shown(heldValue(before.record, attr)),
            res: before.res,
            reason: "typed-value-read-back",
          });
        }
        for (const misfit of MISFITTING[type]) {
          const res = await ctx.api.call("setUserAttributeValues", { userId: user }, { body: valuesBody(set, attr, misfit) });
          ctx.expect.that(res.status >= 400 && res.status < 500, `${shown(misfit)} as the value of a ${type} attribute is refused`, {
            expected: "a 4xx",
            got: shownStatus(res),
            res,
            reason: "misfitting-value-refused",
          });
          const after = await valuesOf(ctx, read, user);
          ctx.expect.that(
            holdsValue(after.record, attr, fitting),
            `after ${shown(misfit)} was refused, the ${type} attribute ${attr.name} still holds ${shown(fitting)}`,
            {
              expected: shown(fitting),
              got: shown(heldValue(after.record, attr)),
              res: after.res,
              reason: "refused-value-unchanged",
            },
          );
        }
      }
    },
  },
  {
    id: "user-attributes.values.respelling-replaces",
    spec: "E14 (user attributes of types string and string_array, and per-user values)",
    level: "SHOULD",
    title:
      'A user\'s value of a string or string_array attribute set to a number\'s other spelling right after the first ("1e1" after "10", "01" after "1") reads back the spelling last set',
    needs: [...ADMIN],
    async run(ctx) {
      const { doc, set, read, user } = await valueCalls(ctx);
      for (const [type, asTypeHolds] of Object.entries(RESPELLED)) {
        const attr = await attributeOfType(ctx, doc, type, `creates a ${type} attribute whose values are set`);
        for (const [i, value] of LOOSELY_EQUAL_STRINGS.flat().map(asTypeHolds).entries()) {
          const res = await ctx.api.call("setUserAttributeValues", { userId: user }, { body: valuesBody(set, attr, value) });
          // The first value refused is a shape of the values the run does not know (E14 shows none): nothing to judge.
          if (i === 0) setup(ctx, res, `setting user ${user}'s ${type} attribute ${attr.name} to ${shown(value)}`, ok2xx);
          else if (!ok2xx(res)) continue;
          const after = await valuesOf(ctx, read, user);
          ctx.expect.that(holdsValue(after.record, attr, value), `after ${shown(value)} was set, user ${user}'s ${type} attribute ${attr.name} reads it back`, {
            expected: shown(value),
            got: shown(heldValue(after.record, attr)),
            res: after.res,
            reason: "respelling-read-back",
          });
        }
      }
    },
  },
]);

import { ATTRIBUTE_TYPES } from "../routes/e14/resources.js";
import { type App, HttpError, type Fault, type Req } from "../http.js";
import { cleanBehaviour } from "../behaviour.js";
import { looselyEqualValues } from "./kit/input-domain.js";
import { e14 } from "../e14/state.js";

/** The values a set request sends, and the user's stored ones (undefined where the body or the user has none). */
function attributeValuesOf(app: App, req: Req) {
  const sent = (req.body as { values?: unknown } | undefined)?.values;
  return {
    values: Array.isArray(sent) ? (sent as { attributeId?: unknown; value?: unknown }[]) : undefined,
    stored: e14(app.store).attributeValues.get(Number(req.params.userId)),
  };
}

/** The faults of the group user-attributes (suites/user-attributes/): each makes a check of it fail, for the reason its `because` names. */
export const userAttributesFaults: Fault[] = [
  {
    name: "attribute-type-number-array-refused",
    breaks: "E14 rule 7 (attribute types)",
    description: "user attributes of type number_array are refused",
    because: { "user-attributes.types.accepted": "type-accepted" },
    operations: ["createUserAttribute", "updateUserAttribute"],
    handle: ({ req, next }) => {
      const left = ATTRIBUTE_TYPES.filter((t) => t !== "number_array");
      if (req.body?.type === "number_array") throw new HttpError(400, `type must be one of ${left.join(", ")}`);
      return next();
    },
  },
  {
    name: "attribute-array-elements-unchecked",
    breaks: "E14 (user attributes of types string, number, boolean, string_array, number_array, and per-user values)",
    description: "a user's value of a string_array or number_array attribute is checked to be an array only: its elements may be of any type",
    because: { "user-attributes.values.typed": "misfitting-value-refused" },
    behaviour: {
      attributeValueFits: (type, v) => (type.endsWith("_array") ? Array.isArray(v) : cleanBehaviour.attributeValueFits(type, v)),
    },
  },
  {
    name: "attribute-number-array-integers-only",
    breaks: "E14 (user attributes of types string, number, boolean, string_array, number_array, and per-user values)",
    description: "a number_array value is checked as a list of integers: 2.5 among its elements is refused (422 from a 4xx)",
    because: { "user-attributes.values.typed": "typed-value-taken" },
    behaviour: {
      attributeValueFits: (type, v) =>
        type === "number_array" ? Array.isArray(v) && v.every((x) => Number.isInteger(x)) : cleanBehaviour.attributeValueFits(type, v),
    },
  },
  {
    name: "attribute-value-falsy-removed",
    breaks: "E14 (user attributes and per-user values)",
    description: "a user's attribute value of 0 or false is taken for a removal: the value is dropped instead of stored",
    because: { "user-attributes.values.typed": "typed-value-read-back" },
    operations: ["setUserAttributeValues"],
    handle: async ({ req, app, next }) => {
      const reply = await next();
      const { values, stored } = attributeValuesOf(app, req);
      if (reply.status === 200 && stored && values) for (const v of values) if (v?.value === 0 || v?.value === false) stored.delete(String(v.attributeId));
      return reply;
    },
  },
  {
    name: "attribute-value-numeric-respelling-kept",
    breaks: "E14 (user attributes and per-user values)",
    description:
      'a user\'s attribute value is written only when it differs from the stored one as PHP\'s == compares strings: "1e1" sent over a stored "10" (and ["01"] over ["1"]) is taken for no change',
    because: { "user-attributes.values.respelling-replaces": "respelling-read-back" },
    operations: ["setUserAttributeValues"],
    handle: ({ req, app, next }) => {
      const { values, stored } = attributeValuesOf(app, req);
      if (!values || !stored) return next();
      for (const v of values) {
        const was = stored.get(String(v?.attributeId));
        if (looselyEqualValues(was, v?.value)) v.value = was;
      }
      return next();
    },
  },
];

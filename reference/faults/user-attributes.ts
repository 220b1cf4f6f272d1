import { ATTRIBUTE_TYPES } from "../routes/e14/resources.js";
import { HttpError, type Fault } from "../http.js";
import { cleanBehaviour } from "../behaviour.js";

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
];

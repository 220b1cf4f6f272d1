import { EMBED_ACTIONS } from "../routes/e14/platform.js";
import { HttpError, type Fault } from "../http.js";

/** The faults of the group embed (suites/embed/): each makes a check of it fail, for the reason its `because` names. */
export const embedFaults: Fault[] = [
  {
    name: "embed-access-none-refused",
    breaks: "E14 rule 8 (actions read and none)",
    description: "embed access accepts read but refuses none",
    because: { "embed.access.actions": "action-accepted" },
    operations: ["setEmbedAccess"],
    handle: ({ req, next }) => {
      const left = EMBED_ACTIONS.filter((a) => a !== "none");
      if (req.body?.action === "none") throw new HttpError(400, `action must be one of ${left.join(", ")}`);
      return next();
    },
  },
];

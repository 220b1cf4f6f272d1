import { HttpError, type Fault } from "../http.js";

/** The faults of the group paths (suites/paths/): each makes a check of it fail, for the reason its `because` names. */
export const pathsFaults: Fault[] = [
  {
    name: "regions-without-trailing-slash",
    breaks: "E14 (Method, Path)",
    description: "the regions list is served at /api/v1/regions only: the path E14 writes, /api/v1/regions/, answers 404",
    because: { "paths.e14.named-reads-served": "named-path" },
    operations: ["listRegions"],
    handle: ({ req, next }) => {
      if (req.path.endsWith("/")) throw new HttpError(404, `no route ${req.path}`);
      return next();
    },
  },
];

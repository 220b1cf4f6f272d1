import { type Fault, HttpError } from "../http.js";

/** The faults of the group logs (suites/logs/): each makes a check of it fail, for the reason its `because` names. */
export const logsFaults: Fault[] = [
  {
    name: "logs-source-enum-lookup-crashes",
    breaks: "E14 rule 9 (filter source: production, dev); Errors 2",
    description: "source is looked up as an enum constant without a guard: a value that differs from a stated one by case (Production) answers 500",
    because: { "logs.filter.source": "no-5xx" },
    operations: ["getLogs"],
    handle: ({ req, next }) => {
      const source = req.query.get("source");
      if (source && source !== source.toLowerCase() && ["production", "dev"].includes(source.toLowerCase()))
        throw new HttpError(500, "No enum constant LogSource." + source);
      return next();
    },
  },
  {
    name: "logs-filters-ignored",
    breaks: "E14 rule 9 (source and container filters)",
    description: "the logs accept source and container and ignore them",
    because: { "logs.filter.source": "only-that-source", "logs.filter.container": "only-that-container" },
    behaviour: { logMatches: () => true },
  },
  {
    name: "logs-server-container-unfiltered",
    breaks: "E14 rule 9 (container: the server container)",
    description: "the container filter knows the four containers the spec names; the server container it documents is taken and ignored (every entry listed)",
    because: { "logs.filter.server-container": "only-that-container" },
    operations: ["getLogs"],
    handle: ({ req, next }) => {
      if (req.query.get("container") === "cube") req.query.delete("container");
      return next();
    },
  },
];

import type { Fault } from "../http.js";

/** The faults of the group logs (suites/logs/): each makes a check of it fail, for the reason its `because` names. */
export const logsFaults: Fault[] = [
  {
    name: "logs-filters-ignored",
    breaks: "E14 rule 9 (source and container filters)",
    description: "the logs accept source and container and ignore them",
    because: { "logs.filter.source": "only-that-source", "logs.filter.container": "only-that-container" },
    behaviour: { logMatches: () => true },
  },
];

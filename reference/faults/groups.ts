import type { Fault } from "../http.js";

/** The faults of the group groups (suites/groups/): each makes a check of it fail, for the reason its `because` names. */
export const groupsFaults: Fault[] = [
  {
    name: "groups-search-drops-non-ascii",
    breaks: "E14 rule 11 (search on the users and groups lists, 0.4.0)",
    description:
      "the groups list 'sanitises' a search term byte by byte, keeping ASCII letters, digits, spaces and .@- only: an accented word no longer matches, and a term of Greek letters alone becomes empty and lists every group",
    because: { "groups.list.search-non-ascii": "match-listed" },
    operations: ["listGroups"],
    handle: ({ req, next }) => {
      const term = req.query.get("search");
      if (term !== null) req.query.set("search", term.replace(/[^\w\s.@-]/g, ""));
      return next();
    },
  },
];

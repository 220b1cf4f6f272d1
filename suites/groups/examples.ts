import { group } from "../../core/check/check.js";
import { searchHolds } from "../lib/search.js";

/** E14 rules of the groups list: search (0.4.0). */
export const groupChecks = [
  ...group("groups", [
    {
      id: "groups.list.search",
      spec: "E14 rule 11",
      level: "MUST",
      title: "search on the groups list lists the groups that mention the term, and only those, on every page (0.4.0)",
      needs: [],
      run: (ctx) => searchHolds(ctx, "listGroups", "groups", (g) => (typeof g?.name === "string" && g.name ? g.name : undefined)),
    },
  ]),
];

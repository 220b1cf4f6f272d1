import { group } from "../../core/check/check.js";
import { cursorList } from "../lib/cursor-list.js";

/** E14 rules of the regions list: cursor-paginated (0.4.0). */
export const regionChecks = [
  ...group("regions", [
    {
      id: "regions.list.cursor",
      spec: "E14 rule 11; Pagination styles 2",
      level: "MUST",
      title: "The regions list is cursor-paginated: first bounds a page, after continues it, items and pageInfo (0.4.0)",
      needs: [],
      run: (ctx) => cursorList(ctx, "listRegions", {}, "regions"),
    },
  ]),
];

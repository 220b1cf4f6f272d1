import { group } from "../../core/check/check.js";
import { searchFindsNonAscii, searchHolds } from "../lib/search.js";
import { documented } from "../lib/e14.js";
import { createOwnUnlessRefused, GROUPS } from "../lib/own-records.js";
import { WRITES } from "../lib/needs.js";

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
    {
      id: "groups.list.search-non-ascii",
      spec: "E14 rule 11",
      level: "MUST",
      title:
        "search on the groups list finds a group of the run's own by a term with letters outside ASCII (an accented word after its name, a Greek word alone), and lists nothing that does not mention the term",
      needs: [...WRITES],
      async run(ctx) {
        const doc = await documented(ctx);
        doc.requireNamed("listGroups", "is the groups list");
        // A name refused (a 4xx) is a server's narrower alphabet (not shown): nothing to search for, not exercised.
        await searchFindsNonAscii(ctx, "listGroups", "groups", (name) => createOwnUnlessRefused(ctx, doc, GROUPS, {}, { name }, "a group"));
      },
    },
  ]),
];

import { group } from "../../core/check/check.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { pathTo } from "../../core/transport/client.js";
import { documented } from "../lib/e14.js";

/** Numeric query bounds the served document gives a parameter of the list. */
const minimumOf = (schema: any): number | undefined => (typeof schema?.minimum === "number" ? schema.minimum : undefined);

/**
 * E2's numeric bounds: "two parameters with minimum 0 and one with minimum 1", their names not shown.
 * The server's own document names them; each is sent one below its minimum. `first` is left to
 * pagination.cursor.first-below-minimum-rejected, which sends first=0 to E2 already.
 */
export const environmentBoundChecks = group("environments", [
  {
    id: "environments.list.bounds-below-minimum-rejected",
    spec: "E2 (two parameters with minimum 0 and one with minimum 1; names from the served document); Pagination styles 1",
    // SHOULD, as offset=-1 and limit=0 on E1: the minimum is stated, what a server does below it is not.
    level: "SHOULD",
    title: "Each numeric query parameter of the environments list that the served document bounds (first aside) is rejected with a 4xx one below its minimum",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const path = pathTo("listEnvironments", { deploymentId: ctx.fixture("deployment").id });
      // The list is served (a 4xx below would prove nothing from a server without the route).
      ctx.requireRoute(await ctx.api.get(path), "E2", "the environments list");
      const op = (await documented(ctx)).findNamed("listEnvironments");
      const bounded = (op?.op.parameters ?? []).filter((p: any) => p.in === "query" && p.name !== "first" && minimumOf(p.schema) !== undefined);
      if (!bounded.length)
        throw new NotVerifiable(
          "the server's document names no query parameter of the environments list with a minimum beside first: the names of E2's bounds are not shown",
        );
      for (const p of bounded) {
        const min = minimumOf(p.schema)!;
        ctx.expect.clientError(
          await ctx.api.get(path, { [p.name]: min - 1 }),
          `E2: ${p.name}=${min - 1}, below the minimum of ${min} the served document gives it, is rejected`,
        );
      }
    },
  },
]);

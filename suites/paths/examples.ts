import { group } from "../../core/check/check.js";
import { E14_OPERATIONS } from "../../core/api/operations.js";
import { fillPath } from "../../core/api/match.js";
import { NotExercised } from "../../core/model/outcome.js";
import { statusLine } from "../../core/api/expect.js";

/** E14's reads whose path holds no placeholder but the deployment: each can be asked as the table writes it. */
const NAMED_READS = E14_OPERATIONS.filter((op) => op.method === "GET" && [...op.path.matchAll(/\{(\w+)\}/g)].every(([, name]) => name === "deploymentId"));

/** The other spelling of a path: with a trailing slash where it has none, without where it has one. */
const otherSpelling = (path: string) => (path.endsWith("/") ? path.slice(0, -1) : `${path}/`);

export const pathChecks = group("paths", [
  {
    id: "paths.e14.named-reads-served",
    spec: "E14 (Method, Path: the table writes each path, trailing slashes included)",
    level: "MUST",
    title:
      "Each read E14's table names is served at the path as the table writes it: none answers 404 or 405 there while the other spelling of its trailing slash answers 2xx",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const misplaced: string[] = [];
      let judged = 0;
      for (const op of NAMED_READS) {
        const path = fillPath(op.path, { deploymentId: dep });
        // The document is read once a run (core/served/read.ts): its read is the named path's answer.
        const named = op.name === "getSpec" ? (await ctx.servedDocument()).res : await ctx.api.get(path);
        if (named.status !== 404 && named.status !== 405) {
          judged++;
          continue;
        }
        // A 404 where no spelling answers says nothing of the path (the route is not served, or needs what this read does not send).
        const other = await ctx.api.get(otherSpelling(path));
        if (other.status < 200 || other.status >= 300) continue;
        judged++;
        misplaced.push(`${op.method} ${path} answered ${statusLine(named)}, ${otherSpelling(path)} ${statusLine(other)}`);
      }
      if (!judged) throw new NotExercised(`none of the ${NAMED_READS.length} reads E14 names answered anything but 404 or 405, in either spelling`);
      ctx.expect.equal(misplaced, [], "every read E14 names is served at the path the table writes", { reason: "named-path" });
    },
  },
]);

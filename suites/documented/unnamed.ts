import { group } from "../../core/check/check.js";
import { statusLine } from "../../core/api/expect.js";
import { NotExercised } from "../../core/model/outcome.js";
import { propertySeed } from "../../core/run/property.js";
import { specSectionOf } from "../../core/api/spec-operations.js";
import { operationsOf } from "../../core/served/served-document.js";
import { contradiction, mayWrite } from "../lib/documented-requests.js";
import { namedIn } from "./refusals.js";
import { bodyFor, drawnBody, requestSchema, resourcesOf } from "../lib/documented-resources.js";
import { NotGenerated } from "../../generators/index.js";
import { Findings, setUp } from "./setup.js";

const WRITES = new Set(["POST", "PUT", "PATCH"]);

/**
 * Issue 21, section 1: an operation a server documents beyond the spec (a data query, an action of
 * its own) is used as a client would: one request built from its documented parameters and body,
 * on objects the run discovered, judged by its document. Never a DELETE; never a create the
 * resource chains send (documented.resources); only behind --allow-unnamed-operations, since what
 * such an operation does is not known to the tool.
 */
export const unnamedOperationChecks = group("documented", [
  {
    id: "documented.operations.unnamed",
    spec: "E14; Versioning 1",
    level: "SHOULD",
    title:
      "Each write (POST, PUT, PATCH) of the served document that the spec does not name is answered as documented to a request valid under its document: a status it lists, with its documented body, and no 4xx",
    needs: ["writes", "unnamed-operations", "fixture:deployment"],
    async run(ctx) {
      const { ops, ids, schemas } = await setUp(ctx);
      // Named by the spec: an operation of its table or of the E14 families its own document holds.
      const named = new Set(operationsOf(ctx.schemas.document).map((o) => o.key));
      const chained = new Set(resourcesOf(ops, ctx.settings).map((r) => r.create));
      const unnamed = ops.filter(
        (o) => WRITES.has(o.method) && specSectionOf(o.key) === undefined && !named.has(o.key) && !chained.has(o) && mayWrite(o, ctx.settings),
      );
      const findings = new Findings();
      const unbuilt: string[] = [];
      let sent = 0;
      for (const op of unnamed) {
        const path = await ids.fill(op.path);
        if (!path) {
          unbuilt.push(`${op.method} ${op.path}: no object of the run's discovery fills its path`);
          continue;
        }
        const body = drawnBody(() => bodyFor(ctx, op, propertySeed(ctx.settings.seed, `${ctx.checkId}:${op.key}`)));
        if (body instanceof NotGenerated) {
          unbuilt.push(`${op.method} ${op.path}: ${body.message}`);
          continue;
        }
        const broken = requestSchema(op) ? schemas.errors(requestSchema(op), body) : undefined;
        if (broken?.length) {
          unbuilt.push(`${op.method} ${op.path}: no valid body was generated (${broken.join("; ")})`);
          continue;
        }
        const res = await ctx.api.send({ method: op.method, path, body });
        sent++;
        const where = `not in the spec: ${op.method} ${op.path}`;
        if (res.status >= 400 && res.status < 500)
          findings.fail(`${where}: a request valid under its document is refused${namedIn(res, body)}`, {
            reason: "valid-request-refused",
            expected: "a 2xx the document lists",
            got: statusLine(res),
            res,
          });
        else if (res.status >= 500)
          findings.fail(`${where}: a request valid under its document gets a server error`, {
            reason: "server-error",
            expected: "a 2xx the document lists",
            got: statusLine(res),
            res,
          });
        else {
          const c = contradiction(op, res, schemas);
          if (c) findings.fail(`${where}: ${c.what}`, { reason: c.reason, expected: c.expected, got: c.got, res });
        }
      }
      findings.throwIfAny();
      if (!sent)
        throw new NotExercised(
          `the served document lists no write the spec does not name that the run could send${unbuilt.length ? ` (${unbuilt.join("; ")})` : ""}`,
        );
    },
  },
]);

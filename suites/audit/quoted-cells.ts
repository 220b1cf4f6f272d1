import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { DEFAULT_LIMIT, DEPLOYMENTS_PATH, deploymentsOf } from "../../core/transport/deployments.js";
import { walkAgainUntil, walkOffset } from "../../core/transport/pagination.js";
import { documented } from "../lib/e14.js";
import { ownDeployment } from "../lib/own-deployment.js";
import { scanCsv } from "../lib/streamed.js";
import { DAY, failOn, isoDay, openExport } from "./examples.js";

/**
 * What a CSV writer must quote (RFC 4180), each alone: a writer that quotes a cell for one of them
 * and not the other is a plausible mistake (a server once quoted on a double quote or a line break
 * only, and wrote a deployment name with a comma bare: its row had a cell too many).
 */
const PUNCTUATION = [
  { what: "a comma", dress: (name: string) => `${name}, Inc` },
  { what: "a double quote", dress: (name: string) => `${name} "Q"` },
];

/** The deployment's name as E1 lists it (walked again while a list beside other writers may skip it). */
async function listedName(ctx: CheckContext, dep: string): Promise<string | undefined> {
  const walk = () => walkOffset(ctx.api, DEPLOYMENTS_PATH, DEFAULT_LIMIT, deploymentsOf).then((w) => w.items as any[]);
  const items = await walkAgainUntil(walk, (all) => all.some((d) => String(d?.id) === dep));
  const name = items.find((d) => String(d?.id) === dep)?.name;
  return typeof name === "string" ? name : undefined;
}

export const auditQuotedCellChecks = group("audit", [
  {
    id: "audit.export.quoted-cells",
    spec: "E7 (Response 200: CSV file)",
    level: "MUST",
    title:
      "A name the run gave with a comma, or with a double quote, that reaches the export stays one cell: every row that holds it has as many cells as the header, and one cell holds the name whole",
    // A deployment of the run's own, named with the punctuation: the audit log's deployment column, or its event data, carries it.
    needs: ["feature:auditLog", "writes", "deployment-lifecycle", "fixture:deployment"],
    async run(ctx) {
      const doc = await documented(ctx);
      const since = isoDay(Date.now() - DAY);
      let seen = 0;
      for (const { what, dress } of PUNCTUATION) {
        const dep = await ownDeployment(ctx, doc.operations, ctx.fixture("deployment").id, `named with ${what}`, dress);
        const name = await listedName(ctx, dep);
        if (!name || name === name.replace(/[,"]/g, "")) continue;
        // The name's plain part: found in a cell whether the cell is the name, a JSON string or a sentence.
        const plain = name.split(/[,"]/)[0].trim();
        const answer = await openExport(ctx, { start: since });
        let header: string[] = [];
        const rows: string[][] = [];
        await scanCsv(answer, (record, i) => {
          if (i === 0) header = record;
          else if (record.some((cell) => cell.includes(plain))) rows.push(record);
        });
        seen += rows.length;
        const broken = rows.filter((r) => r.length !== header.length);
        if (broken.length)
          failOn(answer, `${broken.length} row(s) naming the deployment ${JSON.stringify(name)}, with ${what}, have another number of cells than the header`, {
            reason: "unquoted-cell",
            expected: `${header.length} cells (${header.join(", ")}), the name in one of them`,
            got: broken.slice(0, 2),
          });
        if (rows.length && !rows.some((r) => r.some((cell) => cell.includes(name))))
          failOn(answer, `no cell of the rows naming the deployment holds its name ${JSON.stringify(name)} whole, with ${what}`, {
            reason: "cell-cut",
            expected: name,
            got: rows.slice(0, 2),
          });
      }
      if (!seen)
        throw new NotExercised("no row of the audit export names a deployment the run made with a comma or a double quote in its name: no such cell to read");
    },
  },
]);

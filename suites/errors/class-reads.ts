import type { Workbook } from "../../core/api/schema-types.js";
import { INPUT_DOMAINS, type ValueClass } from "../../core/api/input-domain.js";
import { allDeployments } from "../../core/transport/deployments.js";
import type { CheckContext } from "../../core/check/context.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { workbooksPath } from "../lib/workbook-calls.js";
import { type Read, type ReadRequest, readsValid, written } from "./reads.js";

/**
 * One read per class of each read input the table names (core/api/input-domain.ts), sent before
 * the no-5xx properties' random search: a search spread over every parameter of every read draws a
 * given class of a given input only by chance (issue 29, section 2: cases spread over the classes,
 * then random within them). Each case is a valid read with that one input set to a value of the
 * class; the cases whose value is invalid (ruled out, refused by the parameter's schema, a made-up
 * cursor, a value that is no id) belong to the invalid reads' check, the rest to the valid reads'.
 */

/** A case: the request and the class it sends, for the message of a failure. */
export interface ClassRead {
  req: ReadRequest;
  what: string;
}

/** An id this far up names nothing on a server whose lists the check read (checked against them): the class "missing". */
const NO_OBJECT_ID = 987_654_319;

/** The ids the check read before choosing its values: deployments (E1), and the workbooks and their folders of the fixture's first page (E8). */
interface Known {
  deployment: string[];
  workbook: string[];
  folder: string[];
}

async function knownIds(ctx: CheckContext, dep: string): Promise<Known> {
  const deployments = (await allDeployments(ctx.api)).map((d) => String(d?.id));
  const walk = await walkCursor<Workbook>(ctx.api, workbooksPath(dep), { first: 50, stopAfter: 1, endpoint: "E8" });
  const ids = (key: string) =>
    [...new Set(walk.items.map((w: Record<string, unknown>) => w?.[key]).filter((v) => typeof v === "number" || typeof v === "string"))].map(String);
  return { deployment: deployments, workbook: ids("id"), folder: ids("folderId") };
}

/**
 * A value of an id class for an id of `kind`: the fixture's own (existing), one no list the check
 * read holds (missing), one the lists hold as another kind's and never as this kind's (other-kind).
 * An id of another deployment is left to the checks that make one (workbooks, clone).
 */
function idOf(c: ValueClass, kind: keyof Known, known: Known, own: string | undefined): string | undefined {
  const all = Object.values(known).flat();
  if (c.name === "existing") return own;
  if (c.name === "missing") return all.includes(String(NO_OBJECT_ID)) ? undefined : String(NO_OBJECT_ID);
  if (c.name === "other-kind")
    return (Object.keys(known) as (keyof Known)[])
      .filter((k) => k !== kind)
      .flatMap((k) => known[k])
      .find((id) => !known[kind].includes(id));
  return c.edges.length ? written(c.edges[0]) : undefined;
}

/** The class cases of the reads, valid or invalid ones as `valid` asks. */
export async function classReads(ctx: CheckContext, reads: Read[], valid: boolean): Promise<ClassRead[]> {
  const dep = ctx.fixture("deployment").id;
  const known = await knownIds(ctx, dep);
  const own: Record<string, string | undefined> = { deploymentId: dep, workbookId: known.workbook[0] };
  const cases: ClassRead[] = [];
  for (const r of reads) {
    const path = Object.fromEntries(r.params.filter((p) => p.in === "path").map((p) => [p.name, own[p.name] ?? String(NO_OBJECT_ID)]));
    for (const d of INPUT_DOMAINS.filter((x) => x.operation === r.operation && x.at !== "body")) {
      const param = r.params.find((p) => p.name === d.field && p.in === d.at);
      if (!param) continue;
      for (const c of d.classes) {
        // The classes told from stored values and given cursors are the filter and pagination checks' own: they need the list read first.
        const kind = d.field.replace(/Id$/, "") as keyof Known;
        const v = c.byRun === "ids" && kind in known ? idOf(c, kind, known, own[d.field]) : c.byRun ? undefined : c.edges.find((e) => e !== undefined);
        if (v === undefined) continue;
        const value = written(v);
        const invalid = c.ruledOut !== undefined || c.name === "made-up" || c.name === "not-an-id" || !readsValid(param.schema, value);
        if (invalid === valid) continue;
        const req: ReadRequest =
          d.at === "path"
            ? { spec: r.spec, template: r.template, path: { ...path, [d.field]: value }, query: {} }
            : { spec: r.spec, template: r.template, path, query: { [d.field]: value } };
        cases.push({ req: invalid ? { ...req, broken: d.field } : req, what: `${d.field} ${c.name} (${JSON.stringify(value)})` });
      }
    }
  }
  return cases;
}

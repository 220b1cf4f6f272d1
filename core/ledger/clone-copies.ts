import type { Api } from "../transport/api.js";
import { parseTimestamp, secondsBetween } from "../api/timestamps.js";
import { carriesPrefix, createdSince, type ItemRef, listAll, namesOf, NOT_CONFIRMED, removalCurl, workspacePaths } from "./ownership.js";
import { isObject } from "./records.js";

/**
 * The reports a clone brought with it. E10 rule 1 copies the source's reports into the clone
 * under the source's names (no prefix of the run's), and a server need not delete them with the
 * clone: left alone they stay behind. A copy is read back, never taken from an answer: a report the
 * clone's dashboard names (rule 2: only copies), which the source does not name, that the server
 * lists in the clone's deployment, created no earlier than the clone was, and linked to no other
 * workbook where it shows a link. Anything named that fails one of these is reported, not removed.
 */

/** A clone of the run's own, as E9 read it when the ledger confirmed it. */
export interface ConfirmedClone {
  id: number;
  /** The clone's record (E9). */
  record: any;
  /** The workbook it was cloned from (the request's path). */
  source: number;
  /** The server's clock when it answered the clone (its Date header, ms). */
  since?: number;
}

/** The check's prefix, and how every name the tool gives reads (any run's, any check's). */
export interface Prefixes {
  check: string;
  tool: RegExp;
}

export interface CloneCopies {
  /** Copies confirmed as the run's, by the clone that made each. */
  own: { ref: ItemRef; clone: ConfirmedClone; name: string }[];
  /** Reports a clone names that the read-back did not confirm as copies it made. */
  unconfirmed: { ref: ItemRef; clone: ConfirmedClone; shown: string }[];
}

/** An id a leaf spells: a safe integer, or a string of digits. */
function idOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  if (typeof v === "string" && /^\d{1,15}$/.test(v)) return Number(v);
  return undefined;
}

/** Every id a leaf under `v` spells. */
function leafIds(v: unknown, out: Set<number>): void {
  if (Array.isArray(v)) v.forEach((x) => leafIds(x, out));
  else if (isObject(v)) Object.values(v).forEach((x) => leafIds(x, out));
  else if (idOf(v) !== undefined) out.add(idOf(v)!);
}

/**
 * The ids a workbook's dashboards may name a report by (where a widget keeps its report is not
 * shown): every id in its widgets' configs, draft and published (wherever the draft is kept), and
 * its published snapshots' reportId. Layout and the workbook's own fields are left out.
 */
export function dashboardIds(workbook: any): Set<number> {
  const out = new Set<number>();
  const dashboards = [workbook?.dashboardDraft, workbook?.meta?.dashboardDraft, workbook?.dashboardPublished, workbook?.publishedDashboard?.config];
  for (const d of dashboards) for (const w of isObject(d) && Array.isArray(d.widgets) ? d.widgets : []) leafIds(isObject(w) ? w.config : undefined, out);
  for (const s of Array.isArray(workbook?.publishedDashboard?.reportSnapshots) ? workbook.publishedDashboard.reportSnapshots : [])
    if (idOf(s?.reportId) !== undefined) out.add(idOf(s.reportId)!);
  return out;
}

/** The workbook a report shows it belongs to, where it shows one (its fields are not shown). */
const linkOf = (report: any) => idOf(report?.workbookId ?? report?.meta?.workbookId);

/** The reports of a deployment, from every list that shows them: the reports list (E14) and E8's REPORT entries. */
async function reportsOf(api: Api, dep: string): Promise<Map<number, any>> {
  const listed = [
    ...(await listAll(api, workspacePaths.reports(dep))),
    ...(await listAll(api, workspacePaths.workbooks(dep))).filter((i) => i?.type === "REPORT"),
  ];
  return new Map(listed.filter((r) => Number.isSafeInteger(r?.id)).map((r) => [r.id, r]));
}

/**
 * The copies `clones` made, read back in deployment `dep`. `prefixes` are the check's own and the
 * tool's: a report named with the tool's but not the check's is another check's. Lists are read
 * only where a clone names something its source does not.
 */
export async function cloneCopies(api: Api, dep: string, clones: ConfirmedClone[], prefixes: Prefixes): Promise<CloneCopies> {
  const named: { clone: ConfirmedClone; ids: number[] }[] = [];
  for (const clone of clones) {
    const ids = dashboardIds(clone.record);
    if (!ids.size) continue;
    const source = await api.get(workspacePaths.workbook(dep, clone.source)).catch(() => undefined);
    const sourceIds = source?.status === 200 && source.isJson ? dashboardIds(source.body) : new Set<number>();
    named.push({ clone, ids: [...ids].filter((id) => !sourceIds.has(id) && id !== clone.id && id !== clone.source) });
  }
  const out: CloneCopies = { own: [], unconfirmed: [] };
  if (!named.some((n) => n.ids.length)) return out;
  let reports: Map<number, any>;
  try {
    reports = await reportsOf(api, dep);
  } catch (err) {
    for (const { clone, ids } of named)
      for (const id of ids) out.unconfirmed.push({ ref: { type: "REPORT", id }, clone, shown: `the reports could not be read: ${(err as Error).message}` });
    return out;
  }
  for (const { clone, ids } of named) {
    // An id the lists do not hold is no report (a number in a widget's settings), or one already gone.
    for (const id of ids.filter((i) => reports.has(i))) {
      const r = reports.get(id);
      const ref: ItemRef = { type: "REPORT", id };
      const why = whyNotACopy(r, clone, dep, prefixes);
      if (why) out.unconfirmed.push({ ref, clone, shown: why });
      else out.own.push({ ref, clone, name: namesOf(r)[0] ?? "" });
    }
  }
  return out;
}

/** The report's lines for the reports clones named that the read-back did not confirm; `madeBy` says how a clone came to be the run's. */
export function unconfirmedCopies(baseUrl: string, dep: string, copies: CloneCopies, madeBy: (cloneId: number) => string): string[] {
  return copies.unconfirmed.map(
    (c) =>
      `${NOT_CONFIRMED}: REPORT ${c.ref.id} in deployment ${dep}, named by clone ${c.clone.id} (${madeBy(c.clone.id)}) but not shown as its copy (${c.shown}); to remove it: ${removalCurl(baseUrl, dep, [c.ref])}`,
  );
}

/** Why a report a clone names is not shown as its copy; undefined when it is. */
function whyNotACopy(r: any, clone: ConfirmedClone, dep: string, prefixes: Prefixes): string | undefined {
  if (r?.deploymentId != null && String(r.deploymentId) !== dep) return `listed in deployment ${r.deploymentId}`;
  const link = linkOf(r);
  if (link !== undefined && link !== clone.id) return `it shows workbook ${link} as its own, not the clone ${clone.id}`;
  if (carriesPrefix(r, prefixes.tool) && !carriesPrefix(r, prefixes.check)) return `named ${JSON.stringify(namesOf(r)[0])}, another check's`;
  if (clone.since === undefined) return "the clone's answer carried no Date to compare its createdAt with";
  if (!createdSince(r?.createdAt, clone.since) || notBeforeClone(r, clone.record) === false)
    return `created ${r?.createdAt ?? "(not shown)"}, before the clone (created ${clone.record?.createdAt ?? "(not shown)"})`;
  return undefined;
}

/**
 * Whether a report was created no earlier than the clone, by the server's clock as both records
 * show it (to the second; to the day where one shows a date only): this holds where the server's
 * times name no zone, which the Date header cannot be compared with. Undefined where they do not compare.
 */
function notBeforeClone(report: any, clone: any): boolean | undefined {
  const [r, c] = [parseTimestamp(report?.createdAt), parseTimestamp(clone?.createdAt)];
  const seconds = r && c ? secondsBetween(c, r) : undefined;
  if (seconds === undefined) return undefined;
  return r!.dateOnly || c!.dateOnly ? Math.floor(r!.ms / 86_400_000) >= Math.floor(c!.ms / 86_400_000) : seconds >= -1;
}

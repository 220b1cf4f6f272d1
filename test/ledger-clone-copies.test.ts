import { describe, expect, it } from "vitest";
import type { Api } from "../core/transport/api.js";
import { cloneCopies, type ConfirmedClone } from "../core/ledger/clone-copies.js";
import { workspacePaths } from "../core/ledger/ownership.js";
import { TOOL_NAME } from "../core/model/names.js";

/**
 * The reports a clone brought (E10 rule 1) are removed only when the read-back shows each is a copy
 * the clone made (issue 19): named by the clone's dashboard and not by its source, listed in the
 * deployment, created no earlier than the clone, linked to no other workbook, named by no other check.
 */

const SINCE = Date.parse("2026-06-01T12:00:00Z");
const NEW = "2026-06-01T12:00:04Z";
const OLD = "2026-05-01T00:00:00Z";
const dashboard = (...reportIds: number[]) => ({
  widgets: reportIds.map((reportId, i) => ({ id: `w${i}`, type: "REPORT", layout: { x: 0, y: i, w: 6, h: 4 }, config: { reportId } })),
});

/** A server that answers reads from fixed records: E9 of the source, E8 and the reports list. */
function serverWith(source: any, reports: any[]): Api {
  const dep = "1";
  const answers: Record<string, any> = {
    [workspacePaths.workbook(dep, source.id)]: source,
    [workspacePaths.workbooks(dep)]: { items: [source] },
    [workspacePaths.reports(dep)]: { items: reports },
  };
  return {
    get: async (path: string) => (path in answers ? { status: 200, isJson: true, body: answers[path] } : { status: 404, isJson: false, body: undefined }),
  } as unknown as Api;
}

const prefixes = { check: "cf-1-abcdef", tool: TOOL_NAME };

describe("copies of reports a clone brought", () => {
  it("a report only the clone names, created since, is the clone's; the source's reports and what fails a read-back are not", async () => {
    const source = { id: 10, name: "Revenue", dashboardDraft: dashboard(1) };
    const reports = [
      { id: 1, name: "Report A", createdAt: OLD, meta: { workbookId: 10 } },
      { id: 21, name: "Report A", createdAt: NEW, meta: { workbookId: 20 } },
      // A public id in which "cf-" happens to show (a random UUID, about 1 in 64): no name of the tool's.
      { id: 27, name: "Report A", createdAt: NEW, publicId: "0e5b17cf-4c3a-4d2e-9f10-2a7b8c9dcf01" },
      { id: 22, name: "Report B", createdAt: OLD },
      { id: 23, name: "Report C", createdAt: NEW, workbookId: 99 },
      { id: 24, name: "cf-1-zzzzzz-report-1", createdAt: NEW },
      { id: 25, name: "Report D", createdAt: NEW, deploymentId: 2 },
      // After the server's Date at the clone, but before the clone as the server's own records show both.
      { id: 26, name: "Report E", createdAt: "2026-06-01T12:00:01Z" },
    ];
    // The clone names its copy 21, the source's report 1 (not rewritten), and four reports no copy of its own.
    const clone: ConfirmedClone = {
      id: 20,
      source: 10,
      since: SINCE,
      record: {
        id: 20,
        name: "Copy of Revenue",
        createdAt: "2026-06-01T12:00:03Z",
        dashboardDraft: dashboard(21, 1, 22, 23, 27),
        publishedDashboard: { config: dashboard(24, 25, 26), reportSnapshots: [{ reportId: 21 }] },
      },
    };
    const found = await cloneCopies(serverWith(source, reports), "1", [clone], prefixes);
    expect(found.own.map((c) => c.ref)).toEqual([
      { type: "REPORT", id: 21 },
      { type: "REPORT", id: 27 },
    ]);
    expect(Object.fromEntries(found.unconfirmed.map((c) => [c.ref.id, c.shown]))).toEqual({
      22: expect.stringMatching(/before the clone/),
      23: expect.stringMatching(/shows workbook 99/),
      24: expect.stringMatching(/another check's/),
      25: expect.stringMatching(/deployment 2/),
      26: expect.stringMatching(/before the clone/),
    });
  });

  it("a clone that names nothing its source does not costs no list read", async () => {
    const source = { id: 10, dashboardDraft: dashboard(1) };
    let reads = 0;
    const api = serverWith(source, []);
    const counting = { get: (path: string, q?: any) => (reads++, api.get(path, q)) } as unknown as Api;
    const found = await cloneCopies(counting, "1", [{ id: 20, source: 10, since: SINCE, record: { id: 20, dashboardDraft: dashboard(1) } }], prefixes);
    expect(found).toEqual({ own: [], unconfirmed: [] });
    expect(reads).toBe(1);
  });

  it("without the server's clock at the clone, nothing is confirmed", async () => {
    const found = await cloneCopies(
      serverWith({ id: 10 }, [{ id: 21, createdAt: NEW }]),
      "1",
      [{ id: 20, source: 10, record: { dashboardDraft: dashboard(21) } }],
      prefixes,
    );
    expect(found.own).toEqual([]);
    expect(found.unconfirmed.map((c) => c.shown)).toEqual([expect.stringMatching(/no Date/)]);
  });
});

// Seed of workspace content: folders 3 deep, workbooks, reports, dashboards with several widget types.
import { randomBytes } from "node:crypto";
import type { Access, Dashboard, Item, ItemType, Snapshot, Store } from "./store.js";

interface Who {
  depA: number;
  depB: number;
  admin: number;
  editor: number;
  dev: number;
  reader: number;
}

export function publicId(): string {
  return randomBytes(8).toString("hex");
}

export function newItem(s: Store, fields: Partial<Item> & { deploymentId: number; type: ItemType; name: string }): Item {
  const at = fields.createdAt ?? new Date().toISOString();
  const item: Item = {
    id: s.ids.item.take(),
    meta: {},
    calculatedFields: {},
    createdAt: at,
    updatedAt: fields.updatedAt ?? at,
    workspace: "main",
    policies: {},
    favoriteOf: [],
    viewHistory: [],
    embedAccess: { all: "none", tenants: {} },
    ...fields,
  };
  s.items.set(item.id, item);
  return item;
}

export function newDashboard(s: Store, wb: Item, config: Record<string, unknown>, reports: Item[], allowEmbed: boolean, createdBy?: number): Dashboard {
  const snaps: Snapshot[] = reports.map((r, i) => ({
    id: s.ids.snapshot.take(),
    reportId: r.id,
    versionNumber: 1,
    kind: r.report?.kind,
    name: r.name,
    title: r.report?.title,
    sqlQuery: r.report?.sqlQuery,
    spec: r.report?.spec,
    isSourceReport: i === 0,
  }));
  const d: Dashboard = {
    id: s.ids.dashboard.take(),
    publicId: publicId(),
    deploymentId: wb.deploymentId,
    workbookId: wb.id,
    status: "published",
    allowEmbed,
    config,
    versionNumber: 1,
    versionId: s.ids.version.take(),
    reportSnapshots: snaps,
    createdBy,
    title: typeof config["title"] === "string" ? config["title"] : undefined,
  };
  s.dashboards.set(d.id, d);
  wb.dashboardId = d.id;
  return d;
}

const pos = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });

function widgets(reports: Item[], tabsLegacy: boolean): unknown[] {
  const ws: unknown[] = reports.map((r, i) => ({
    id: `chart-${r.id}`,
    type: "CHART",
    position: pos((i % 2) * 6, Math.floor(i / 2) * 4, 6, 4),
    config: { reportId: r.id },
  }));
  ws.push({ id: "title-text", type: "TEXT", position: pos(0, 8, 12, 1), config: { markdown: "## Notes" }, style: { background: "#fafafa" } });
  ws.push({ id: "date-filter", type: "FILTER", position: pos(0, 9, 4, 1), config: { member: "orders.created_at", operator: "inDateRange" } });
  ws.push({ id: "grain", type: "TIME_GRAIN", position: pos(4, 9, 2, 1), responsiveLayouts: { lg: pos(4, 9, 2, 1), sm: null } });
  ws.push({ id: "divider-1", type: "DIVIDER", position: pos(0, 10, 12, 1) });
  ws.push(
    tabsLegacy
      ? { id: "legacy-tabs", type: "TABS_CONTAINER", position: pos(0, 11, 12, 6), config: { tabs: [{ title: "Summary" }, { title: "Detail" }] } }
      : { id: "tabs", type: "CONTAINER", position: pos(0, 11, 12, 6), config: { layout: "tabs", tabs: [{ title: "Overview" }] } },
  );
  ws.push({ id: "ask-ai", type: "AI", position: pos(0, 17, 12, 3), config: null, style: null });
  return ws;
}

function config(title: string, reports: Item[], tabsLegacy = false): Record<string, unknown> {
  return {
    kind: "CLASSIC",
    title,
    description: `${title} dashboard`,
    widgets: widgets(reports, tabsLegacy),
    layout: {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
      containerPadding: [8, 8],
      margin: [10, 10],
      rowHeight: 40,
    },
    settings: { autoRefresh: false },
    theme: { palette: "ocean" },
  };
}

export function seedWorkspace(s: Store, w: Who): void {
  const A = w.depA;
  const folder = (name: string, parent: Item | undefined, policies: Record<string, Access>, at: string, position: number): Item =>
    newItem(s, { deploymentId: A, type: "FOLDER", name, folderId: parent?.id, policies, createdAt: at, createdBy: w.admin, ownerId: w.admin, position });
  const finance = folder("Finance", undefined, { "*": "read", [String(w.editor)]: "edit" }, "2024-03-12T09:00:00.000Z", 0);
  const quarterly = folder("Quarterly", finance, {}, "2024-03-12T09:05:00.000Z", 0);
  const archive = folder("Archive 2023", quarterly, {}, "2024-03-12T09:10:00.000Z", 1);
  const marketing = folder("Marketing", undefined, { "*": "edit" }, "2024-03-13T09:00:00.000Z", 1);
  const campaigns = folder("Campaigns", marketing, {}, "2024-03-13T09:05:00.000Z", 0);
  const hr = folder("Restricted HR", undefined, { "*": "none" }, "2024-03-14T09:00:00.000Z", 2);
  const sandbox = folder("Team Sandbox", undefined, { "*": "edit" }, "2024-03-15T09:00:00.000Z", 3);

  const workbook = (name: string, f: Item | undefined, ownerId: number, at: string, slug?: string): Item =>
    newItem(s, {
      deploymentId: A,
      type: "WORKBOOK",
      name,
      folderId: f?.id,
      ownerId,
      createdBy: ownerId,
      createdAt: at,
      slug,
      meta: { description: `${name} workbook`, tags: ["seed"] },
    });
  const report = (wb: Item, name: string, kind: string, at: string, viewed?: string): Item =>
    newItem(s, {
      deploymentId: A,
      type: "REPORT",
      name,
      folderId: wb.folderId,
      workbookId: wb.id,
      ownerId: wb.ownerId,
      createdBy: wb.ownerId,
      createdAt: at,
      publicId: publicId(),
      lastViewedAt: viewed,
      meta: { chartType: kind },
      report: {
        kind,
        title: name,
        sqlQuery: `SELECT status, SUM(amount) FROM orders GROUP BY 1 -- ${name}`,
        spec: kind === "vega" ? { mark: "bar" } : undefined,
      },
    });

  const revenue = workbook("Revenue Overview", undefined, w.admin, "2024-04-01T10:00:00.000Z", "revenue-overview");
  const r1 = report(revenue, "Monthly Revenue", "vega", "2024-04-01T10:05:00.000Z", "2025-01-05T10:00:00.000Z");
  const r2 = report(revenue, "Revenue by Status", "table", "2024-04-01T10:06:00.000Z", "2025-01-02T10:00:00.000Z");
  revenue.dashboardDraft = config("Revenue Overview (draft)", [r1, r2]);
  newDashboard(s, revenue, config("Revenue Overview", [r1, r2]), [r1, r2], true, w.admin);
  revenue.favoriteOf.push(w.admin);
  revenue.embedAccess = { all: "read", tenants: { northwind: "read" } };

  const close = workbook("Quarterly Close", quarterly, w.editor, "2024-04-10T10:00:00.000Z", "quarterly-close");
  const r3 = report(close, "Close Checklist KPI", "kpi", "2024-04-10T10:05:00.000Z");
  const r4 = report(close, "Accruals Map", "map", "2024-04-10T10:06:00.000Z", "2024-12-20T10:00:00.000Z");
  newDashboard(s, close, config("Quarterly Close", [r3, r4], true), [r3, r4], false, w.editor);

  const retro = workbook("2023 Retrospective", archive, w.admin, "2024-02-01", undefined);
  retro.updatedAt = "2024-02-02";
  report(retro, "Year in Review", "html", "2024-02-01T10:05:00.000Z");

  const camp = workbook("Campaign Performance", campaigns, w.editor, "2024-05-01T10:00:00.000Z", "campaign-performance");
  const r6 = report(camp, "Spend vs Signups", "vega", "2024-05-01T10:05:00.000Z", "2025-01-04T10:00:00.000Z");
  const r7 = report(camp, "Channel Table", "table", "2024-05-01T10:06:00.000Z");
  newDashboard(s, camp, config("Campaign Performance", [r6, r7]), [r6, r7], true, w.editor);
  camp.dashboardDraft = config("Campaign Performance", [r6, r7], true);

  const head = workbook("Headcount Plan", hr, w.admin, "2024-05-10T10:00:00.000Z");
  report(head, "Headcount by Team", "table", "2024-05-10T10:05:00.000Z");
  workbook("Sandbox Scratch", sandbox, w.editor, "2024-06-01T10:00:00.000Z");
  workbook("Pipeline Forecast", finance, w.admin, "2024-06-15T10:00:00.000Z", "pipeline-forecast");
  const churn = workbook("Churn Analysis", undefined, w.dev, "2024-07-01T10:00:00.000Z");
  churn.favoriteOf.push(w.admin, w.dev);

  // Shared workspace (creator-mode embed clones resolve here).
  const shared = newItem(s, {
    deploymentId: A,
    type: "WORKBOOK",
    name: "Shared KPI Board",
    workspace: "shared",
    createdAt: "2024-08-01T10:00:00.000Z",
    createdBy: w.admin,
    ownerId: w.admin,
  });
  const sr1 = newItem(s, {
    deploymentId: A,
    type: "REPORT",
    name: "Shared Revenue KPI",
    workspace: "shared",
    workbookId: shared.id,
    createdAt: "2024-08-01T10:01:00.000Z",
    publicId: publicId(),
    report: { kind: "kpi", title: "Revenue KPI", sqlQuery: "SELECT SUM(amount) FROM orders" },
  });
  const sr2 = newItem(s, {
    deploymentId: A,
    type: "REPORT",
    name: "Shared Orders Trend",
    workspace: "shared",
    workbookId: shared.id,
    createdAt: "2024-08-01T10:02:00.000Z",
    publicId: publicId(),
    report: { kind: "vega", title: "Orders trend", sqlQuery: "SELECT 1", spec: { mark: "line" } },
  });
  newDashboard(s, shared, config("Shared KPI Board", [sr1, sr2]), [sr1, sr2], true, w.admin);
  newItem(s, {
    deploymentId: A,
    type: "WORKBOOK",
    name: "Shared Draft Only",
    workspace: "shared",
    createdAt: "2024-08-02T10:00:00.000Z",
    createdBy: w.admin,
    ownerId: w.admin,
  });

  // Deployment B: small workspace at its plan's workbook limit.
  const B = w.depB;
  const bf = newItem(s, {
    deploymentId: B,
    type: "FOLDER",
    name: "Experiments",
    createdAt: "2024-06-05T10:00:00.000Z",
    createdBy: w.admin,
    ownerId: w.admin,
    position: 0,
  });
  const b1 = newItem(s, {
    deploymentId: B,
    type: "WORKBOOK",
    name: "BigQuery Smoke Test",
    folderId: bf.id,
    createdAt: "2024-06-06T10:00:00.000Z",
    createdBy: w.admin,
    ownerId: w.admin,
    slug: "bq-smoke",
  });
  newItem(s, {
    deploymentId: B,
    type: "REPORT",
    name: "Row Counts",
    folderId: bf.id,
    workbookId: b1.id,
    createdAt: "2024-06-06T10:01:00.000Z",
    publicId: publicId(),
    ownerId: w.admin,
    report: { kind: "table" },
  });
  newItem(s, { deploymentId: B, type: "WORKBOOK", name: "Latency Review", createdAt: "2024-06-07T10:00:00.000Z", createdBy: w.admin, ownerId: w.admin });
}

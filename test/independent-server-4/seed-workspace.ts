import type { Dashboard, DashboardConfig, Item, ItemType, Policy } from "./types.js";
import type { Store } from "./store.js";
import { iso, seededUuid } from "./util.js";

export const MAIN = "main";
export const embedWorkspace = (tenantId: string): string => `embed:${tenantId}`;

export function seedWorkspace(s: Store): void {
  let t = Date.UTC(2026, 8, 1, 9, 0, 0, 111);
  const at = (): string => iso((t += 3_600_000 + 17));
  const mk = (id: number, type: ItemType, name: string, folderId: number | null, extra: Partial<Item> = {}): Item => {
    const created = at();
    const item: Item = {
      id,
      deploymentId: 101,
      workspace: MAIN,
      type,
      name,
      meta: {},
      calculatedFields: {},
      createdAt: created,
      updatedAt: created,
      createdBy: 1,
      ownerId: 1,
      folderId,
      slug: null,
      dashboardDraft: null,
      publishedDashboardId: null,
      policies: [],
      ...extra,
    };
    if (type === "REPORT") {
      item.workbookId ??= null;
      item.publicId ??= seededUuid(`report-${id}`);
      item.kind ??= "vega";
      item.sqlQuery ??= "SELECT 1";
      item.lastViewedAt ??= null;
      item.placements ??= [];
    }
    s.items.set(id, item);
    return item;
  };
  const restricted: Policy[] = [
    { userId: 4, action: "none" },
    { userId: 3, action: "read" },
    { groupId: 2, action: "edit" },
  ];
  // Folders: three levels under "Company", plus a restricted and a team folder.
  mk(1, "FOLDER", "Company", null);
  mk(2, "FOLDER", "Sales", 1);
  mk(3, "FOLDER", "EMEA", 2);
  mk(4, "FOLDER", "Finance (restricted)", null, { policies: restricted });
  mk(5, "FOLDER", "Team Sandbox", null, {
    policies: [
      { userId: 3, action: "edit" },
      { groupId: 1, action: "edit" },
    ],
  });
  mk(6, "FOLDER", "Archive", 1, { policies: [{ userId: 3, action: "none" }] });
  // Workbooks.
  mk(10, "WORKBOOK", "Revenue Overview", 3, {
    slug: "revenue-overview",
    meta: { color: "blue", tags: ["kpi"] },
    calculatedFields: { margin: { sql: "revenue - cost", type: "number" } },
  });
  mk(11, "WORKBOOK", "Pipeline", 2, { slug: "pipeline", createdBy: 2, ownerId: 2 });
  mk(12, "WORKBOOK", "Budget 2026", 4, { meta: { fiscalYear: 2026 } });
  mk(13, "WORKBOOK", "Scratchpad", null, { createdBy: 3, ownerId: 3, meta: { draft: true } });
  mk(14, "WORKBOOK", "Team KPIs", 5, { createdBy: 2, ownerId: 2 });
  mk(15, "WORKBOOK", "Old Board", 6);
  mk(16, "WORKBOOK", "Company Handbook Metrics", 1);
  // Reports.
  mk(20, "REPORT", "Revenue by month", 3, { workbookId: 10, kind: "vega", sqlQuery: "SELECT month, sum(amount) FROM orders GROUP BY 1" });
  mk(21, "REPORT", "Top accounts", 3, { workbookId: 10, kind: "table", sqlQuery: "SELECT account, revenue FROM accounts LIMIT 10" });
  mk(22, "REPORT", "Pipeline funnel", 2, { workbookId: 11, kind: "vega", createdBy: 2, ownerId: 2 });
  mk(23, "REPORT", "Budget vs actual", 4, { workbookId: 12, kind: "table" });
  mk(24, "REPORT", "Active users KPI", null, { kind: "kpi", createdBy: 3, ownerId: 3 });
  mk(25, "REPORT", "Python cohort", 5, { workbookId: 14, kind: "html", sqlQuery: null });
  // Sandbox deployment (workbook limit 3, reached).
  for (const [id, name] of [
    [30, "Sandbox A"],
    [31, "Sandbox B"],
    [32, "Sandbox C"],
  ] as const) {
    const wb = mk(id, "WORKBOOK", name, null);
    wb.deploymentId = 102;
  }
  // Creator-mode embed workspace of tenant "Globex".
  const globex = seededUuid("tenant-globex");
  const ew = mk(40, "WORKBOOK", "Globex scratch", null, { createdBy: 5, ownerId: 5 });
  ew.workspace = embedWorkspace(globex);

  const widgets = (r1: number, r2: number): Array<Record<string, unknown>> => [
    { id: "w-title", type: "TEXT", position: { x: 0, y: 0, w: 12, h: 1 }, config: { text: "# Revenue" }, style: null },
    {
      id: "w-chart",
      type: "CHART",
      position: { x: 0, y: 1, w: 6, h: 4 },
      config: { reportId: r1 },
      style: null,
      responsiveLayouts: { lg: { x: 0, y: 1, w: 6, h: 4 }, md: null, sm: { x: 0, y: 1, w: 4, h: 4 }, xs: null, xxs: null },
    },
    { id: "w-table", type: "CHART", position: { x: 6, y: 1, w: 6, h: 4 }, config: { reportId: r2 }, style: null },
    { id: "w-tabs", type: "CONTAINER", position: { x: 0, y: 5, w: 12, h: 4 }, config: { layout: "tabs", tabs: ["A", "B"] } },
    { id: "w-filter", type: "FILTER", position: { x: 0, y: 9, w: 3, h: 1 }, config: { member: "orders.created_at" } },
  ];
  const config: DashboardConfig = {
    kind: "CLASSIC",
    title: "Revenue Overview",
    description: "Monthly revenue and top accounts",
    widgets: widgets(20, 21),
    layout: {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
      containerPadding: [10, 10],
      margin: [10, 10],
      rowHeight: 60,
    },
    settings: { autoRefresh: false },
    theme: { palette: "default" },
    app: null,
  };
  const wb10 = s.items.get(10)!;
  wb10.dashboardDraft = { ...structuredClone(config), title: "Revenue Overview (draft)" };
  const dash: Dashboard = {
    id: 500,
    publicId: seededUuid("dashboard-500"),
    deploymentId: 101,
    workbookId: 10,
    status: "published",
    allowEmbed: true,
    config,
    versionNumber: 3,
    versionId: 9003,
    createdBy: 1,
    title: "Revenue Overview",
    description: "Monthly revenue and top accounts",
    fromSharedWorkspace: false,
    restrictDataDownload: false,
    useBoardDashboards: null,
    embedAccess: [{ embedTenantId: null, action: "read" }],
    reportSnapshots: [
      {
        id: 800,
        reportId: 20,
        versionNumber: 3,
        kind: "vega",
        name: "Revenue by month",
        title: "Revenue by month",
        description: null,
        sqlQuery: "SELECT month, sum(amount) FROM orders GROUP BY 1",
        pythonCode: null,
        spec: { mark: "bar" },
        meta: { currency: "USD" },
        isSourceReport: true,
        fillMissingRows: { member: "orders.month", excludedDimensions: null },
        periodComparisons: [{ measure: "orders.amount", timeDimension: "orders.created_at", offset: { amount: 1, unit: "year" }, outputs: ["delta"] }],
        preferences: { columnFormats: { amount: { type: "currency", decimalPlaces: 2 } } },
      },
      {
        id: 801,
        reportId: 21,
        versionNumber: 3,
        kind: "table",
        name: "Top accounts",
        title: "Top accounts",
        description: "Top 10",
        sqlQuery: "SELECT account, revenue FROM accounts LIMIT 10",
        pythonCode: null,
        spec: null,
        meta: null,
        isSourceReport: true,
        fillMissingRows: null,
        periodComparisons: null,
        preferences: { columnFormats: { revenue: { type: "number", decimalPlaces: null } } },
      },
    ],
  };
  s.dashboards.set(dash.id, dash);
  wb10.publishedDashboardId = dash.id;
  // A draft-only dashboard (never published) on "Pipeline".
  s.items.get(11)!.dashboardDraft = {
    kind: "APP",
    title: "Pipeline app",
    widgets: [],
    app: { entry: "index.html", files: { "index.html": '<div id="root"></div>' }, html: null, manifest: { dependencies: { react: "18.3.1" }, version: 1 } },
  };
  s.favorites.add("1:10");
  s.favorites.add("3:13");
  s.viewHistory.set("1:10", iso(Date.UTC(2026, 10, 25, 12, 0, 0, 1)));
}

import { type Item, newItem, type Store } from "../store.js";
import { dashboardConfig, publishDashboard } from "./dashboards.js";
import { day } from "./day.js";
import type { SeedShape } from "./shapes.js";

const RICH_WORKBOOKS = 100;
/** The folders and workbooks (with their reports and dashboards) of every deployment, and the ids of those the suite is told as fixtures. */
export function seedWorkspace(store: Store, shape: SeedShape) {
  const alice = 1;
  const folder = (deploymentId: number, name: string, folderId: number | null) =>
    newItem(store, { deploymentId, type: "FOLDER", name, folderId, createdBy: alice, createdAt: day(-200), updatedAt: day(-200) });
  const ids = { readOnlyFolder: 0, editableFolder: 0, sharedWorkbook: 0, sharedUnpublishedWorkbook: 0 };
  const [main, second] = shape.deployments.map((d) => d.id);
  for (const [index, { id: dep }] of shape.deployments.entries()) {
    const finance = folder(dep, "Finance", null);
    const quarterly = folder(dep, "Quarterly", finance.id);
    const archive = folder(dep, "Archive", quarterly.id);
    const sales = folder(dep, "Sales", null);
    const regions = folder(dep, "Regions", sales.id);
    const emea = folder(dep, "EMEA", regions.id);
    const places =
      dep === main ? [null, finance.id, quarterly.id, archive.id, sales.id, regions.id, emea.id] : dep === second ? [null, sales.id] : [null, finance.id];
    for (let i = 0; i < shape.workbooks[index]; i++) {
      const folderId = places[i % places.length];
      // Past the first hundred, a huge tenant's workbooks are plain ones: no reports, no dashboard.
      if (i >= RICH_WORKBOOKS) {
        newItem(store, {
          deploymentId: dep,
          type: "WORKBOOK",
          name: `Bulk workbook ${i + 1}`,
          folderId,
          createdBy: alice,
          createdAt: day(-150).slice(0, 10),
          updatedAt: day(-150),
          meta: { theme: "light" },
        });
        continue;
      }
      const published = dep === main && i % 3 === 0;
      workbookWithReports(store, {
        deploymentId: dep,
        name: `${dep === main ? "Revenue" : "Pipeline"} review ${i + 1}`,
        folderId,
        published,
        allowEmbed: i === 0,
        createdBy: alice,
        when: day(-150 + i),
        reports: 1 + (i % 3),
        // Some workbooks have no calculated field: an empty object is a shape of its own on every read path.
        calculated: i % 3 !== 2,
      });
    }
    if (dep === main) {
      // Victor (the read-only token) may read Finance but edit nothing there; Sales is his to edit.
      sales.grants.set(2, "edit");
      // Vera (below AI BI User) may not read Finance: what she is listed, and counted, is less than the deployment holds.
      finance.grants.set(5, "none");
      ids.readOnlyFolder = finance.id;
      ids.editableFolder = sales.id;
      const shared = workbookWithReports(store, {
        deploymentId: dep,
        name: "Shared KPIs",
        folderId: null,
        published: true,
        allowEmbed: true,
        createdBy: alice,
        when: day(-20),
        reports: 2,
      });
      shared.sharedWorkspace = true;
      // A draft edited since the last publish: a shared clone is seeded from the published config, not from it (E10 rule 6).
      shared.dashboardDraft = { ...shared.dashboardDraft, title: "Shared KPIs (draft)" };
      ids.sharedWorkbook = shared.id;
      const draftOnly = workbookWithReports(store, {
        deploymentId: dep,
        name: "Shared drafts",
        folderId: null,
        published: false,
        allowEmbed: false,
        createdBy: alice,
        when: day(-19),
        reports: 1,
      });
      draftOnly.sharedWorkspace = true;
      ids.sharedUnpublishedWorkbook = draftOnly.id;
    }
  }
  return ids;
}

const KINDS = ["vega", "table", "kpi", "html", "map"];

function workbookWithReports(
  store: Store,
  o: {
    deploymentId: number;
    name: string;
    folderId: number | null;
    published: boolean;
    allowEmbed: boolean;
    createdBy: number;
    when: string;
    reports: number;
    calculated?: boolean;
  },
): Item {
  const wb = newItem(store, {
    deploymentId: o.deploymentId,
    type: "WORKBOOK",
    name: o.name,
    folderId: o.folderId,
    createdBy: o.createdBy,
    createdAt: o.when.slice(0, 10),
    updatedAt: o.when,
    meta: { theme: "light", owner: { team: "analytics" } },
    calculatedFields: o.calculated === false ? {} : { margin: "revenue - cost" },
    viewHistory: [1, 2],
    policies: [{ principal: "group:finance", action: "DownloadData" }],
  });
  const reports = Array.from({ length: o.reports }, (_, i) =>
    newItem(store, {
      deploymentId: o.deploymentId,
      type: "REPORT",
      name: `${o.name} / chart ${i + 1}`,
      folderId: o.folderId,
      createdBy: o.createdBy,
      createdAt: o.when,
      updatedAt: o.when,
      workbookId: wb.id,
      report: { kind: KINDS[(wb.id + i) % KINDS.length], sqlQuery: `select * from orders limit ${i + 1}`, title: `Chart ${i + 1}` },
    }),
  );
  const config = dashboardConfig(
    o.name,
    reports.map((r) => r.id),
  );
  wb.dashboardDraft = config;
  if (o.published) wb.publishedDashboard = publishDashboard(store, wb, reports, config, o.allowEmbed);
  return wb;
}

import type { Item, Store } from "../store.js";

/** The dashboards of the seed's workbooks: a draft's config naming its reports, and its published copy with one snapshot per report. */

export function dashboardConfig(title: string, reportIds: number[]): any {
  return {
    kind: "CLASSIC",
    title,
    description: null,
    widgets: [
      { id: "w-title", type: "TEXT", position: { x: 0, y: 0, w: 12, h: 1 }, config: { text: title }, style: null },
      ...reportIds.map((reportId, i) => ({
        id: `w-chart-${i}`,
        type: "CHART",
        position: { x: (i % 2) * 6, y: 1 + Math.floor(i / 2) * 4, w: 6, h: 4 },
        config: { reportId },
        style: null,
      })),
      {
        id: "w-tabs",
        type: "CONTAINER",
        position: { x: 0, y: 20, w: 12, h: 6 },
        config: { layout: "tabs", tabs: [{ title: "More", widgetIds: [] }] },
        responsiveLayouts: { lg: null, md: { x: 0, y: 20, w: 10, h: 6 }, sm: null, xs: null, xxs: null },
      },
    ],
    layout: {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
      containerPadding: [10, 10],
      margin: [10, 10],
      rowHeight: 30,
    },
    settings: {},
    theme: null,
    app: null,
  };
}

export function publishDashboard(store: Store, wb: Item, reports: Item[], config: any, allowEmbed: boolean): any {
  const id = store.nextDashboardId++;
  return {
    id,
    publicId: `pub-${wb.deploymentId}-${id}-${wb.id}`,
    deploymentId: wb.deploymentId,
    workbookId: wb.id,
    status: "published",
    allowEmbed,
    config: structuredClone(config),
    versionNumber: 1,
    versionId: id * 10,
    createdBy: wb.createdBy,
    title: config.title ?? null,
    description: null,
    fromSharedWorkspace: false,
    restrictDataDownload: false,
    useBoardDashboards: null,
    reportSnapshots: reports.map((r, i) => ({
      id: id * 100 + i,
      reportId: r.id,
      versionNumber: 1,
      kind: r.report?.kind ?? null,
      name: r.name,
      title: r.report?.title ?? null,
      description: null,
      sqlQuery: r.report?.sqlQuery ?? null,
      // The last report of each dashboard is a Python one (E14 runs a dashboard's Python report): not the first, which a suite might take blindly.
      pythonCode: i === reports.length - 1 ? "result = df.groupby('region').sum()" : null,
      spec: null,
      meta: null,
      isSourceReport: true,
      fillMissingRows: null,
      periodComparisons: null,
      preferences: null,
    })),
  };
}

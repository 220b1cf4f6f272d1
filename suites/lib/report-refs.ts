/**
 * Report references of a dashboard (E10 rule 2): every `reportId` under a config (widget configs at
 * any depth) and the snapshots of a published dashboard. Where a server keeps them inside a widget
 * is not shown, so the whole config is searched.
 */

/** Every numeric `reportId` found under `value`, in document order. */
export function reportIdsIn(value: unknown): number[] {
  const out: number[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        if (k === "reportId" && typeof x === "number") out.push(x);
        else walk(x);
      }
  };
  walk(value);
  return out;
}

/** A published dashboard's references: its snapshots' report ids and those of its config. */
export function dashboardReportIds(dashboard: any): number[] {
  const snapshots: any[] = Array.isArray(dashboard?.reportSnapshots) ? dashboard.reportSnapshots : [];
  return [...snapshots.map((s) => s?.reportId).filter((id): id is number => typeof id === "number"), ...reportIdsIn(dashboard?.config)];
}

/** `value` with every `reportId` replaced by one placeholder: configs equal apart from which reports. */
export function withoutReportIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutReportIds);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, k === "reportId" && typeof x === "number" ? "<report>" : withoutReportIds(x)]));
  return value;
}

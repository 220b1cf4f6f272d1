// In-memory state types and lookup helpers.
import { HttpError } from "./http-util.js";

export type ItemType = "FOLDER" | "WORKBOOK" | "REPORT";
export type BranchKind = "production" | "shared" | "personal";

export interface VersionEntry {
  releaseChannelVersion: string;
  version: string;
  releaseChannel: string;
  isLatestInChannel: boolean;
}

export interface Branch {
  id: number;
  name: string;
  parentBranch: string;
  lastHash: string;
  staging: boolean;
  kind: BranchKind;
  owner: string;
  createdAt: Date;
}

export interface Deployment {
  id: string;
  name: string;
  createdAt: Date;
  cloudProvider: string;
  region: string;
  releaseChannel: string;
  releaseChannelVersion: string;
  releaseChannelVersionHold: boolean;
  template: string;
  templateVariables: Record<string, unknown>;
  defaultLaunchpadViewGroup: string | null;
  launchpadTabs: unknown[];
  creationMethod: string;
  deployMode: string;
  secrets: Record<string, string>;
  envVars: Map<string, string>;
  branches: Branch[];
  versions: VersionEntry[];
  workbookLimit: number;
}

export interface Item {
  id: number;
  deploymentId: number;
  name: string;
  type: ItemType;
  meta: Record<string, unknown>;
  calculatedFields: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  createdBy: number;
  userId: number | null;
  folderId: number | null;
  slug: string | null;
  isFavorite: boolean | null;
  /** REPORT only: owning workbook (null = standalone report). */
  workbookId: number | null;
  report?: ReportBody;
  /** WORKBOOK only: id of the published dashboard. */
  dashboardId: number | null;
}

export interface ReportBody {
  kind: "vega" | "table" | "kpi" | "html" | "map" | null;
  title: string | null;
  description: string | null;
  sqlQuery: string | null;
  pythonCode: string | null;
  spec: unknown;
}

export interface Dashboard {
  id: number;
  publicId: string;
  deploymentId: number;
  workbookId: number;
  status: "draft" | "published" | "archived";
  allowEmbed: boolean;
  config: Record<string, unknown>;
  versionNumber: number;
  versionId: number;
  reportSnapshots: Record<string, unknown>[];
  createdBy: number | null;
  title: string | null;
  description: string | null;
}

export interface AuditRow {
  id: string;
  occurredAt: Date;
  eventName: string;
  userEmail: string;
  userName: string;
  ipAddress: string;
  data: Record<string, unknown>;
}

export interface User {
  id: number;
  email: string;
  firstName: string | null;
  picture: string | null;
}

export interface State {
  deployments: Deployment[];
  items: Map<number, Item>;
  dashboards: Map<number, Dashboard>;
  audit: AuditRow[];
  users: Map<number, User>;
  callerUserId: number;
  seq: { item: number; dashboard: number; version: number; snapshot: number; branch: number; deployment: number };
}

export function findDeployment(st: State, rawId: string): Deployment {
  const d = st.deployments.find((x) => x.id === rawId.trim());
  if (!d) throw new HttpError(404, `deployment ${rawId} not found`);
  return d;
}

export function nextItemId(st: State): number {
  st.seq.item += 7 + (st.seq.item % 3);
  return st.seq.item;
}

export function itemsOf(st: State, depId: number): Item[] {
  return [...st.items.values()].filter((i) => i.deploymentId === depId);
}

export function getItem(st: State, depId: number, rawId: string | number, type?: ItemType): Item {
  const id = typeof rawId === "number" ? rawId : /^\d{1,15}$/.test(rawId) ? Number(rawId) : NaN;
  const it = st.items.get(id);
  if (!it || it.deploymentId !== depId || (type && it.type !== type)) {
    throw new HttpError(404, `${(type ?? "item").toLowerCase()} ${String(rawId)} not found`);
  }
  return it;
}

/** Ids of all folders strictly below the given folder. */
export function descendantIds(st: State, folderId: number): Set<number> {
  const out = new Set<number>();
  const stack = [folderId];
  while (stack.length > 0) {
    const cur = stack.pop() as number;
    for (const it of st.items.values()) {
      if (it.folderId === cur && !out.has(it.id)) {
        out.add(it.id);
        if (it.type === "FOLDER") stack.push(it.id);
      }
    }
  }
  return out;
}

/** Deletes an item and everything it owns (folder contents, workbook reports and dashboard). */
export function deleteItemDeep(st: State, it: Item): void {
  if (it.type === "FOLDER") {
    for (const id of descendantIds(st, it.id)) {
      const child = st.items.get(id);
      if (child) deleteItemDeep(st, child);
    }
  }
  if (it.type === "WORKBOOK") {
    for (const r of [...st.items.values()]) if (r.type === "REPORT" && r.workbookId === it.id) st.items.delete(r.id);
    if (it.dashboardId !== null) st.dashboards.delete(it.dashboardId);
  }
  st.items.delete(it.id);
}

export function isSecretName(name: string): boolean {
  const up = name.toUpperCase();
  return ["PASS", "SECRET", "TOKEN", "KEY", "CREDENTIAL"].some((m) => up.includes(m));
}

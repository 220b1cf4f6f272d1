export type Role = "viewer" | "ai-bi-user" | "developer" | "admin";
export const ROLE_RANK: Record<Role, number> = { viewer: 0, "ai-bi-user": 1, developer: 2, admin: 3 };
export type Access = "none" | "read" | "edit" | "manage";
export const ACCESS_RANK: Record<Access, number> = { none: 0, read: 1, edit: 2, manage: 3 };

export interface User {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  picture: string | null;
  role: Role;
  status: "active" | "inactive";
  groupIds: number[];
  createdAt: string;
}
export interface Group {
  id: number;
  name: string;
  description: string | null;
  createdAt: string;
}
export interface ApiKey {
  key: string;
  userId: number;
  label: string;
  auditFeature: boolean;
  permissions: string[];
  creatorMode: boolean;
  embedTenantId: string | null;
}
export interface Policy {
  userId?: number;
  groupId?: number;
  embedTenantId?: string | null;
  action: Access;
}

export interface Deployment {
  id: number;
  name: string;
  created_at: string;
  cloudProvider: string;
  region: string;
  releaseChannel: string;
  releaseChannelVersion: string;
  releaseChannelVersionHold: boolean;
  template: string | null;
  templateVariables: Record<string, string>;
  defaultLaunchpadViewGroup: string | null;
  launchpadTabs: unknown[];
  creationMethod: string;
  deployMode: string;
  creationStep: number;
  versionHistory: string[];
  workbookLimit: number | null;
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
  devModeBranches: string[];
  githubRepository: string | null;
}
export interface Branch {
  id: number;
  deploymentId: number;
  name: string;
  parentBranch: string;
  lastHash: string;
  kind: "production" | "shared" | "personal";
  ownerUserId: number | null;
  isStagingEnvironmentEnabled: boolean;
  status: "idle" | "building" | "deployed" | "failed";
  updatedAt: string;
}
export interface Version {
  releaseChannelVersion: string;
  version: string;
  releaseChannel: string;
}
export interface EnvVar {
  name: string;
  value: string;
}

export interface DashboardConfig {
  kind?: "CLASSIC" | "APP" | null;
  title?: string | null;
  description?: string | null;
  widgets?: Array<Record<string, unknown>> | null;
  layout?: Record<string, unknown> | null;
  settings?: Record<string, unknown> | null;
  theme?: Record<string, unknown> | null;
  app?: Record<string, unknown> | null;
}
export interface ReportSnapshot {
  id: number;
  reportId: number;
  versionNumber: number;
  [k: string]: unknown;
}
export interface Dashboard {
  id: number;
  publicId: string;
  deploymentId: number;
  workbookId: number;
  status: "draft" | "published" | "archived";
  allowEmbed: boolean;
  config: DashboardConfig;
  versionNumber: number;
  versionId: number;
  reportSnapshots: ReportSnapshot[];
  createdBy: number | null;
  title: string | null;
  description: string | null;
  fromSharedWorkspace: boolean | null;
  restrictDataDownload: boolean | null;
  useBoardDashboards: boolean | null;
  embedAccess: Array<{ embedTenantId: string | null; action: "read" | "none" }>;
}

export type ItemType = "FOLDER" | "WORKBOOK" | "REPORT";
export interface Item {
  id: number;
  deploymentId: number;
  workspace: string;
  type: ItemType;
  name: string;
  meta: Record<string, unknown>;
  calculatedFields: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  createdBy: number;
  ownerId: number;
  folderId: number | null;
  slug: string | null;
  dashboardDraft: DashboardConfig | null;
  publishedDashboardId: number | null;
  policies: Policy[];
  /** REPORT only */
  workbookId?: number | null;
  publicId?: string | null;
  kind?: string | null;
  sqlQuery?: string | null;
  lastViewedAt?: string | null;
  placements?: Placement[];
}
export interface Placement {
  placementId: string;
  externalWorkbookId: string;
  sheetName: string;
  anchorCell: string;
  refreshedAt: string;
}
export interface AuditEvent {
  id: string;
  timestamp: string;
  eventName: string;
  userEmail: string | null;
  userId: number | null;
  ipAddress: string;
  data: Record<string, unknown>;
}
export interface Job {
  id: string;
  [k: string]: unknown;
}

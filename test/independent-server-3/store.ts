// In-memory store: entity types and id allocation. One Store per server instance.
export type Role = "VIEWER" | "AI_BI_USER" | "DEVELOPER" | "ADMIN";
export const ROLE_RANK: Record<Role, number> = { VIEWER: 0, AI_BI_USER: 1, DEVELOPER: 2, ADMIN: 3 };
export const ROLES: readonly Role[] = ["VIEWER", "AI_BI_USER", "DEVELOPER", "ADMIN"];
export type Access = "none" | "read" | "edit" | "manage";
export const ACCESS_RANK: Record<Access, number> = { none: 0, read: 1, edit: 2, manage: 3 };
export type ItemType = "FOLDER" | "WORKBOOK" | "REPORT";
export const ITEM_TYPES: readonly ItemType[] = ["WORKBOOK", "REPORT", "FOLDER"];

export interface User {
  id: number;
  email: string;
  firstName?: string;
  lastName?: string;
  picture?: string;
  role: Role;
  permissions: string[];
  status: "active" | "deactivated";
  createdAt: string;
  embed?: boolean;
}

export interface ApiKey {
  token: string;
  userId: number;
  kind: "api-key" | "embed-session";
  creatorMode?: boolean;
  deploymentScope?: number[];
}

export interface Deployment {
  id: number;
  name: string;
  createdAt: string;
  cloudProvider: string;
  region: string;
  releaseChannel: string;
  version: string;
  releaseChannelVersionHold: boolean;
  template: string;
  templateVariables: Record<string, string>;
  defaultLaunchpadViewGroup?: string;
  launchpadTabs: unknown[];
  creationMethod: string;
  deployMode: string;
  creationStep: number;
  workbookLimit?: number;
  envVars: Map<string, string>;
  pastVersions: string[];
}

export interface DmFile {
  content: string;
  updatedAt: string;
}

export interface Branch {
  id: number;
  deploymentId: number;
  name: string;
  kind: "production" | "shared" | "personal";
  ownerUserId?: number;
  parentBranch?: string;
  lastHash: string;
  staging: boolean;
  createdAt: string;
  files: Map<string, DmFile>;
  buildStatus: "built" | "building" | "failed" | "queued";
}

export interface Item {
  id: number;
  deploymentId: number;
  type: ItemType;
  name: string;
  meta: Record<string, unknown>;
  calculatedFields: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  createdBy?: number;
  ownerId?: number;
  folderId?: number;
  slug?: string;
  workspace: "main" | "shared";
  dashboardDraft?: Record<string, unknown>;
  dashboardId?: number;
  position?: number;
  workbookId?: number;
  publicId?: string;
  lastViewedAt?: string;
  externalWorkbookId?: string;
  policies: Record<string, Access>;
  favoriteOf: number[];
  viewHistory: number[];
  embedAccess: { all: "read" | "none"; tenants: Record<string, "read" | "none"> };
  report?: { kind?: string; sqlQuery?: string; spec?: unknown; title?: string };
}

export interface Snapshot {
  id: number;
  reportId: number;
  versionNumber: number;
  kind?: string;
  name?: string;
  title?: string;
  sqlQuery?: string;
  spec?: unknown;
  isSourceReport?: boolean;
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
  reportSnapshots: Snapshot[];
  createdBy?: number;
  title?: string;
  description?: string;
}

export interface AuditEvent {
  id: number;
  at: string;
  userEmail: string;
  eventName: string;
  deploymentId?: number;
  ip: string;
  attributes: Record<string, string>;
}

export interface DbtJob {
  id: number;
  deploymentId: number;
  branchName: string;
  ref?: string;
  trigger: "api" | "schedule" | "manual";
  createdMs: number;
  cancelledMs?: number;
  willFail: boolean;
  userId?: number;
}

export interface UserAttribute {
  id: number;
  name: string;
  type: "string" | "number" | "boolean" | "string_array" | "number_array";
  description?: string;
  createdAt: string;
  values: Map<number, unknown>;
}

export interface DevSession {
  branchName: string;
  startedAt: string;
}

export interface EmbedTenant {
  id: string;
  name: string;
}

export interface VersionInfo {
  version: string;
  channel: string;
}

/** Deterministic, non-sequential id allocator (random-looking gaps). */
export class IdGen {
  private next: number;
  private state: number;
  constructor(start: number, seed: number) {
    this.next = start;
    this.state = seed;
  }
  take(): number {
    const id = this.next;
    this.state = (this.state * 1103515245 + 12345) % 2147483648;
    this.next += 3 + ((this.state >>> 16) % 29);
    return id;
  }
}

export class Store {
  users = new Map<number, User>();
  keys = new Map<string, ApiKey>();
  metaTokens = new Set<string>();
  deployments = new Map<number, Deployment>();
  branches: Branch[] = [];
  items = new Map<number, Item>();
  dashboards = new Map<number, Dashboard>();
  audit: AuditEvent[] = [];
  dbtJobs: DbtJob[] = [];
  attributes: UserAttribute[] = [];
  devSessions = new Map<string, DevSession>();
  embedTenants: EmbedTenant[] = [];
  versions: VersionInfo[] = [];
  ids = {
    user: new IdGen(3107, 7),
    deployment: new IdGen(4817, 11),
    branch: new IdGen(730, 13),
    item: new IdGen(48211, 17),
    dashboard: new IdGen(9042, 19),
    snapshot: new IdGen(61003, 23),
    audit: new IdGen(880120, 29),
    dbt: new IdGen(2205, 31),
    attr: new IdGen(517, 37),
    version: new IdGen(150011, 41),
  };

  devKey(userId: number, deploymentId: number): string {
    return `${userId}:${deploymentId}`;
  }

  itemsOf(deploymentId: number, workspace: "main" | "shared" = "main"): Item[] {
    return [...this.items.values()].filter((i) => i.deploymentId === deploymentId && i.workspace === workspace);
  }

  branchesOf(deploymentId: number): Branch[] {
    return this.branches.filter((b) => b.deploymentId === deploymentId);
  }

  findBranch(deploymentId: number, name: string): Branch | undefined {
    return this.branches.find((b) => b.deploymentId === deploymentId && b.name === name);
  }

  productionBranch(deploymentId: number): Branch | undefined {
    return this.branches.find((b) => b.deploymentId === deploymentId && b.kind === "production");
  }

  recordAudit(userEmail: string, eventName: string, deploymentId: number | undefined, attributes: Record<string, string>): void {
    this.audit.push({ id: this.ids.audit.take(), at: new Date().toISOString(), userEmail, eventName, deploymentId, ip: "127.0.0.1", attributes });
  }
}

export const SECRET_MARKERS = ["PASS", "SECRET", "TOKEN", "KEY", "CREDENTIAL"];
/** Secret-named check, case-insensitive (masks `api_key` as well as `API_KEY`). */
export function isSecretName(name: string): boolean {
  const up = name.toUpperCase();
  return SECRET_MARKERS.some((m) => up.includes(m));
}
export const MASK = "[ENCRYPTED]";

export function nowIso(): string {
  return new Date().toISOString();
}

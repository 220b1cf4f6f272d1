/**
 * The reference server's in-memory state (its seed: reference/seed.ts). Nothing in the suite
 * reads this: the suite discovers what it needs through the API, so it runs unchanged against
 * any server.
 */
export type Access = "none" | "read" | "edit" | "manage";
export type ItemType = "FOLDER" | "WORKBOOK" | "REPORT";

export interface User {
  id: number;
  email: string;
  firstName: string | null;
  /** AI BI User or higher may create and clone workbooks. */
  aiBiUser: boolean;
  permissions: Set<string>;
  creatorMode: boolean;
  /** Access to workspace items nobody granted otherwise. */
  defaultAccess: Access;
  /** The deployments the user reaches: a key scoped to them (facts, Authentication: 403 for the others), or a user some deployment's members leave out; absent, every deployment. */
  deployments?: ReadonlySet<number>;
}

export interface EnvironmentRecord {
  id: string;
  type: "production" | "staging" | "development";
  branch: string;
  user: string;
  name: string;
}

export interface BranchRecord {
  id: number;
  name: string;
  parentBranch: string;
  lastHash: string;
  kind: "production" | "shared" | "personal";
  owner?: string;
  isStagingEnvironmentEnabled: boolean;
}

export interface VersionRecord {
  version: string;
  releaseChannel: string;
}

export interface DeploymentRecord {
  id: number;
  name: string;
  created_at: string;
  workbookLimit: number | null;
  /** The repository of its images: E5's image-style references are `<repository>:v<version>`. */
  imageRepository: string;
  settings: {
    cloudProvider: string;
    region: string;
    releaseChannel: string;
    releaseChannelVersion: string;
    releaseChannelVersionHold: boolean;
    image: string;
    template: string;
    templateVariables: Record<string, string>;
    defaultLaunchpadViewGroup: string | null;
    launchpadTabs: string[];
    creationMethod: string;
    deployMode: string;
  };
  secrets: Record<string, string>;
  /** Production and development environments; staging ones follow the branches' flags. */
  environments: EnvironmentRecord[];
  branches: BranchRecord[];
  versions: VersionRecord[];
  envVars: { name: string; value: string }[];
}

export interface Item {
  id: number;
  deploymentId: number;
  type: ItemType;
  name: string;
  folderId: number | null;
  slug: string | null;
  meta: Record<string, unknown>;
  calculatedFields: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  createdBy: number;
  /** Workbooks only. */
  dashboardDraft: any | null;
  publishedDashboard: any | null;
  /** Reports only: the workbook they belong to, and what a snapshot copies. */
  workbookId?: number;
  report?: { kind: string; sqlQuery: string; title: string };
  sharedWorkspace: boolean;
  viewHistory: number[];
  policies: { principal: string; action: string }[];
  /** Folders made through the API: their place among their siblings (the seed's folders show their id). */
  position?: number;
  /** Folder ACL: user id to access; inherited by contents. */
  grants: Map<number, Access>;
}

export interface AuditEvent {
  timestamp: string;
  userEmail: string;
  eventName: string;
  deploymentName: string;
  ipAddress: string;
  details: string;
}

export interface Store {
  users: User[];
  tokens: Map<string, User>;
  deployments: DeploymentRecord[];
  items: Map<number, Item>;
  audit: AuditEvent[];
  nextItemId: number;
  nextDashboardId: number;
  auditFeatureEnabled: boolean;
}

export function newItem(store: Store, fields: Partial<Item> & Pick<Item, "deploymentId" | "type" | "name" | "createdBy">): Item {
  const now = new Date().toISOString();
  const item: Item = {
    id: store.nextItemId++,
    folderId: null,
    slug: null,
    meta: {},
    calculatedFields: {},
    createdAt: now,
    updatedAt: now,
    dashboardDraft: null,
    publishedDashboard: null,
    sharedWorkspace: false,
    viewHistory: [],
    policies: [],
    grants: new Map(),
    ...fields,
  };
  store.items.set(item.id, item);
  return item;
}

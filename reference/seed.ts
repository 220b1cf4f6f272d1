/**
 * The reference server's seed: the tenant it starts with, in one of its shapes. Nothing in the
 * suite reads this (rule 11 of the house): the suite discovers what it needs through the API.
 */
import type { Store, User } from "./store.js";
import { seedAudit } from "./seed/audit.js";
import { deployment } from "./seed/deployments.js";
import { type SeedShape, seedShapes } from "./seed/shapes.js";
import { seedWorkspace } from "./seed/workspace.js";

// The shapes are chosen by whoever starts the reference (reference/server.ts): they stay reachable from the seed.
export { type SeedShape, seedShapes };

export const TOKEN_ROLES = ["primary", "readOnly", "noAudit", "auditor", "creator", "viewer", "scoped"] as const;
export type TokenRoleName = (typeof TOKEN_ROLES)[number];

export interface Seeded {
  store: Store;
  tokens: Record<TokenRoleName, string>;
  /** What --write-config hands to the suite: fixtures it cannot discover on its own. */
  fixtures: Record<string, number | string>;
}

const ALL: ReadonlyArray<string> = ["AuditLogManage", "SecretsManage", "DownloadData"];

function randomToken(label: string): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return `ref_${label}_${Buffer.from(bytes).toString("base64url")}`;
}

export function seed(shape: SeedShape = seedShapes.default): Seeded {
  const users: User[] = [
    { id: 1, email: "alice@example.com", firstName: "Alice", aiBiUser: true, permissions: new Set(ALL), creatorMode: false, defaultAccess: "manage" },
    { id: 2, email: "victor@example.com", firstName: "Victor", aiBiUser: true, permissions: new Set(), creatorMode: false, defaultAccess: "read" },
    { id: 3, email: "nora@example.com", firstName: null, aiBiUser: true, permissions: new Set(["SecretsManage"]), creatorMode: false, defaultAccess: "manage" },
    { id: 4, email: "carol@embed.example.com", firstName: "Carol", aiBiUser: true, permissions: new Set(), creatorMode: true, defaultAccess: "read" },
    { id: 5, email: "vera@example.com", firstName: "Vera", aiBiUser: false, permissions: new Set(), creatorMode: false, defaultAccess: "read" },
    // An administrator whose key reaches the second deployment only (facts, Authentication).
    {
      id: 6,
      email: "sam@example.com",
      firstName: "Sam",
      aiBiUser: true,
      permissions: new Set(ALL),
      creatorMode: false,
      defaultAccess: "manage",
      deployments: new Set([shape.deployments[1].id]),
    },
    // Below AI BI User, holding AuditLogManage: the permission decides the audit export (Authentication 4).
    // Left out of the third deployment by its members: a key that is not scoped, yet cannot reach every deployment.
    {
      id: 7,
      email: "aurora@example.com",
      firstName: "Aurora",
      aiBiUser: false,
      permissions: new Set(["AuditLogManage"]),
      creatorMode: false,
      defaultAccess: "read",
      deployments: new Set([shape.deployments[0].id, shape.deployments[1].id]),
    },
  ];
  const tokens: Record<TokenRoleName, string> = {
    primary: randomToken("admin"),
    readOnly: randomToken("viewer"),
    noAudit: randomToken("noaudit"),
    auditor: randomToken("auditor"),
    creator: randomToken("creator"),
    viewer: randomToken("below-ai-bi-user"),
    scoped: randomToken("scoped"),
  };
  const store: Store = {
    users,
    tokens: new Map([
      [tokens.primary, users[0]],
      [tokens.readOnly, users[1]],
      [tokens.noAudit, users[2]],
      [tokens.creator, users[3]],
      [tokens.viewer, users[4]],
      [tokens.scoped, users[5]],
      [tokens.auditor, users[6]],
    ]),
    deployments: [
      ...shape.deployments.map((d, i) => deployment(shape, d.id, d.name, i === 2 ? shape.workbooks[2] : null, i === 1 ? [shape.ranBefore] : [])),
      ...Array.from({ length: shape.extraDeployments ?? 0 }, (_, i) => deployment(shape, 100_000 + i, `Tenant ${i + 1}`, null)),
    ],
    items: new Map(),
    audit: [],
    nextItemId: shape.firstItemId,
    nextDashboardId: 1,
    auditFeatureEnabled: true,
  };
  const ids = seedWorkspace(store, shape);
  seedAudit(store);
  return {
    store,
    tokens,
    fixtures: {
      readOnlyFolderId: ids.readOnlyFolder,
      editableFolderId: ids.editableFolder,
      sharedWorkbookId: ids.sharedWorkbook,
      sharedUnpublishedWorkbookId: ids.sharedUnpublishedWorkbook,
      workbookLimitDeploymentId: String(shape.deployments[2].id),
      // Its state is thrown away: the run may change a deployment and write into a second one.
      mutableDeploymentId: String(shape.deployments[0].id),
      otherDeploymentId: String(shape.deployments[1].id),
    },
  };
}

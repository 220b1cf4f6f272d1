/**
 * The vocabulary a check declares itself in (its level, what it needs, what it shares): plain
 * types with no imports, so that the check model, the settings and the fixtures all read them
 * without importing one another.
 */

export type Level = "MUST" | "SHOULD";

/** Extra credentials a check may need; the config's `tokens` names them. */
export const TOKEN_ROLES = ["readOnly", "noAudit", "auditor", "creator", "viewer", "scoped"] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/**
 * What a check needs before it can run, declared as data: the runner skips it, with the reason,
 * when the user did not allow or configure one. A fixture the server should have yielded through
 * a spec'd endpoint and did not blocks the check instead (core/api/preconditions.ts).
 * "unremovable-writes": it creates what the API offers no way to delete (environment variables),
 * so it runs only when the user says so, or against the throw-away reference server.
 * "deployment-changes": it changes a deployment's version, channel or settings (E6), which on a
 * real tenant redeploys it: only with its own opt-in, and only on the deployment the user named
 * for it (`fixture:mutableDeployment`).
 * "admin-writes": it creates, changes or deletes users, user attributes, tenant settings or
 * integrations (E14 administration): on a real tenant that touches people and sign-in, so only
 * with its own opt-in (--allow-admin-writes; implied by --reference), each change undone.
 * "deployment-lifecycle": it creates a deployment, drives its setup wizard and deletes it; only
 * the one the run created, once a read-back shows it as the run's own (--allow-deployment-lifecycle).
 * "git-operations": it commits, pulls and merges branches the run created, one into the default
 * branch, and connects a deployment to a repository (--allow-git-operations): on a real tenant
 * that reaches the git remote, and cannot be undone, so it is done in a deployment the run created
 * (with "deployment-lifecycle" too).
 * "unnamed-operations": it sends a valid request to each write of the server's document that the
 * spec does not name, on objects the run discovered: what such an operation does is not known to
 * the tool (--allow-unnamed-operations; implied by --reference).
 */
/** What a check that writes into the workspace of fixtures.deployment needs. */
export const WORKSPACE_WRITES = ["writes", "fixture:deployment"] as const satisfies readonly Need[];

export type Need =
  | "writes"
  | "unremovable-writes"
  | "deployment-changes"
  | "admin-writes"
  | "deployment-lifecycle"
  | "git-operations"
  | "unnamed-operations"
  | `token:${TokenRole}`
  | `fixture:${FixtureName}`
  | `feature:${Feature}`;

/** Plan features a tenant may lack; the config's `features` declares one off, and its checks are skipped. */
export type Feature = "auditLog";

export type FixtureName =
  | "deployment"
  | "otherDeployment"
  | "environment"
  | "namedOtherDeployment"
  | "mutableDeployment"
  | "environments"
  | "workbook"
  | "workbookInFolder"
  | "publishedWorkbook"
  | "publishedWorkbookInFolder"
  | "branches"
  | "sharedBranch"
  | "personalBranch"
  | "productionBranch"
  | "versions"
  | "sharedWorkbook"
  | "sharedUnpublishedWorkbook"
  | "embeddableWorkbook"
  | "workbookLimitDeployment";

/**
 * What a check touches that other checks touch too, so that a concurrent run never overlaps two
 * that disturb each other (core/run/schedule.ts): `read:<thing>` needs it to hold still, `add:<thing>`
 * creates and removes only its own objects in it, `write:<thing>` changes it for everyone;
 * "exclusive" runs alone (timing-sensitive checks); `exclusive:<thing>` runs beside the checks that
 * hold the same `exclusive:<thing>` only (readers of something any request may add to, which
 * tolerate what the others of their thing add, such as the audit log's).
 */
export type Share = `${"read" | "add" | "write" | "exclusive"}:${string}` | "exclusive";

import type { CheckContext } from "./context.js";
import type { Watcher } from "./invariants.js";

export type Level = "MUST" | "SHOULD";

/** Extra credentials a check may need; the config's `tokens` names them. */
export type TokenRole = "readOnly" | "noAudit" | "creator";

/**
 * What a check needs before it can run, declared as data: the runner skips it, with the reason,
 * when the user did not allow or configure one. A fixture the server should have yielded through
 * a spec'd endpoint and did not blocks the check instead (core/preconditions.ts).
 * "unremovable-writes": it creates what the API offers no way to delete (environment variables),
 * so it runs only when the user says so, or against the throw-away reference server.
 * "deployment-changes": it changes a deployment's version, channel or settings (E6), which on a
 * real tenant redeploys it: only with its own opt-in, and only on the deployment the user named
 * for it (`fixture:mutableDeployment`).
 * "admin-writes": it creates, changes or deletes users, user attributes, tenant settings or
 * integrations (E14 administration): on a real tenant that touches people and sign-in, so only
 * with its own opt-in (--allow-admin-writes; implied by --reference), each change undone.
 */
export type Need = "writes" | "unremovable-writes" | "deployment-changes" | "admin-writes" | `token:${TokenRole}` | `fixture:${FixtureName}` | `feature:${Feature}`;

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
  | "branches"
  | "sharedBranch"
  | "personalBranch"
  | "productionBranch"
  | "versions"
  | "readOnlyFolder"
  | "editableFolder"
  | "sharedWorkbook"
  | "sharedUnpublishedWorkbook"
  | "embeddableWorkbook"
  | "workbookLimitDeployment";

/**
 * What a check touches that other checks touch too, so that a concurrent run never overlaps two
 * that disturb each other (core/schedule.ts): `read:<thing>` needs it to hold still, `add:<thing>`
 * creates and removes only its own objects in it, `write:<thing>` changes it for everyone;
 * "exclusive" runs alone (timing-sensitive checks).
 */
export type Share = `${"read" | "add" | "write"}:${string}` | "exclusive";

export interface Check {
  /** Stable, dotted: `<group>.<rule family>.<rule>`; also the filter key of --check. */
  id: string;
  group: string;
  /** The rule, phrased as the rule. */
  title: string;
  /** Where the rule stands in the spec, e.g. `E11 rule 3` or `Authentication 1`. */
  spec: string;
  /** MUST where the spec states the rule, SHOULD where it only implies it. */
  level: Level;
  needs: Need[];
  /** "invariant": watches every exchange of the run instead of running (core/invariants.ts). */
  kind: "example" | "property" | "model" | "invariant";
  /** For an invariant: its observer of the run's exchanges. */
  watch?: Watcher;
  /** For an invariant: what an exchange must carry for the rule to apply ("not exercised: no answer carried ..."). */
  applicable?: string;
  /** Undeclared: nothing for a read-only check, "exclusive" for one that writes (see Share). */
  shares?: Share[];
  run(ctx: CheckContext): Promise<void>;
}

export type CheckSpec = Omit<Check, "group" | "needs" | "kind"> & { needs?: Need[]; kind?: Check["kind"] };

/** Declares the checks of one endpoint group; `shared.needs` are added to every check's own. */
export function group(name: string, checks: CheckSpec[], shared: { needs?: Need[] } = {}): Check[] {
  return checks.map((c) => ({ kind: "example", ...c, needs: [...(shared.needs ?? []), ...(c.needs ?? [])], group: name }));
}

/**
 * Declares checks written by technique (properties) for several endpoint groups: each belongs to
 * the group its id starts with, beside that endpoint's examples, so `--group upsert` runs them too.
 */
export function groupedById(checks: CheckSpec[], shared: { needs?: Need[] } = {}): Check[] {
  return checks.flatMap((c) => group(c.id.slice(0, c.id.indexOf(".")), [c], shared));
}

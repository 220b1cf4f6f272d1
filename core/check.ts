import type { CheckContext } from "./context.js";

export type Level = "MUST" | "SHOULD";

/** Extra credentials a check may need; the config's `tokens` names them. */
export type TokenRole = "readOnly" | "noAudit" | "creator";

/**
 * What a check needs before it can run; the runner skips it, with the reason, when one is missing.
 * "unremovable-writes": it creates what the API offers no way to delete (environment variables),
 * so it runs only when the user says so, or against the throw-away reference server.
 * "deployment-changes": it changes a deployment's version, channel or settings (E6), which on a
 * real tenant redeploys it: only with its own opt-in, and only on the deployment the user named
 * for it (`fixture:mutableDeployment`).
 */
export type Need = "writes" | "unremovable-writes" | "deployment-changes" | `token:${TokenRole}` | `fixture:${FixtureName}`;

export type FixtureName =
  | "deployment"
  | "otherDeployment"
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
  kind: "example" | "property" | "model";
  run(ctx: CheckContext): Promise<void>;
}

export type CheckSpec = Omit<Check, "group" | "needs" | "kind"> & { needs?: Need[]; kind?: Check["kind"] };

/** Declares the checks of one endpoint group. */
export function group(name: string, checks: CheckSpec[]): Check[] {
  return checks.map((c) => ({ needs: [], kind: "example", ...c, group: name }));
}

import type { DeploymentRecord, EnvironmentRecord, Item, Store, User, VersionRecord } from "./store.js";

/**
 * The decisions of the reference server that a fault may change, each a small pure function.
 * Handlers call these and nothing else for such decisions, so a fault replaces exactly one seam
 * (see faults.ts) instead of adding branches to the handlers.
 */
export const cleanBehaviour = {
  /** Authentication 1: `Authorization: Bearer <API key>`; anything else is no caller. */
  authenticate(header: string | undefined, store: Store): User | undefined {
    const m = /^Bearer\s+(\S+)\s*$/.exec(header ?? "");
    return m ? store.tokens.get(m[1]) : undefined;
  },

  /** Limits: offset style defaults to offset 0 and 20 items a page. */
  offsetDefaults(): { offset: number; limit: number } {
    return { offset: 0, limit: 20 };
  },

  /** Pagination styles: a parameter below its minimum is a request error. */
  belowMinimum(value: number, min: number): boolean {
    return value < min;
  },

  /** Pagination styles 1 and 2: the window of a list a page shows. */
  pageSlice<T>(list: T[], start: number, count: number): T[] {
    return list.slice(start, start + count);
  },

  /** E9 rule, E10 rule 8: an item of another deployment is not found. */
  itemBelongsTo(item: Item, deploymentId: number): boolean {
    return item.deploymentId === deploymentId;
  },

  /** E2 and the States table: a shared branch with the flag on is an always-on `staging` environment. */
  environmentsOf(dep: DeploymentRecord): EnvironmentRecord[] {
    const staging = dep.branches
      .filter((b) => b.isStagingEnvironmentEnabled)
      .map((b): EnvironmentRecord => ({ id: `env-${dep.id}-staging-${b.name}`, type: "staging", branch: b.name, user: "", name: `Staging: ${b.name}` }));
    return [...dep.environments.filter((e) => e.type === "production"), ...staging, ...dep.environments.filter((e) => e.type === "development")];
  },

  /** Resources / Environment variable: a name holding a marker is secret (any case). */
  isSecretName(name: string): boolean {
    return /PASS|SECRET|TOKEN|KEY|CREDENTIAL/i.test(name);
  },

  /** E11 rule 1. */
  normaliseSlug(slug: string): string {
    return slug.trim().toLowerCase();
  },

  /** E11 rule 2: `meta` is merged key by key into what is stored. */
  mergeMeta(stored: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
    return { ...stored, ...sent };
  },

  /** E3: the lifetime of a metadata token. */
  tokenLifetime(expiresIn: number | undefined): number {
    return expiresIn ?? 86_400;
  },

  /** E6 rule 1: `1.7.20`, `v1.7.20` and the image-style reference name the same listed version. */
  resolveVersion(input: string, versions: VersionRecord[]): VersionRecord | undefined {
    const m = /^(?:[a-z0-9._/-]+:)?v?(\d+\.\d+\.\d+)$/.exec(input.trim());
    return m ? versions.find((v) => v.version === m[1]) : undefined;
  },

  /** E10 rule 1. */
  cloneName(name: string): string {
    return `Copy of ${name}`;
  },
};

export type Behaviour = typeof cleanBehaviour;

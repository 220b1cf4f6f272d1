import type { VersionRecord } from "../store.js";

/**
 * The knobs of the seed. The suite must pass on either shape: it may rely on none of the ids,
 * names, counts, branch names or versions of the reference (rule 7 of the house).
 */
export interface SeedShape {
  deployments: [{ id: number; name: string }, { id: number; name: string }, { id: number; name: string }];
  firstItemId: number;
  /** Workbooks of the main, second and limited deployment (the limit equals the last count). */
  workbooks: [number, number, number];
  branches: { production: string; staging: string; feature: string; personalPrefix: string };
  versions: VersionRecord[];
  /** A version the second deployment ran before, so E5 lists it there and nowhere else: a version no other deployment may be set to. */
  ranBefore: VersionRecord;
  current: string;
  image: string;
  /** Deployments beyond the three, with no workspace content: a tenant with very many. */
  extraDeployments?: number;
}

export const seedShapes: Record<"default" | "alternate" | "huge", SeedShape> = {
  default: {
    deployments: [
      { id: 1, name: "Analytics Production" },
      { id: 2, name: "Sandbox" },
      { id: 3, name: "Marketing Trial" },
    ],
    firstItemId: 100,
    workbooks: [24, 6, 4],
    branches: { production: "main", staging: "release", feature: "feature-revenue", personalPrefix: "dev-" },
    versions: [
      { version: "1.6.10", releaseChannel: "release" },
      { version: "1.7.18", releaseChannel: "release" },
      { version: "1.7.20", releaseChannel: "release" },
      { version: "1.8.0", releaseChannel: "latest" },
      { version: "1.8.3", releaseChannel: "latest" },
    ],
    ranBefore: { version: "1.7.11", releaseChannel: "release" },
    current: "1.7.20",
    image: "cubejs/cube",
  },
  alternate: {
    deployments: [
      { id: 731, name: "EU Reporting" },
      { id: 17, name: "Staging Lab" },
      { id: 4096, name: "Free Tier Pilot" },
    ],
    firstItemId: 90_001,
    workbooks: [11, 3, 2],
    branches: { production: "trunk", staging: "stable-preview", feature: "feature-churn", personalPrefix: "sandbox/" },
    versions: [
      { version: "2.0.1", releaseChannel: "stable" },
      { version: "2.3.9", releaseChannel: "stable" },
      { version: "2.3.11", releaseChannel: "stable" },
      { version: "3.0.2", releaseChannel: "edge" },
      { version: "3.1.0", releaseChannel: "edge" },
    ],
    ranBefore: { version: "2.2.4", releaseChannel: "stable" },
    current: "2.3.9",
    image: "registry.example.net/platform/core",
  },
  // A huge tenant (issue 10): 10,000 workbooks in the main deployment and 1,000 deployments.
  huge: {
    deployments: [
      { id: 5001, name: "Group Analytics" },
      { id: 5002, name: "Subsidiary" },
      { id: 5003, name: "Trial Seat" },
    ],
    firstItemId: 1_000_000,
    workbooks: [10_000, 40, 3],
    branches: { production: "main", staging: "release", feature: "feature-scale", personalPrefix: "dev-" },
    versions: [
      { version: "1.7.20", releaseChannel: "release" },
      { version: "1.8.3", releaseChannel: "latest" },
    ],
    ranBefore: { version: "1.7.11", releaseChannel: "release" },
    current: "1.7.20",
    image: "cubejs/cube",
    extraDeployments: 997,
  },
};

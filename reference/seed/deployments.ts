import type { BranchRecord, DeploymentRecord, VersionRecord } from "../store.js";
import { day } from "./day.js";
import type { SeedShape } from "./shapes.js";

/** One deployment of the seed: its settings, secrets, environments, branches (production, staging, a feature, one personal per user), env vars, and the versions E5 lists (the shape's, and those it ran before). */
export function deployment(shape: SeedShape, id: number, name: string, workbookLimit: number | null, ranBefore: VersionRecord[] = []): DeploymentRecord {
  const people = ["alice", "victor", "nora", "carol"];
  const b = shape.branches;
  const image = `${shape.image}:v${shape.current}`;
  const branches: BranchRecord[] = [
    { id: 1, name: b.production, parentBranch: "", lastHash: "a1b2c3d", kind: "production", isStagingEnvironmentEnabled: false },
    { id: 2, name: b.staging, parentBranch: b.production, lastHash: "b2c3d4e", kind: "shared", isStagingEnvironmentEnabled: true },
    { id: 3, name: b.feature, parentBranch: b.production, lastHash: "c3d4e5f", kind: "shared", isStagingEnvironmentEnabled: false },
    ...people.map((p, i) => ({
      id: 4 + i,
      name: `${b.personalPrefix}${p}`,
      parentBranch: b.production,
      lastHash: `d${i}e5f6a`,
      kind: "personal" as const,
      owner: `${p}@example.com`,
      isStagingEnvironmentEnabled: false,
    })),
  ];
  return {
    id,
    name,
    created_at: day(-300 + (id % 97) * 3),
    workbookLimit,
    imageRepository: shape.image,
    settings: {
      cloudProvider: "aws",
      region: "us-east-1",
      releaseChannel: shape.versions.find((v) => v.version === shape.current)!.releaseChannel,
      releaseChannelVersion: image,
      releaseChannelVersionHold: false,
      image,
      template: "standard",
      templateVariables: { CUBEJS_DB_TYPE: "postgres", CUBEJS_DB_NAME: "analytics", CUBEJS_SCHEDULED_REFRESH: "true" },
      defaultLaunchpadViewGroup: null,
      launchpadTabs: ["home", "workbooks"],
      creationMethod: "github",
      deployMode: "git",
    },
    secrets: { CUBEJS_API_SECRET: "s3cr3t-value", CUBEJS_DB_PASS: "hunter2" },
    environments: [
      { id: `env-${id}-prod`, type: "production", branch: b.production, user: "", name: "Production" },
      ...people.map((p) => ({
        id: `env-${id}-dev-${p}`,
        type: "development" as const,
        branch: `${b.personalPrefix}${p}`,
        user: `${p}@example.com`,
        name: `Development: ${p}`,
      })),
    ],
    branches,
    versions: structuredClone([...ranBefore, ...shape.versions]),
    envVars: [
      ["CUBEJS_DB_PASS", "hunter2"],
      ["CUBEJS_API_SECRET", "s3cr3t"],
      ["GITHUB_TOKEN", "ghp_xxx"],
      ["AWS_ACCESS_KEY_ID", "AKIA123"],
      ["GCP_CREDENTIALS_JSON", "{}"],
      ["SMTP_PASSWORD", "pw"],
      ["MY_SECRET_SALT", "salt"],
      ["DB_KEYFILE", "/k"],
      ["webhook_secret", "w"],
      ["OAUTH_CREDENTIAL", "c"],
      ["REFRESH_TOKEN_TTL", "3600"],
      ["PASSPHRASE_HINT", "h"],
      ["TZ", "UTC"],
      ["LOG_LEVEL", "info"],
      ["CUBEJS_DB_TYPE", "postgres"],
      ["CUBEJS_DB_HOST", "db.internal"],
      ["CUBEJS_DB_PORT", "5432"],
      ["REGION", "eu-west-1"],
      ["FEATURE_FLAGS", "a,b"],
      ["CACHE_TTL", "60"],
      ["MAX_ROWS", "50000"],
      ["APP_NAME", "analytics"],
      ["NODE_ENV", "production"],
      ["QUERY_TIMEOUT", "30"],
    ].map(([name, value]) => ({ name, value })),
  };
}

// Operational endpoints: app-config, regions, build-status, logs, pods.
import { deploymentFor, requireApiKey } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { notFound, ok, qEnum, wrap } from "./http.js";
import type { Reply } from "./http.js";
import { listBody, noOffset } from "./paging.js";

export const LOG_SOURCES = ["production", "dev"] as const;
export const LOG_CONTAINERS = ["INIT", "MAIN", "vector", "api-proxy", "cube"] as const;

const REGIONS = [
  { id: "us-east-1", name: "US East (N. Virginia)", cloudProvider: "aws", isDefault: true },
  { id: "eu-central-1", name: "EU Central (Frankfurt)", cloudProvider: "aws", isDefault: false },
  { id: "europe-west3", name: "Europe West 3 (Frankfurt)", cloudProvider: "gcp", isDefault: false },
  { id: "us-central1", name: "US Central 1 (Iowa)", cloudProvider: "gcp", isDefault: false },
  { id: "ap-southeast-2", name: "Asia Pacific (Sydney)", cloudProvider: "aws", isDefault: false },
];

function appConfig(_c: Call): Reply {
  return wrap({
    appTheme: { primaryColor: "#7a77ff", logoUrl: "https://assets.acme-analytics.test/logo.svg", mode: "light" },
    applyThemeGlobally: false,
    creatorMode: { enabled: true, allowSharedWorkspaceClone: true },
    embedding: { signedEmbeddingEnabled: true, allowedOrigins: ["https://portal.acme.test"] },
    sheetsUi: { enabled: true, providers: ["google-sheets", "excel"] },
    timezoneSettings: { defaultTimezone: "Europe/Berlin", allowUserOverride: true },
  });
}

function regions(c: Call): Reply {
  requireApiKey(c.p);
  noOffset(c.q);
  const sorted = [...REGIONS].sort((a, b) => (a.id < b.id ? 1 : -1));
  return ok(listBody(sorted, c.q, "regions"));
}

function buildStatus(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const name = c.q.get("branchName") ?? c.store.productionBranch(d.id)?.name;
  const b = name !== undefined ? c.store.findBranch(d.id, name) : undefined;
  if (!b) throw notFound(`branch ${name ?? ""} not found`);
  const o: Record<string, unknown> = { branchName: b.name, status: b.buildStatus, lastHash: b.lastHash, updatedAt: b.createdAt };
  if (b.buildStatus === "failed") o["error"] = "Compilation failed: see data-model/validate";
  return wrap(o);
}

function logs(c: Call): Reply {
  requireApiKey(c.p);
  noOffset(c.q);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const source = qEnum(c.q, "source", LOG_SOURCES);
  const container = qEnum(c.q, "container", LOG_CONTAINERS);
  const base = Date.parse("2025-01-10T12:00:00.000Z");
  const all: Array<Record<string, unknown>> = [];
  let i = 0;
  for (const src of LOG_SOURCES) {
    for (const ct of LOG_CONTAINERS) {
      for (let k = 0; k < 2; k++) {
        i++;
        all.push({
          timestamp: new Date(base - i * 61000).toISOString(),
          source: src,
          container: ct,
          level: k === 0 ? "info" : "warn",
          message: `[${d.name}] ${ct} ${k === 0 ? "started" : "slow query detected"} (${src})`,
        });
      }
    }
  }
  const rows = all.filter((l) => (!source || l["source"] === source) && (!container || l["container"] === container));
  return ok(listBody(rows, c.q, `logs:${d.id}:${source ?? ""}:${container ?? ""}`));
}

function pods(c: Call): Reply {
  requireApiKey(c.p);
  noOffset(c.q);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const rows = [
    { name: `cube-api-${d.id}-7c9f4`, status: "Running", role: "api", restarts: 0, startedAt: "2025-01-09T06:00:00.000Z" },
    { name: `cube-api-${d.id}-8d2a1`, status: "Running", role: "api", restarts: 1, startedAt: "2025-01-09T06:00:05.000Z" },
    { name: `cube-refresh-${d.id}-0`, status: "Running", role: "refresh-worker", restarts: 0, startedAt: "2025-01-09T06:00:10.000Z" },
    { name: `cubestore-router-${d.id}-0`, status: "Pending", role: "cubestore-router", restarts: 0, startedAt: "2025-01-10T11:58:00.000Z" },
  ];
  return ok(listBody(rows, c.q, `pods:${d.id}`));
}

export function registerOps(r: AppRouter): void {
  r.add("GET", "/api/v1/app-config", appConfig);
  r.add("GET", "/api/v1/regions", regions);
  r.add("GET", "/api/v1/deployments/{deploymentId}/build-status", buildStatus);
  r.add("GET", "/api/v1/deployments/{deploymentId}/logs", logs);
  r.add("GET", "/api/v1/deployments/{deploymentId}/pods", pods);
}

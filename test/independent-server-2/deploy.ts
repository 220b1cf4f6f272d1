import { createHmac, randomBytes } from "node:crypto";
import { type Ctx, HttpError, bodyObj, cursorPage, isInt, isObj, isoNoOffset, offsetPage, qInt } from "./http.js";
import { type Deployment, type Store, versionRef, OWNER } from "./store.js";

const cpErr = (status: number, m: string) => new HttpError(status, m, {}, "cp");

export function getDep(s: Store, id: string): Deployment {
  const d = s.deployments.get(id);
  if (!d) throw cpErr(404, `deployment ${id} not found`);
  return d;
}

export function listDeployments(s: Store, ctx: Ctx) {
  const all = [...s.deployments.values()].map((d) => ({
    id: d.id,
    name: d.name,
    created_at: isoNoOffset(d.createdAt),
    deploymentUrl: `https://${d.name.toLowerCase().replace(/\s+/g, "-")}.example.test`,
    creationStep: "done",
  }));
  const { slice, pagination } = offsetPage(all, ctx.query);
  return { data: { deployments: slice }, pagination };
}

function environments(s: Store, dep: Deployment) {
  const host = `${dep.id}.db.example.test`;
  const out: { id: string; name: string; type: string; api_credentials: Record<string, unknown> }[] = [];
  for (const b of s.branches.filter((x) => x.deploymentId === dep.id)) {
    const cred = (slug: string) => ({ rest: { url: `https://${slug}.${dep.id}.api.example.test/cubejs-api/v1` }, sql: { host, port: 15432 + (b.id % 100) } });
    if (b.parentBranch === null) out.push({ id: `env-${dep.id}-${b.id}-p`, name: "Production", type: "production", api_credentials: cred("prod") });
    if (b.staging) out.push({ id: `env-${dep.id}-${b.id}-s`, name: `Staging (${b.name})`, type: "staging", api_credentials: cred(`stg-${b.name}`) });
    if (b.devMode && b.personalOf)
      out.push({ id: `env-${dep.id}-${b.id}-d`, name: `Development (${b.personalOf})`, type: "development", api_credentials: cred(`dev-${b.id}`) });
  }
  return out;
}

export function listEnvironments(s: Store, ctx: Ctx, depId: string) {
  const dep = getDep(s, depId);
  const type = ctx.query.get("type");
  if (type !== null && !["production", "staging", "development"].includes(type)) throw cpErr(400, "type must be production, staging or development");
  qInt(ctx.query, "first", 1); // validate
  let all = environments(s, dep);
  if (type) all = all.filter((e) => e.type === type);
  if (ctx.query.has("after") || ctx.query.has("first")) {
    const { slice, start, pageInfo } = cursorPage(all, ctx.query, null);
    return { data: { environments: slice }, pagination: { offset: start, limit: slice.length, total: all.length }, pageInfo };
  }
  const { slice, pagination } = offsetPage(all, ctx.query, 0);
  return { data: { environments: slice }, pagination };
}

export function signJwt(s: Store, payload: Record<string, unknown>): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const head = enc({ alg: "HS256", typ: "JWT" }) + "." + enc(payload);
  return head + "." + createHmac("sha256", s.jwtSecret).update(head).digest("base64url");
}

export function verifyJwt(s: Store, token: string): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const sig = createHmac("sha256", s.jwtSecret)
    .update(parts[0] + "." + parts[1])
    .digest("base64url");
  if (sig !== parts[2]) return null;
  try {
    const p = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8")) as unknown;
    if (!isObj(p) || typeof p["exp"] !== "number" || p["exp"] * 1000 < Date.now()) return null;
    return p;
  } catch {
    return null;
  }
}

export function metaToken(s: Store, ctx: Ctx, depId: string, envId: string) {
  const dep = getDep(s, depId);
  if (!environments(s, dep).some((e) => e.id === envId)) throw cpErr(404, `environment ${envId} not found`);
  const b = bodyObj(ctx);
  if (!isObj(b["security_context"])) throw cpErr(422, "security_context (object) is required");
  let exp = 86400;
  if (b["expires_in"] !== undefined) {
    const e = b["expires_in"];
    if (typeof e !== "number" || !Number.isFinite(e) || e < 1 || e > 3600) throw cpErr(422, "expires_in must be a number between 1 and 3600");
    exp = Math.floor(e);
  }
  const now = Math.floor(Date.now() / 1000);
  const token = signJwt(s, { scope: "meta", deploymentId: dep.id, environmentId: envId, securityContext: b["security_context"], iat: now, exp: now + exp });
  return {
    data: {
      token,
      created_at: isoNoOffset(new Date(now * 1000)),
      expires_at: isoNoOffset(new Date((now + exp) * 1000)),
      security_context: b["security_context"],
      scopes: ["meta"],
    },
  };
}

const branchOut = (b: Store["branches"][number]) => ({
  id: b.id,
  name: b.name,
  parentBranch: b.parentBranch,
  lastHash: b.lastHash,
  isStagingEnvironmentEnabled: b.staging,
});

export function stagingToggle(s: Store, ctx: Ctx, depId: string) {
  const dep = getDep(s, depId);
  const b = bodyObj(ctx);
  if (typeof b["enabled"] !== "boolean") throw cpErr(422, "enabled (boolean) is required");
  const hasName = b["branchName"] !== undefined,
    hasId = b["branchId"] !== undefined;
  if (!hasName && !hasId) throw cpErr(422, "branchName or branchId is required");
  if (hasName && typeof b["branchName"] !== "string") throw cpErr(422, "branchName must be a string");
  if (hasId && !isInt(b["branchId"])) throw cpErr(422, "branchId must be an integer");
  const br = s.branches.find(
    (x) => x.deploymentId === dep.id && (hasId ? x.id === b["branchId"] : x.name === b["branchName"]) && (!hasName || !hasId || x.name === b["branchName"]),
  );
  if (!br) throw cpErr(404, "branch not found");
  if (b["enabled"] === true) {
    if (br.parentBranch === null) throw cpErr(422, "the production branch cannot have a staging environment");
    if (br.personalOf !== null) throw cpErr(422, "personal development branches cannot have a staging environment");
  }
  br.staging = b["enabled"] as boolean;
  return { data: branchOut(br) };
}

function versionsOf(s: Store, dep: Deployment) {
  return s.versions.map((v) => ({
    releaseChannelVersion: versionRef(v.version),
    version: v.version,
    releaseChannel: v.releaseChannel,
    isLatestInChannel: v.isLatestInChannel,
    isCurrent: dep.releaseChannelVersion === versionRef(v.version),
  }));
}

export function listVersions(s: Store, _ctx: Ctx, depId: string) {
  return { items: versionsOf(s, getDep(s, depId)), pageInfo: null };
}

const ENUMS: Record<string, string[]> = { creationMethod: ["upload", "<hosted>", "hosted", "github", "ssh"], deployMode: ["git", "cli"] };
const ALIASES: Record<string, string> = { creation_method: "creationMethod", deploy_mode: "deployMode" };
const STR_FIELDS = ["cloudProvider", "region", "releaseChannel", "releaseChannelVersion", "template", "defaultLaunchpadViewGroup"];
const ALLOWED = new Set([
  ...STR_FIELDS,
  "releaseChannelVersionHold",
  "templateVariables",
  "launchpadTabs",
  "creationMethod",
  "deployMode",
  "creation_method",
  "deploy_mode",
]);

export function depView(d: Deployment) {
  return {
    id: d.id,
    name: d.name,
    created_at: isoNoOffset(d.createdAt),
    cloudProvider: d.cloudProvider,
    region: d.region,
    releaseChannel: d.releaseChannel,
    releaseChannelVersion: d.releaseChannelVersion,
    releaseChannelVersionHold: d.releaseChannelVersionHold,
    image: d.image,
    template: d.template,
    templateVariables: d.templateVariables,
    defaultLaunchpadViewGroup: d.defaultLaunchpadViewGroup,
    launchpadTabs: d.launchpadTabs,
    creationMethod: d.creationMethod,
    deployMode: d.deployMode,
  };
}

export function updateDeployment(s: Store, ctx: Ctx, depId: string) {
  const dep = getDep(s, depId);
  const b = bodyObj(ctx);
  for (const k of Object.keys(b)) {
    if (k === "image") throw cpErr(400, "the container image is resolved from the version and cannot be set");
    if (!ALLOWED.has(k)) throw cpErr(400, `unknown field '${k}'`);
  }
  const next = { ...dep, templateVariables: { ...dep.templateVariables } };
  for (const k of ["cloudProvider", "region", "template"]) {
    if (b[k] !== undefined && typeof b[k] !== "string" && !(k === "template" && b[k] === null)) throw cpErr(400, `${k} must be a string`);
  }
  if (typeof b["cloudProvider"] === "string") next.cloudProvider = b["cloudProvider"];
  if (typeof b["region"] === "string") next.region = b["region"];
  if (b["template"] !== undefined) next.template = b["template"] as string | null;
  if (b["templateVariables"] !== undefined) {
    if (!isObj(b["templateVariables"])) throw cpErr(400, "templateVariables must be an object");
    Object.assign(next.templateVariables, b["templateVariables"]);
  }
  if (b["defaultLaunchpadViewGroup"] !== undefined) next.defaultLaunchpadViewGroup = b["defaultLaunchpadViewGroup"];
  if (b["launchpadTabs"] !== undefined) {
    if (!Array.isArray(b["launchpadTabs"])) throw cpErr(400, "launchpadTabs must be an array");
    next.launchpadTabs = b["launchpadTabs"];
  }
  for (const [alias, k] of [...Object.entries(ALIASES), ["creationMethod", "creationMethod"], ["deployMode", "deployMode"]] as [
    string,
    "creationMethod" | "deployMode",
  ][]) {
    const v = b[alias];
    if (v === undefined) continue;
    if (typeof v !== "string" || !ENUMS[k]!.includes(v)) throw cpErr(400, `${k} must be one of ${ENUMS[k]!.join(", ")}`);
    next[k] = v;
  }
  const chans = [...new Set(s.versions.map((v) => v.releaseChannel))];
  if (b["releaseChannel"] !== undefined && (typeof b["releaseChannel"] !== "string" || !chans.includes(b["releaseChannel"])))
    throw cpErr(400, `releaseChannel must be one of ${chans.join(", ")}`);
  if (b["releaseChannelVersionHold"] !== undefined && typeof b["releaseChannelVersionHold"] !== "boolean")
    throw cpErr(400, "releaseChannelVersionHold must be a boolean");
  const rcv = b["releaseChannelVersion"];
  if (rcv !== undefined) {
    if (typeof rcv !== "string") throw cpErr(400, "releaseChannelVersion must be a string");
    const v = s.versions.find((x) => rcv === x.version || rcv === `v${x.version}` || rcv === versionRef(x.version));
    if (!v) throw cpErr(400, `releaseChannelVersion '${rcv}' is not one of the listed versions`);
    if (typeof b["releaseChannel"] === "string" && b["releaseChannel"] !== v.releaseChannel)
      throw cpErr(400, "releaseChannelVersion does not belong to releaseChannel");
    next.releaseChannel = v.releaseChannel;
    next.releaseChannelVersion = versionRef(v.version);
    next.releaseChannelVersionHold = !v.isLatestInChannel;
  } else if (typeof b["releaseChannel"] === "string") {
    const v = s.versions.find((x) => x.releaseChannel === b["releaseChannel"] && x.isLatestInChannel)!;
    next.releaseChannel = v.releaseChannel;
    next.releaseChannelVersion = versionRef(v.version);
    next.releaseChannelVersionHold = false;
  }
  if (typeof b["releaseChannelVersionHold"] === "boolean") next.releaseChannelVersionHold = b["releaseChannelVersionHold"];
  next.image = next.releaseChannelVersion;
  s.deployments.set(dep.id, next);
  return { data: depView(next) };
}

export function settings(s: Store, depId: string) {
  const d = getDep(s, depId);
  return { data: { ...depView(d), secretsConfigured: Object.keys(d.secrets).length } };
}

const SECRET = /PASS|SECRET|TOKEN|KEY|CREDENTIAL/;
function envList(s: Store, depId: string, ctx: Ctx, all: boolean) {
  const vars = s.envVars.get(depId)!;
  const list = [...vars.entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1)).map(([name, value]) => ({ name, value: SECRET.test(name) ? "[ENCRYPTED]" : value }));
  const { slice, pageInfo } = all ? cursorPage(list, new URLSearchParams(), null) : cursorPage(list, ctx.query);
  return { items: slice, data: slice, pageInfo };
}

export function getEnvVars(s: Store, ctx: Ctx, depId: string) {
  getDep(s, depId);
  return envList(s, depId, ctx, false);
}

export function putEnvVars(s: Store, ctx: Ctx, depId: string) {
  getDep(s, depId);
  const b = bodyObj(ctx);
  const list = b["env_variables"];
  if (!Array.isArray(list)) throw cpErr(400, "env_variables (array) is required");
  const vars = s.envVars.get(depId)!;
  const upd: [string, string][] = [];
  for (const e of list) {
    if (!isObj(e) || typeof e["name"] !== "string" || typeof e["value"] !== "string") throw cpErr(400, "each env variable needs string name and value");
    if (e["value"] === "[ENCRYPTED]") throw cpErr(400, `value of ${e["name"]} is the [ENCRYPTED] placeholder`);
    if (!vars.has(e["name"]) && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(e["name"])) throw cpErr(400, `invalid variable name '${e["name"]}'`);
    upd.push([e["name"], e["value"]]);
  }
  for (const [k, v] of upd) vars.set(k, v);
  return envList(s, depId, ctx, true);
}

export function listBranches(s: Store, ctx: Ctx, depId: string) {
  getDep(s, depId);
  const { slice, pageInfo } = cursorPage(s.branches.filter((b) => b.deploymentId === depId).map(branchOut), ctx.query);
  return { items: slice, data: slice, pageInfo };
}

export function createBranch(s: Store, ctx: Ctx, depId: string) {
  getDep(s, depId);
  const b = bodyObj(ctx);
  const name = b["name"];
  if (typeof name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/.test(name)) throw cpErr(400, "name must be a valid branch name");
  const mine = s.branches.filter((x) => x.deploymentId === depId);
  if (mine.some((x) => x.name === name)) throw cpErr(409, `branch ${name} already exists`);
  if (b["from"] !== undefined && typeof b["from"] !== "string") throw cpErr(400, "from must be a string");
  if (b["activate"] !== undefined && typeof b["activate"] !== "boolean") throw cpErr(400, "activate must be a boolean");
  const from = (b["from"] as string | undefined) ?? mine.find((x) => x.parentBranch === null)!.name;
  if (!mine.some((x) => x.name === from)) throw cpErr(404, `branch ${from} not found`);
  const br = {
    id: (s.nextBranch += 7),
    deploymentId: depId,
    name,
    parentBranch: from,
    lastHash: randomBytes(20).toString("hex"),
    staging: false,
    personalOf: null,
    devMode: false,
  };
  s.branches.push(br);
  return { data: branchOut(br) };
}

export function deleteBranch(s: Store, ctx: Ctx, depId: string): void {
  getDep(s, depId);
  const name = ctx.query.get("branchName");
  if (!name) throw cpErr(400, "branchName query parameter is required");
  const br = s.branches.find((x) => x.deploymentId === depId && x.name === name);
  if (!br) throw cpErr(404, `branch ${name} not found`);
  if (br.parentBranch === null) throw cpErr(400, "the production branch cannot be deleted");
  for (const c of s.branches) if (c.deploymentId === depId && c.parentBranch === name) c.parentBranch = br.parentBranch;
  s.branches = s.branches.filter((x) => x !== br);
}

export function regions(ctx: Ctx) {
  const all = [
    ["aws", "us-east-1"],
    ["aws", "eu-central-1"],
    ["gcp", "us-central1"],
    ["gcp", "europe-west3"],
    ["<hosted>", "global"],
  ].map(([p, r]) => ({ cloudProvider: p, region: r, name: `${p}/${r}` }));
  const { slice, pageInfo } = cursorPage(all, ctx.query);
  return { items: slice, data: slice, pageInfo };
}

export function appConfig() {
  return {
    appTheme: { primaryColor: "#4f46e5", mode: "light" },
    applyThemeGlobally: false,
    creatorMode: false,
    embedding: { enabled: true, signedEmbedding: true },
    sheetsUi: { enabled: false },
    timezoneSettings: { default: "UTC", allowUserOverride: true },
  };
}

export function metaListing(s: Store, ctx: Ctx, depId: string, what: "data-sources" | "entities") {
  getDep(s, depId);
  if (ctx.auth.kind === "meta" && ctx.auth.deploymentId !== depId) throw cpErr(403, "token not valid for this deployment");
  const all =
    what === "data-sources"
      ? [
          { name: "default", type: "postgres" },
          { name: "warehouse", type: "snowflake" },
        ]
      : [
          { name: "orders", kind: "cube" },
          { name: "customers", kind: "cube" },
          { name: "revenue_view", kind: "view" },
        ];
  return { items: all, pageInfo: { hasNextPage: false, hasPreviousPage: false }, owner: OWNER.email };
}

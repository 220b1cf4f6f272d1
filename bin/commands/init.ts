import { existsSync, writeFileSync } from "node:fs";
import { Api } from "../../core/transport/api.js";
import type { TokenRole } from "../../core/check/check.js";
import { allDeployments } from "../../core/transport/deployments.js";
import { Fixtures } from "../../core/check/fixtures.js";
import type { HttpClient } from "../../core/transport/http.js";
import { credentials, openDoor } from "../../core/run/door.js";
import { type RunSettings, tokenEnvVars, UsageError, validateConfig } from "../../core/api/settings.js";
import { preflight } from "../preflight.js";
import { pathTo, requestTo } from "../../core/transport/client.js";

/** A discovered value, or why there is none; either way what the key is for. */
interface Entry {
  key: string;
  value?: unknown;
  note: string;
}

/** What each fixture is for, as the README's table says it: the comment of a key init could not fill. */
const UNDISCOVERABLE: Record<string, string> = {
  mutableDeploymentId: "a deployment whose version, channel and settings the run may change and put back (E6 checks, with deploymentChanges); never guessed",
  readOnlyFolderId:
    "a folder the readOnly token may read but not edit (clone placement, access rules of upsert and bulk move); left unset, a run with writes looks for one",
  editableFolderId:
    "a folder the readOnly token may edit by a grant, not its own making (access rules of upsert and clone); left unset, a run with writes has the readOnly token make one",
  sharedWorkbookId: "a shared-workspace workbook with a published dashboard (clone with shared: true)",
  sharedUnpublishedWorkbookId: "a shared-workspace workbook without a published dashboard (clone with shared: true must fail, E10 rule 6)",
  workbookLimitDeploymentId: "a deployment at its plan's workbook limit that lists a workbook to clone (E10 rule 7)",
  scratchFolderIds: "empty folders the run may move its own items into, where the server cannot create folders (bulk move, clone placement)",
};

const ROLE_USE: Record<TokenRole, string> = {
  readOnly: "an AI BI User (or higher) with only read access to some folders: it may create and clone at the root, but not edit those folders (access rules)",
  noAudit: "a caller without AuditLogManage (the audit refusal)",
  auditor: "a caller who holds AuditLogManage but is no administrator (the permission decides the audit export, not the role)",
  creator: "a creator-mode embed session (clone with shared: true)",
  viewer: "a user below the AI BI User role who can read some workbooks (clone and create by slug refused, E10 rule 5, E11 rule 4)",
  scoped: "a key scoped to some deployments, not all (E1 lists only the deployments a caller can access)",
};

/**
 * `conformance init`: asks the server what the suite would discover (deployments, environments,
 * branches, folders, workbooks; which extra tokens are set and accepted) and writes a config
 * whose `//` keys say where each value came from and, for what could not be found, what it is for.
 * Tokens are never written: they stay in the environment.
 */
export async function initCommand(settings: RunSettings, file: string, force: boolean, out: (l: string) => void): Promise<number> {
  if (existsSync(file) && !force) throw new UsageError(`${file} exists: pass --force to overwrite it, or --output <file>`);
  const creds = credentials(settings);
  const client = openDoor(settings);
  try {
    await preflight(settings, client);
    client.phase = "init";
    const api = new Api(client, creds.primary ?? null, []);
    const config = { ...commented(settings, await discover(api), await tokenNotes(client, settings)), ...(await raisers()) };
    const errors = validateConfig(config);
    if (errors.length) throw new Error(`init wrote an invalid config: ${errors.join("; ")}`);
    writeFileSync(file, JSON.stringify(config, null, 2) + "\n");
  } finally {
    await client.close();
  }
  out(
    `config written to ${file}: read its "//" notes, fill in what it could not find, then: conformance (it finds ./conformance.config.json; else --config ${file})`,
  );
  return 0;
}

async function discover(api: Api): Promise<Entry[]> {
  const fixtures = new Fixtures(api, {});
  const deployments = await allDeployments(api).then(
    (l) => l.length,
    () => undefined,
  );
  const found = async (key: string, get: () => Promise<unknown>, how: string, what: string): Promise<Entry> => {
    try {
      return { key, value: await get(), note: how };
    } catch (e) {
      return { key, note: `not found (${(e as Error).message}): ${what}` };
    }
  };
  const entries = [
    await found(
      "deploymentId",
      async () => (await fixtures.get("deployment")).id,
      `discovered: the one listing the most workbooks of the ${deployments ?? "?"} deployments E1 lists`,
      "the deployment under test",
    ),
    await found(
      "otherDeploymentId",
      async () => (await fixtures.get("otherDeployment")).id,
      "discovered: another deployment E1 lists; naming it lets the checks that create a workbook in a second deployment run",
      "a second deployment, for the cross-deployment 404s",
    ),
    await found(
      "environmentId",
      async () => (await fixtures.get("environment")).id,
      "discovered: the production environment of the deployment (E2), else its first",
      "the environment for metadata tokens (E3)",
    ),
    await found(
      "workbookId",
      async () => (await fixtures.get("workbook")).id,
      "discovered: the oldest workbook of the deployment's list (E8)",
      "a readable workbook (E8/E9 reads)",
    ),
    await found(
      "productionBranch",
      async () => (await fixtures.get("productionBranch")).name,
      "discovered: the branch of the production environment",
      "the production branch's name (E4: its staging toggle is refused)",
    ),
    await found(
      "personalBranch",
      async () => (await fixtures.get("personalBranch")).name,
      "discovered: the branch of a development environment with a user",
      "a personal development branch's name (E4: its staging toggle is refused)",
    ),
    await found(
      "sharedBranch",
      async () => (await fixtures.get("sharedBranch")).name,
      "discovered: a branch that is neither production nor a personal one",
      "a shared branch's name (E4: its staging toggle can be switched)",
    ),
  ];
  const dep = entries[0].value as string | undefined;
  const folders =
    dep === undefined
      ? undefined
      : await api.call("listFolders", { deploymentId: dep }).then(
          (r) => {
            // E14: the folders list's shape is the server's; its items where the published docs put them.
            const items = (r.body as { items?: unknown } | null | undefined)?.items;
            return r.status === 200 && Array.isArray(items) ? items.length : undefined;
          },
          () => undefined,
        );
  const seen = folders === undefined ? "the folders list (E14) could not be read" : `deployment ${dep} has ${folders} folder(s) at its root`;
  for (const [key, what] of Object.entries(UNDISCOVERABLE))
    entries.push({ key, note: `not discoverable black-box${key.includes("Folder") ? ` (${seen})` : ""}: ${what}` });
  return entries;
}

/** Which extra callers are set, and whether the server accepts each (a 403 is a valid caller without access). */
async function tokenNotes(client: HttpClient, settings: RunSettings): Promise<string[]> {
  const roles = credentials(settings).roles;
  const notes: string[] = [];
  for (const role of Object.keys(ROLE_USE) as TokenRole[]) {
    const credential = roles[role];
    if (!credential) {
      notes.push(`${tokenEnvVars[role]} not set: ${ROLE_USE[role]}; its checks are skipped without it`);
      continue;
    }
    const res = await client.send(requestTo("listDeployments", {}, { query: { limit: 1 }, credential })).catch(() => undefined);
    notes.push(`${tokenEnvVars[role]} set; GET ${pathTo("listDeployments")} answered it ${res?.status ?? "nothing"}: ${ROLE_USE[role]}`);
  }
  return notes;
}

/** The opt-ins and tokens that would let a run verify more MUST rules, each with how many: the config says what a green read-only run left out. */
const RAISERS: [need: string, how: string][] = [
  ["writes", '"writes": true (--allow-writes), on a test deployment'],
  ["deployment-changes", '"deploymentChanges": true with fixtures.mutableDeploymentId'],
  ["admin-writes", '"adminWrites": true'],
  ["deployment-lifecycle", '"deploymentLifecycle": true'],
  ["unremovable-writes", "--allow-unremovable-writes"],
  ["token:readOnly", `${tokenEnvVars.readOnly} (or tokens.readOnly)`],
  ["token:noAudit", `${tokenEnvVars.noAudit} (or tokens.noAudit)`],
  ["token:auditor", `${tokenEnvVars.auditor} (or tokens.auditor)`],
  ["token:creator", `${tokenEnvVars.creator} (or tokens.creator)`],
  ["token:viewer", `${tokenEnvVars.viewer} (or tokens.viewer)`],
  ["token:scoped", `${tokenEnvVars.scoped} (or tokens.scoped)`],
];

async function raisers(): Promise<Record<string, string>> {
  const { catalogue } = await import("../../suites/index.js");
  const must = catalogue.filter((c) => c.level === "MUST");
  const readOnly = must.filter((c) => !c.needs.some((n) => n === "writes" || n.startsWith("token:") || n.endsWith("-writes") || n.endsWith("-changes"))).length;
  const lines = RAISERS.map(([need, how]) => [how, must.filter((c) => (c.needs as readonly string[]).includes(need)).length] as const)
    .filter(([, n]) => n > 0)
    .map(([how, n]) => `${how}: ${n} more`);
  return {
    "//verified": `a read-only run can verify at most ${readOnly} of the ${must.length} MUST rules; each of these lets it verify more: ${lines.join("; ")}. Gate on the share with "minVerified" (--min-verified <percent>).`,
  };
}

function commented(settings: RunSettings, entries: Entry[], tokens: string[]): Record<string, unknown> {
  const fixtures: Record<string, unknown> = {};
  for (const e of entries) {
    fixtures[`//${e.key}`] = e.note;
    if (e.value !== undefined) fixtures[e.key] = e.value;
  }
  return {
    "//": `written by conformance init against ${settings.baseUrl}; keys starting with // are notes and are ignored. The API key stays in ${tokenEnvVars.primary} (or --token-file), never here.`,
    baseUrl: settings.baseUrl,
    "//writes": "true also runs the checks that create or change data (what a run creates it deletes); false: read-only",
    writes: false,
    "//tokens": tokens.join("; "),
    fixtures,
  };
}

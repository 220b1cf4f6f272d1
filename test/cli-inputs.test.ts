import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttp, type Server } from "node:http";
import { createServer as createHttps } from "node:https";
import { connect, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectChecks } from "../core/run/select.js";
import { startReference, type RunningReference } from "../reference/server.js";
import { catalogue } from "../suites/index.js";
import { cli } from "./report-run.js";
import { checkRunOptions, settingsFrom } from "../bin/run-settings.js";

const root = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "conformance-inputs-"));
const EXAMPLE = join(root, "config.example.json");

/** Runs with these environment variables set (undefined: unset), restored after. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (v: Record<string, string | undefined>) => {
    for (const [k, value] of Object.entries(v)) value === undefined ? delete process.env[k] : (process.env[k] = value);
  };
  set(vars);
  try {
    return await fn();
  } finally {
    set(saved);
  }
}

/** A forward proxy (CONNECT, as undici's proxy agent speaks it) that keeps what went through its tunnels. */
async function tunnel() {
  const seen: string[] = [];
  const server = createHttp();
  server.on("connect", (req, client: Socket, head) => {
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      client.on("data", (c) => seen.push(c.toString("latin1")));
      client.pipe(upstream).pipe(client);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const oneLine = (r: Awaited<ReturnType<typeof cli>>, pattern: RegExp) => {
  expect(r.code, r.err + r.out).toBe(2);
  expect(r.err.split("\n").filter(Boolean)).toHaveLength(1);
  expect(r.err).toMatch(pattern);
};

let ref: RunningReference;
let refConfig: Record<string, any>;
const servers: Server[] = [];
const writeConfig = (name: string, value: unknown) => {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(value));
  return f;
};

beforeAll(async () => {
  ref = await startReference();
  refConfig = ref.config();
});
afterAll(async () => {
  for (const s of servers) s.closeAllConnections(), s.close();
  await ref.close();
});

const TOKEN_ENV = {
  CONFORMANCE_TOKEN: "exported-for-another-tenant",
  CONFORMANCE_TOKEN_READONLY: "exported-readonly",
  CONFORMANCE_TOKEN_NOAUDIT: "exported-noaudit",
  CONFORMANCE_TOKEN_CREATOR: "exported-creator",
};

describe("--reference is self-contained and runs everything", () => {
  it("with every token exported, a base URL and a proxy in the environment and a tenant's config: every check passes, writes included; replay likewise", async () => {
    const proxy = await tunnel();
    servers.push(proxy.server);
    const out = join(dir, "self-contained");
    const env = { ...TOKEN_ENV, CONFORMANCE_BASE_URL: "http://127.0.0.1:9", HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: undefined };
    const r = await withEnv(env, () => cli("--reference", "--config", EXAMPLE, "--runs", "5", "--seed", "5", "--reporter", "json", "--out", out));
    expect(r.code, r.err + r.out).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.target.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(report.target.baseUrl).not.toBe("http://127.0.0.1:9");
    expect(report.summary).toEqual(expect.objectContaining({ total: catalogue.length, passed: catalogue.length, skipped: 0 }));
    expect(proxy.seen).toEqual([]);

    const replayed = await withEnv(env, () =>
      cli(
        "replay",
        join(out, "report.json"),
        "upsert.create.absent-slug-creates",
        "--reference",
        "--config",
        EXAMPLE,
        "--reporter",
        "json",
        "--out",
        join(dir, "replayed"),
      ),
    );
    expect(replayed.code, replayed.err + replayed.out).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "replayed", "report.json"), "utf8")).results.map((x: any) => x.status)).toEqual(["passed"]);
  });

  it("--read-only keeps it read-only; --token beside --reference and --read-only beside --allow-writes are refused", async () => {
    const out = join(dir, "read-only");
    const r = await cli("--reference", "--read-only", "--check", "upsert.create.*", "--reporter", "json", "--out", out);
    expect(r.code).toBe(0);
    const results = JSON.parse(readFileSync(join(out, "report.json"), "utf8")).results;
    expect(results.length).toBeGreaterThan(0);
    for (const x of results) expect(x.message).toMatch(/writes not allowed/);
    oneLine(await cli("--reference", "--token", "x"), /--reference uses the bundled server's own tokens/);
    oneLine(await cli("--reference", "--read-only", "--allow-writes"), /--read-only excludes --allow-writes/);
  });
});

describe("fixtures are checked at preflight", () => {
  it("config.example.json with only baseUrl edited: exit 2, one line naming the keys, no check run", async () => {
    const example = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    const f = writeConfig("example-edited.json", { ...example, baseUrl: ref.url });
    const r = await withEnv({ CONFORMANCE_TOKEN: refConfig.token }, () => cli("--config", f));
    oneLine(
      r,
      /fixtures\.deploymentId "42", fixtures\.otherDeploymentId "43", fixtures\.mutableDeploymentId "44": GET \/api\/v1\/deployments lists no such deployment/,
    );
    expect(r.out).toBe("");
  });

  it("an environment, workbook, folder or branch the deployment does not have is named", async () => {
    const fixtures = {
      ...refConfig.fixtures,
      environmentId: "no-such-env",
      workbookId: 987654,
      editableFolderId: 876543,
      scratchFolderIds: [765432],
      personalBranch: "no-such-branch",
    };
    const r = await cli("--config", writeConfig("bad-fixtures.json", { ...refConfig, fixtures }));
    oneLine(
      r,
      /fixtures\.environmentId "no-such-env".*fixtures\.workbookId 987654.*fixtures\.editableFolderId 876543.*fixtures\.scratchFolderIds 765432.*fixtures\.personalBranch "no-such-branch"/,
    );
  });
});

describe("run options", () => {
  it("--level must runs only MUST checks", async () => {
    const out = join(dir, "must");
    expect((await cli("--reference", "--read-only", "--level", "must", "--check", "deployments.*", "--reporter", "json", "--out", out)).code).toBe(0);
    const ids = JSON.parse(readFileSync(join(out, "report.json"), "utf8")).results.map((x: any) => x.id);
    expect(ids).toEqual(
      selectChecks(catalogue, undefined, ["deployments.*"])
        .filter((c) => c.level === "MUST")
        .map((c) => c.id),
    );
    oneLine(
      await cli("--reference", "--level", "must", "--check", "deployments.list.limit-zero-rejected"),
      /--level must leaves none of the 1 selected checks/,
    );
  });

  it("--fail-fast starts nothing after the first failure; the rest say so; exit 1, not interrupted", async () => {
    const out = join(dir, "fail-fast");
    const r = await cli(
      "--reference",
      "--fault",
      "deployments-total-off-by-one",
      "--check",
      "deployments.*",
      "--fail-fast",
      "--concurrency",
      "1",
      "--reporter",
      "json",
      "--out",
      out,
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.interrupted).toBe(false);
    const failed = report.results.filter((x: any) => x.status === "failed");
    expect(failed).toHaveLength(1);
    const notRun = report.results.filter((x: any) => x.message === `not run: --fail-fast stopped the run after ${failed[0].id} failed`);
    expect(notRun.length).toBeGreaterThan(0);
    // Invariants are not started as checks: they judge the exchanges the run made before it stopped.
    const started = report.results.filter((x: any) => x.kind !== "invariant");
    expect(started.length).toBeLessThan(report.results.length);
    expect(failed.length + notRun.length + started.filter((x: any) => x.status === "passed").length).toBe(started.length);
  });

  it("--token-file, CONFORMANCE_BASE_URL and a config without baseUrl; reporters and out from the config, beside it", async () => {
    const { baseUrl, token, ...rest } = refConfig;
    const tokenFile = join(dir, "token.txt");
    writeFileSync(tokenFile, `${token}\n`);
    const f = writeConfig("no-base-url.json", { ...rest, reporters: ["json"], out: "from-config" });
    const r = await withEnv({ CONFORMANCE_BASE_URL: baseUrl, CONFORMANCE_TOKEN: undefined }, () =>
      cli("--config", f, "--token-file", tokenFile, "--check", "deployments.list.schema"),
    );
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "from-config", "report.json"), "utf8")).target.baseUrl).toBe(baseUrl);
    expect(
      (
        await withEnv({ CONFORMANCE_TOKEN: token }, () =>
          cli("--config", f, "--base-url", baseUrl, "--check", "deployments.list.schema", "--reporter", "console"),
        )
      ).code,
    ).toBe(0);
    oneLine(await cli("--config", f, "--base-url", baseUrl, "--token-file", join(dir, "absent.txt")), /--token-file .*absent\.txt: cannot read it \(ENOENT\)/);
    oneLine(await withEnv({ CONFORMANCE_BASE_URL: undefined }, () => cli("--config", f, "--token", "x")), /no server to test/);
    // A bare `conformance` (no server, no token) is told where a run goes first, --reference among the ways.
    oneLine(await withEnv({ CONFORMANCE_BASE_URL: undefined, CONFORMANCE_TOKEN: undefined }, () => cli()), /^conformance: no server to test: .*--reference/);
  });

  it("--header goes on every request, through HTTP_PROXY unless NO_PROXY; a secret-looking value is never printed", async () => {
    const proxy = await tunnel();
    servers.push(proxy.server);
    const secret = "k3yV4lue0123456789abcdefXYZ";
    const f = writeConfig("headers.json", refConfig);
    const out = join(dir, "headers");
    const args = [
      "--config",
      f,
      "--check",
      "deployments.list.schema",
      "auth.*",
      "--header",
      "X-Tenant: acme",
      "--header",
      `X-Gateway-Key: ${secret}`,
      "--reporter",
      "console",
      "json",
      "har",
      "--out",
      out,
    ];
    const r = await withEnv({ HTTP_PROXY: proxy.url, NO_PROXY: undefined }, () => cli(...args));
    expect(r.code, r.err + r.out).toBe(0);
    const requests = proxy.seen
      .join("")
      .split(/\r\n\r\n/)
      .filter((t) => /^(GET|POST|PUT|DELETE|PATCH) /m.test(t));
    expect(requests.length).toBeGreaterThan(5);
    for (const q of requests) expect(q).toMatch(/x-tenant: acme/i);
    const har = readFileSync(join(out, "run.har"), "utf8");
    expect(har).toContain("acme");
    expect(har + readFileSync(join(out, "report.json"), "utf8") + r.out + r.err).not.toContain(secret);

    const before = proxy.seen.length;
    expect((await withEnv({ HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" }, () => cli("--config", f, "--check", "deployments.list.schema"))).code).toBe(0);
    expect(proxy.seen.length).toBe(before);
    oneLine(await cli("--config", f, "--header", "Authorization: Bearer x"), /--header Authorization: the API key goes in --token/);
    oneLine(await cli("--config", f, "--header", "no colon"), /--header must be 'Name: value'/);
  });

  it("TLS: an untrusted certificate, TLS spoken to a plain-HTTP port and plain HTTP to a TLS port each get one line", async () => {
    const fixture = (name: string) => readFileSync(join(root, "test", "fixtures", name));
    const tls = createHttps({ key: fixture("test-only-self-signed.key"), cert: fixture("test-only-self-signed.crt") }, (_, res) => res.end("{}"));
    const plain = createHttp((_, res) => res.end("{}"));
    servers.push(tls, plain);
    const port = async (s: Server) => (await new Promise<void>((r) => s.listen(0, "127.0.0.1", r)), (s.address() as AddressInfo).port);
    const [tlsPort, plainPort] = [await port(tls), await port(plain)];
    oneLine(
      await cli("--base-url", `https://127.0.0.1:${tlsPort}`, "--token", "x"),
      /certificate is not trusted \(self-signed certificate\); .*NODE_EXTRA_CA_CERTS/,
    );
    oneLine(await cli("--base-url", `https://127.0.0.1:${plainPort}`, "--token", "x"), /does not speak TLS on this port.*try http:\/\/127\.0\.0\.1/);
    oneLine(await cli("--base-url", `http://127.0.0.1:${tlsPort}`, "--token", "x"), /if the port speaks HTTPS, use https:\/\/127\.0\.0\.1/);
  });

  it("help about an unknown command, and --repeat without writes, are refused in one line", async () => {
    oneLine(await cli("help", "nosuch"), /unknown command 'nosuch'/);
    oneLine(await cli("--reference", "--read-only", "--repeat", "2", "--check", "upsert.create.*"), /--repeat .* needs --allow-writes/);
    oneLine(await cli("--config", writeConfig("repeat.json", refConfig), "--repeat", "3"), /--repeat .* needs --allow-writes/);
  });
});

describe("init", () => {
  it("against the reference writes a commented config that validates, and a run with writes passes with it", async () => {
    const file = join(dir, "init.json");
    const roles = {
      CONFORMANCE_TOKEN: refConfig.token,
      CONFORMANCE_TOKEN_READONLY: refConfig.tokens.readOnly,
      CONFORMANCE_TOKEN_NOAUDIT: undefined,
      CONFORMANCE_TOKEN_CREATOR: undefined,
    };
    const made = await withEnv(roles, () => cli("init", "--base-url", ref.url, "--output", file));
    expect(made.code, made.err).toBe(0);
    const config = JSON.parse(readFileSync(file, "utf8"));
    const { validateConfig } = await import("../core/api/settings.js");
    expect(validateConfig(config)).toEqual([]);
    expect(JSON.stringify(config)).not.toContain(refConfig.token);
    expect(config.fixtures).toEqual(
      expect.objectContaining({
        deploymentId: expect.any(String),
        environmentId: expect.any(String),
        workbookId: expect.any(Number),
        sharedBranch: expect.any(String),
        personalBranch: expect.any(String),
        productionBranch: expect.any(String),
      }),
    );
    // What it could not find says what it is for.
    expect(config.fixtures["//readOnlyFolderId"]).toMatch(/not discoverable.*read but not edit/);
    expect(config["//tokens"]).toMatch(/CONFORMANCE_TOKEN_READONLY set; GET \/api\/v1\/deployments answered it 200.*CONFORMANCE_TOKEN_NOAUDIT not set/);

    const out = join(dir, "init-run");
    const run = await withEnv(roles, () => cli("--config", file, "--allow-writes", "--runs", "5", "--seed", "8", "--reporter", "json", "--out", out));
    expect(run.code, run.out).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, "report.json"), "utf8")).summary;
    expect(summary).toEqual(expect.objectContaining({ failed: 0, blocked: 0, errored: 0 }));
    expect(summary.passed).toBeGreaterThan(140);

    oneLine(await withEnv(roles, () => cli("init", "--base-url", ref.url, "--output", file)), /exists: pass --force/);
  });
});

describe("the opt-ins of a deployment's lifecycle and of git operations (issue 21)", () => {
  const target = { baseUrl: "https://tenant.example.com", token: "t" };
  it("are off unless asked (flag or config), need writes, and exclude --read-only", () => {
    const off = settingsFrom({ ...target, allowWrites: true }, {});
    expect([off.deploymentLifecycle, off.gitOperations]).toEqual([false, false]);
    const flags = settingsFrom({ ...target, allowWrites: true, allowDeploymentLifecycle: true, allowGitOperations: true }, {});
    expect([flags.deploymentLifecycle, flags.gitOperations]).toEqual([true, true]);
    const file = settingsFrom(target, { writes: true, deploymentLifecycle: true, gitOperations: true });
    expect([file.deploymentLifecycle, file.gitOperations]).toEqual([true, true]);
    const noWrites = settingsFrom({ ...target, allowDeploymentLifecycle: true, allowGitOperations: true }, {});
    expect([noWrites.deploymentLifecycle, noWrites.gitOperations]).toEqual([false, false]);
    expect(() => checkRunOptions({ readOnly: true, allowGitOperations: true })).toThrow(/--read-only excludes .*--allow-git-operations/);
    expect(() => checkRunOptions({ readOnly: true, allowDeploymentLifecycle: true })).toThrow(/--allow-deployment-lifecycle/);
  });
});

import { HANG_GUARD } from "./reference-run.js";
import { describe, expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import type { RunOutcome } from "../core/run/result.js";
import { Schemas } from "../core/api/schemas.js";
import type { RunSettings } from "../core/api/settings.js";
import { selectChecks } from "../core/run/select.js";
import { catalogue } from "../suites/index.js";
import { firstDeployment } from "./api-snapshot.js";
import { startIndependentServer as startFirst } from "./independent-server/server.js";
import { startIndependentServer as startSecond } from "./independent-server-2/server.js";
import { startIndependentServer as startThird } from "./independent-server-3/server.js";
import { startIndependentServer as startFourth } from "./independent-server-4/server.js";
import { sweepSeeds } from "./sweep-seeds.js";

/**
 * Rule 6 of the house: servers we did not write. Each server under test/independent-server, -2, -3 and -4 was written by
 * someone who saw only the spec (the second and third also the platform facts; the third told to choose differently from the first two), told to choose differently
 * wherever the spec is open (each CHOICES.md lists every choice). A run with writes and no config
 * beyond the URL and key must pass: every MUST check passes or is skipped for the user's setup, or
 * not exercised / not verifiable, never failed, blocked or errored. A SHOULD finding is a verdict
 * on a real choice and is named here with why.
 */
type Server = Awaited<ReturnType<typeof startFirst>>;
const servers: { name: string; start: () => Promise<Server>; shouldFindings: Record<string, string> }[] = [
  {
    name: "independent-server",
    start: startFirst,
    shouldFindings: {
      "auth.reject.status-401": "it answers 403 to a key it never issued; the platform's documentation gives 401 for a missing, malformed or expired key",
      "bulk-delete.items.folder-contents-to-root":
        "a bulk delete of a folder deletes the workbooks in it too; the platform's documentation moves a deleted folder's direct contents to the root",
      "bulk-delete.items.folder-with-sub-folder-400":
        "a bulk delete of a folder deletes its sub-folders with it; the platform's documentation refuses (400) a folder that still has sub-folders",
      "deployment-update.negative.mistyped-fields": 'it reads "false" as false and applies the update; the refusal of a mistyped field is only implied',
      "staging.negative.broken-body-4xx":
        "it reads a null branchName beside a branchId as absent and applies the toggle to that branch; the refusal is only implied",
      "documented.resources.invalid-body-refused":
        "it reads a wrongly typed optional property of a folder (meta) as absent and creates the folder, where its document types the property: the refusal is only implied",
    },
  },
  {
    name: "independent-server-2",
    start: startSecond,
    shouldFindings: {
      "deployments.list.created-at-offset": "its date-times carry no UTC offset (the published document sets no format)",
      "env-vars.mask.any-other-case-marker": "it masks only upper-case markers; the spec lists them in upper case",
      "deployment-update.negative.mistyped-fields": "it takes a number for defaultLaunchpadViewGroup, whose type the spec does not show",
      "spec.document.no-breaking-drift": "its document does not mark E8's deprecated data as required, which the spec states it is",
      "documented.reads.match-document": "it refuses parentId=-1 on the folders list with a 400 its document does not list",
    },
  },
  {
    name: "independent-server-3",
    start: startThird,
    shouldFindings: {},
  },
  {
    name: "independent-server-4",
    // Its own rate limit (50 a second) would make this one run last minutes: at 300 a second, with
    // its burst of 100, a run still meets its 429s and Retry-After now and then.
    start: () => startFourth({ rateLimitPerSecond: 300 }),
    shouldFindings: {
      "deployment-update.negative.mistyped-fields":
        "it coerces a number sent for defaultLaunchpadViewGroup to the string its own document types it as, and applies it (Fastify's coerceTypes): a lenient reading",
      "tokens.negative.broken-body-4xx": "it reads expires_in: true as 1 (Fastify's coerceTypes) and issues the token: a lenient reading",
      "workspace.folders.one-level":
        "without parentId its folders list gives every folder of the deployment (parentId=0 gives the root); the platform's documentation lists the root level",
      "documented.resources.invalid-body-refused":
        "it coerces a wrongly typed value its document types as a string (a number in an OIDC claims mapping) and creates the object (Fastify's coerceTypes): a lenient reading",
    },
  },
];

const notAPass = (o: RunOutcome, findings: Record<string, string>) =>
  o.results
    .filter((r) => r.status === "failed" || r.status === "blocked" || r.status === "errored")
    .filter((r) => !(r.status === "failed" && r.level === "SHOULD" && r.id in findings));
const described = (o: RunOutcome, findings: Record<string, string>) =>
  notAPass(o, findings)
    .map((r) => `${r.status} ${r.level} ${r.id}: ${r.message} | expected ${r.expected} | got ${r.got}`)
    .join("\n");

async function runAgainst(
  start: () => Promise<Server>,
  settings: (server: Server) => Promise<Partial<RunSettings>> | Partial<RunSettings>,
  seed: number,
  checks = catalogue,
): Promise<RunOutcome> {
  const server = await start();
  try {
    const base: RunSettings = {
      baseUrl: server.url,
      token: server.token,
      tokens: {},
      fixtures: {},
      writes: true,
      unremovableWrites: true,
      deploymentChanges: false,
      timeoutMs: HANG_GUARD.requestMs,
      checkTimeoutMs: HANG_GUARD.checkMs,
      runs: 25,
      seed,
      strict: false,
      concurrency: 8,
    };
    return await runChecks(checks, { ...base, ...(await settings(server)) }, await Schemas.load());
  } finally {
    await server.close();
  }
}

describe.each(sweepSeeds().flatMap((seed) => servers.map((s) => ({ ...s, seed }))))(
  "a server written by someone else from the spec alone: $name, seed $seed",
  ({ start, shouldFindings, seed }) => {
    it("passes a run with writes and no config but its URL and key", async () => {
      const outcome = await runAgainst(start, () => ({}), seed);
      expect(described(outcome, shouldFindings)).toBe("");
      expect(outcome.leftovers).toEqual([]);
      // Most of the catalogue is judged there, not skipped: the run proves something.
      expect(outcome.results.filter((r) => r.status === "passed").length).toBeGreaterThan(catalogue.length / 2);
    });

    it("passes the deployment changes on a deployment named for them", async () => {
      // The test, not the suite, picks the deployment: naming it is the user's opt-in (README).
      const named = async (server: Server) => ({ deploymentChanges: true, fixtures: { mutableDeploymentId: await firstDeployment(server.url, server.token) } });
      const outcome = await runAgainst(start, named, seed, selectChecks(catalogue, ["deployment-update"]));
      expect(described(outcome, shouldFindings)).toBe("");
      expect(outcome.results.filter((r) => r.status === "passed").length).toBeGreaterThan(0);
    });
  },
);

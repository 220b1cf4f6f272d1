import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api } from "../core/api.js";
import { HttpClient, type Credential } from "../core/http.js";
import { requireAnswer } from "../core/preconditions.js";
import { Redactor } from "../core/redact.js";
import { Scratch } from "../core/scratch.js";
import { startReference, type RunningReference } from "../reference/server.js";
import { raceOnSlug } from "../suites/upsert-concurrency.js";

/**
 * The concurrency checks of E11 rule 5 prove something only if their race really reaches the 409
 * path: the reference's decide/apply window (upsertDelayMs) must be wide enough for it.
 */
describe("the E11 race of the concurrency checks", () => {
  let ref: RunningReference;
  let client: HttpClient;
  let api: Api;

  beforeAll(async () => {
    ref = await startReference();
    const token = (ref.config() as { token: string }).token;
    const credential: Credential = { role: "primary", value: token, envVar: "CONFORMANCE_TOKEN" };
    client = new HttpClient({ baseUrl: ref.url, timeoutMs: 5_000, redactor: new Redactor([token]), credential });
    api = new Api(client, credential, []);
  });

  afterAll(async () => {
    await client.close();
    await ref.close();
  });

  it("meets at least one 409 upsert_branch_changed on the clean reference, and nothing but 200 or 409", async () => {
    const scratch = new Scratch("race");
    const dep = String(ref.seeded.store.deployments[0].id);
    const race = await raceOnSlug({ api, scratch, require: requireAnswer }, dep);
    const statuses = race.writers.map((w) => w.res.status);
    expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    const conflicts = race.writers.filter((w) => w.res.status === 409);
    expect(conflicts.length).toBeGreaterThan(0);
    for (const w of conflicts) expect(w.res.body?.code).toBe("upsert_branch_changed");
    expect(await scratch.cleanup(api)).toEqual([]);
  });
});

import { expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { startReference } from "../reference/server.js";
import { catalogue, checksNamed } from "../suites/index.js";
import { describeResults, settingsFor } from "./reference-run.js";

/**
 * The checks of read-only access (Authentication 4) need a folder the readOnly key reads but may not
 * edit. A config that names none no longer skips them: the folder is found by a create the readOnly
 * key is refused (403) in it, and it is the one the config would have named.
 */
it("without fixtures.readOnlyFolderId, the read-only folder is found black-box and every check that needs it is judged", async () => {
  const ref = await startReference({});
  try {
    const settings = settingsFor(ref, { writes: true });
    // Passing shows the folder found is read-only for the key: forbidden-reported needs its item refused (403) and kept.
    const { readOnlyFolderId: _named, ...others } = settings.fixtures;
    const checks = catalogue.filter((c) =>
      ["reports.placement.read-access-suffices", "bulk-delete.items.forbidden-reported", "upsert.access.update-needs-edit"].includes(c.id),
    );
    expect(checks).toHaveLength(3);
    const outcome = await runChecks(checks, { ...settings, fixtures: others }, await Schemas.load());
    expect(
      outcome.results.map((r) => [r.id, r.status]),
      describeResults(outcome),
    ).toEqual(checks.map((c) => [c.id, "passed"]));
    expect(outcome.leftovers).toEqual([]);
  } finally {
    await ref.close();
  }
});

/**
 * Another check's scratch folder at the root is one the readOnly key may not edit either, but its
 * maker deletes it, maybe while the check that chose it still needs it (a Java blind server: the
 * clone check blocked, or failed once and then "passed" on re-runs that found the folder gone).
 */
it("a folder the tool made is never chosen as the read-only folder", async () => {
  const ref = await startReference({});
  try {
    const settings = settingsFor(ref, { writes: true });
    const { readOnlyFolderId: readOnly, ...others } = settings.fixtures;
    const dep = String(settings.fixtures.mutableDeploymentId);
    const at = (path: string, body: unknown) =>
      fetch(`${settings.baseUrl}/api/v1/deployments/${dep}/${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${settings.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // The only root folder the readOnly key may not edit is one named as another check of another run
    // would name it: the server's own read-only folder is moved out of the root first.
    const made = (await (await at("folders", { name: "cf-zz-abcdef-folder-1" })).json()) as any;
    const toolFolder = made.data?.id ?? made.id;
    expect(Number.isSafeInteger(toolFolder)).toBe(true);
    expect((await at("workspace/bulk-move", { folderId: settings.fixtures.editableFolderId, items: [{ type: "FOLDER", id: readOnly }] })).status).toBe(200);
    const probedIn: unknown[] = [];
    const outcome = await runChecks(
      checksNamed("clone.placement.read-only-to-root"),
      { ...settings, fixtures: { ...others, deploymentId: dep } },
      await Schemas.load(),
      {
        onExchange: (x) => {
          if (x.method === "POST" && new URL(x.url).pathname.endsWith("/folders")) probedIn.push(JSON.parse(String(x.requestBody ?? "{}")).parentId);
        },
      },
    );
    expect(
      outcome.results.map((r) => [r.status, r.skipKind]),
      describeResults(outcome),
    ).toEqual([["skipped", "not-exercised"]]);
    expect(probedIn.length).toBeGreaterThan(1);
    expect(probedIn).not.toContain(toolFolder);
  } finally {
    await ref.close();
  }
});

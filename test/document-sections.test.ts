import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { drift } from "../core/served/drift.js";
import { bundledOpenApi } from "../core/api/schemas.js";
import type { Report } from "../core/run/report.js";
import { cli } from "./report-run.js";

/** Operation coverage, --min-coverage and drift: the report sections read from the served document. */
describe("the served document's sections of a report", () => {
  it("report.json, the HTML and the console show each operation's statuses and checks; --min-coverage fails below it with one line", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "conformance-doc-")), "reports");
    // Only E1's and the document's own checks: most documented operations go unexercised.
    const run = await cli(
      "--reference",
      "--check",
      "deployments.list.schema",
      "spec.document.version",
      "--reporter",
      "console",
      "json",
      "html",
      "--out",
      out,
      "--min-coverage",
      "50",
      "--verbose",
    );
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as Report;
    const ops = report.operations!;
    expect(ops.documented).toBeGreaterThanOrEqual(14);
    const e1 = ops.operations.find((o) => o.method === "GET" && o.path === "/api/v1/deployments")!;
    expect([e1.exercised, e1.statuses.includes(200), e1.checks.includes("deployments.list.schema"), e1.spec]).toEqual([true, true, true, "E1"]);
    expect(ops.operations.find((o) => o.path.endsWith("/bulk-move"))!.exercised).toBe(false);
    expect(ops.percent).toBeLessThan(50);
    // The reference documents every operation it serves: none of the spec's E14 list is found served but undocumented.
    expect(ops.undocumented.filter((u) => u.verdict === "served")).toEqual([]);
    expect(run.code).toBe(1);
    expect(run.lines.filter((l) => l.includes("below --min-coverage 50%"))).toHaveLength(1);
    expect(run.out).toMatch(/NOT exercised POST \/api\/v1\/deployments\/\{deploymentId\}\/workspace\/bulk-move/);
    expect(readFileSync(join(out, "report.html"), "utf8")).toMatch(/Operations of the served document[\s\S]*operation-coverage/);
    expect(report.drift!.findings).toEqual([]);
  });

  it("a field the spec's two shapes type differently, documented as either type in one shape, is no breaking drift", async () => {
    const contract = await bundledOpenApi();
    const served: any = structuredClone(contract);
    // Resources / Environment: api_credentials is an array in the list shape and an object keyed by kind in the control-plane shape; both are the spec's.
    served.components.schemas.Environment = {
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" }, api_credentials: { type: ["array", "object"] } },
    };
    const d = await drift(contract, served);
    expect(d.findings.filter((f) => f.breaking && f.served?.includes("api_credentials"))).toEqual([]);
    // A type neither shape gives is still a change.
    served.components.schemas.Environment.properties.api_credentials = { type: ["array", "string"] };
    expect((await drift(contract, served)).findings.filter((f) => f.breaking && f.served?.includes("api_credentials")).map((f) => f.kind)).not.toEqual([]);
  });

  it("a type the spec does not show (E6's body fields), documented otherwise, is no breaking drift; a type it shows still is", async () => {
    const contract = await bundledOpenApi();
    const served: any = structuredClone(contract);
    // E6 names launchpadTabs and not its type: the contract's array is its own choice (the blind PHP server documents an object).
    served.components.schemas.UpdateDeploymentRequest.properties.launchpadTabs = { type: "object" };
    const d = await drift(contract, served);
    expect(d.findings.filter((f) => f.served?.includes("launchpadTabs")).map((f) => `${f.breaking} ${f.kind}`)).toEqual(["false type-differs-where-not-shown"]);
    // E9's Workbook types its fields: the same change there breaks.
    served.components.schemas.Workbook.properties.name = { type: "object" };
    expect((await drift(contract, served)).findings.filter((f) => f.breaking && f.served?.includes("/name")).map((f) => f.kind)).toContain("type-changed");
  });

  it("drift names breaking differences first, with both documents' pointers", async () => {
    const contract = await bundledOpenApi();
    const served: any = structuredClone(contract);
    delete served.paths["/api/v1/audit-logs/export"];
    // A value removed from a request's enum breaks clients that send it; from an answer's, it does not.
    served.paths["/api/v1/deployments/{deploymentId}/environments"].get.parameters.find((p: any) => p.name === "type").schema.enum = ["production", "staging"];
    served.components.schemas.Workbook.properties.type.enum = ["WORKBOOK", "REPORT", "NOTEBOOK"];
    // The spec states E3's required fields, and leaves E11's open: only the first is the spec's to break.
    served.components.schemas.MetadataTokenRequest.required = ["security_context", "expires_in"];
    served.components.schemas.UpsertWorkbookRequest.required = ["name"];
    served.components.schemas.Workbook.required = served.components.schemas.Workbook.required.filter((f: string) => f !== "meta");
    served.paths["/api/v1/regions/"] = { get: { responses: { "200": { description: "regions" } } } };
    const d = await drift(contract, served);
    const kinds = d.findings.map((f) => `${f.breaking ? "breaking" : "other"} ${f.kind}`);
    expect(kinds.slice(0, kinds.lastIndexOf(kinds.find((k) => k.startsWith("breaking"))!) + 1).every((k) => k.startsWith("breaking"))).toBe(true);
    expect(new Set(kinds)).toEqual(
      new Set([
        "breaking operation-missing",
        "breaking enum-value-removed",
        "breaking new-required-request-field",
        "breaking required-response-field-removed",
        "other enum-value-removed",
        "other enum-value-added",
        "other request-field-required-where-the-spec-is-open",
      ]),
    );
    const removed = d.findings.filter((f) => f.kind === "enum-value-removed");
    expect(removed.map((f) => [f.breaking, f.contract, f.served])).toEqual(
      expect.arrayContaining([
        [
          true,
          expect.stringMatching(/^#\/paths\/.*environments\/get\/parameters\/type\/schema$/),
          expect.stringMatching(/^#\/paths\/.*environments\/get\/parameters\/type\/schema$/),
        ],
        [false, expect.stringMatching(/^#\/paths\/.*\/properties\/type$/), expect.stringMatching(/^#\/paths\/.*\/properties\/type$/)],
      ]),
    );
    expect(d.beyondSpec.map((o) => o.path)).toContain("/api/v1/regions/");
  });
});

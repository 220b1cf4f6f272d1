import { describe, expect, it } from "vitest";
import type { Exchange } from "../core/transport/http.js";
import type { CheckResult } from "../core/run/result.js";
import { blockSharedDefects } from "../core/run/shared-defects.js";

/** Issue 20 §1: one defect, one failure: a schema defect belongs to the schema invariant, which blocks the checks that met it in other answers. */
const exchange = (method: string, url: string): Exchange => ({ method, url, requestHeaders: {}, status: 200, durationMs: 0, curl: "" });
const failed = (id: string, reason: string, x: Exchange, kind: CheckResult["kind"] = "example"): CheckResult => ({
  id,
  group: "g",
  title: id,
  spec: "E10",
  level: "MUST",
  kind,
  status: "failed",
  message: id,
  durationMs: 0,
  reason,
  exchange: x,
});

describe("a schema defect reads as the schema invariant's one failure", () => {
  it("a report kind outside the enum: the invariant fails, the clone-name and upsert-draft checks that met it in their own answers are blocked", () => {
    const out = blockSharedDefects([
      failed("resources.schema.every-answer", "schema:Workbook", exchange("GET", "http://h/api/v1/deployments/1/workbooks/7"), "invariant"),
      failed("clone.name.copy-of", "schema:Workbook", exchange("POST", "http://h/api/v1/deployments/1/workbooks/9/duplicate")),
      failed("upsert.draft.kept", "schema:Workbook", exchange("PUT", "http://h/api/v1/deployments/1/workbooks/by-slug/x")),
      failed("clone.name.other", "name", exchange("POST", "http://h/api/v1/deployments/1/workbooks/9/duplicate")),
      failed("envs.schema", "schema:Environment", exchange("GET", "http://h/api/v1/deployments/1/environments")),
    ]);
    expect(out.map((r) => `${r.id} ${r.status}`)).toEqual([
      "resources.schema.every-answer failed",
      "clone.name.copy-of blocked",
      "upsert.draft.kept blocked",
      "clone.name.other failed",
      "envs.schema failed",
    ]);
    expect(out[1].blockedBy).toMatch(/^resources\.schema\.every-answer: GET .*workbooks\/7 answered 200 \(schema:Workbook\)/);
  });
});

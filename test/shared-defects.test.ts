import { describe, expect, it } from "vitest";
import type { Exchange } from "../core/transport/http.js";
import type { CheckResult } from "../core/run/result.js";
import { blockSharedDefects } from "../core/run/shared-defects.js";
import { catalogue } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";

/** Issue 13 §5: one defect of one exchange reads as one failure, the other checks that met it blocked under it. */
describe("one defect reads as one failure", () => {
  it("a workbooks list whose cursor repeats: 1 failure (walk:repeated-cursor) and the other walkers blocked under it", async () => {
    const checks = catalogue.filter((c) => c.group === "pagination" || c.id.startsWith("workbooks.list."));
    const o = await runAgainstReference(checks, { faults: ["end-cursor-repeats-on-every-list"] });
    const failed = o.results.filter((r) => r.status === "failed");
    expect(
      failed.map((r) => `${r.id} ${r.reason}`),
      describeResults(o),
    ).toEqual([`${failed[0]?.id} walk:repeated-cursor`]);
    // A walk of the list filtered by folderId is another exchange, but the walk's defect is the list
    // rules' (issue 28): E8's folder filter, not a list rule, is blocked under the one that failed.
    const blocked = o.results.filter((r) => r.status === "blocked");
    expect(blocked.map((r) => r.id)).toContain("workbooks.list.folder-filter-every-page");
    expect(blocked.length).toBeGreaterThanOrEqual(3);
    for (const r of blocked)
      expect(r.blockedBy).toMatch(new RegExp(`^${failed[0].id.replace(/\./g, "\\.")}: GET .*/workbooks.* answered 200 \\(walk:repeated-cursor\\)`));
  });

  it("a malformed E3 created_at: 1 failure (the timestamps invariant) and every check that read it blocked under it", async () => {
    const checks = catalogue.filter((c) => c.group === "tokens" || c.group === "resources");
    const o = await runAgainstReference(checks, { faults: ["token-created-at-not-iso"], settings: { runs: 10 } });
    expect(
      o.results.filter((r) => r.status === "failed").map((r) => `${r.id} ${r.reason}`),
      describeResults(o),
    ).toEqual(["resources.timestamps.every-answer timestamp"]);
    const blocked = o.results.filter((r) => r.status === "blocked");
    expect(blocked.length).toBeGreaterThanOrEqual(5);
    expect(blocked.map((r) => r.id)).toContain("resources.schema.every-answer");
    for (const r of blocked) expect(r.blockedBy).toMatch(/^resources\.timestamps\.every-answer: POST .*\/tokens-for-meta-sync answered 200 \(timestamp\)/);
  });

  const exchange = (url: string, status = 200): Exchange => ({ method: "GET", url, requestHeaders: {}, status, durationMs: 0, curl: "" });
  const failed = (id: string, reason: string, x: Exchange, kind: CheckResult["kind"] = "example", spec = "E8; Pagination styles 2"): CheckResult => ({
    id,
    group: "g",
    title: id,
    spec,
    level: "MUST",
    kind,
    status: "failed",
    message: id,
    durationMs: 0,
    reason,
    exchange: x,
  });

  it("joins only the same shared reason on the same exchange (page position aside); a reason of its own stays failed; a walk's defect met by a rule not about lists is the list rule's", () => {
    const list = "http://h/api/v1/deployments/1/workbooks";
    const out = blockSharedDefects([
      failed("a.walk", "walk:repeated-cursor", exchange(`${list}?first=2&after=x`)),
      failed("b.walk", "walk:repeated-cursor", exchange(`${list}?first=5&after=y`)),
      failed("c.own", "same-id", exchange(`${list}?first=2&after=x`)),
      failed("d.other-list", "walk:repeated-cursor", exchange("http://h/api/v1/deployments/1/env-vars?after=x")),
      failed("e.filtered", "walk:repeated-cursor", exchange(`${list}?folderId=3&after=x`), "example", "E8 (folderId)"),
      failed("f.schema", "schema:Workbook", exchange(`${list}/7`)),
      failed("resources.schema.every-answer", "schema:Workbook", exchange(`${list}/7`), "invariant"),
    ]);
    expect(out.map((r) => `${r.id} ${r.status}`)).toEqual([
      "a.walk failed",
      "b.walk blocked",
      "c.own failed",
      "d.other-list failed",
      "e.filtered blocked",
      "f.schema blocked",
      "resources.schema.every-answer failed",
    ]);
    expect(out[1].blockedBy).toBe(`a.walk: GET ${list}?first=2&after=x answered 200 (walk:repeated-cursor)`);
    expect(out[4].root?.check).toBe("a.walk");
    expect(out[5].blockedBy).toMatch(/^resources\.schema\.every-answer: /);
  });

  it("a 5xx is the endpoint's defect: the no-5xx invariant and a no-5xx property on one endpoint read as one failure, under the endpoint's owner when it failed", () => {
    const put = (slug: string): Exchange => ({ ...exchange(`http://h/api/v1/deployments/1/workbooks/by-slug/${slug}`, 500), method: "PUT" });
    const invariant = failed("errors.no-5xx.every-exchange", "server-error", put("a"), "invariant");
    const property = failed("errors.no-5xx.valid-writes", "server-error", put("b"), "property");
    expect(blockSharedDefects([property, invariant]).map((r) => `${r.id} ${r.status}`)).toEqual([
      "errors.no-5xx.valid-writes blocked",
      "errors.no-5xx.every-exchange failed",
    ]);
    const owner = failed("upsert.create.absent-slug-creates", "status", put("c"));
    const out = blockSharedDefects([owner, property, invariant]);
    expect(out.map((r) => `${r.id} ${r.status}`)).toEqual([
      "upsert.create.absent-slug-creates failed",
      "errors.no-5xx.valid-writes blocked",
      "errors.no-5xx.every-exchange blocked",
    ]);
    expect(new Set(out.slice(1).map((r) => r.blockedBy))).toEqual(
      new Set(["upsert.create.absent-slug-creates: PUT /api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug} answered 500"]),
    );
  });

  it("checks failing for a reason of their own are one defect only on the very same request, its body too, answered alike", () => {
    // A blind Python server (issue 30): an example and a property both sent an empty releaseChannelVersion, answered 422.
    const put = (body: string, status = 422): Exchange => ({ ...exchange("http://h/api/v1/deployments/4", status), method: "PUT", requestBody: body });
    const out = blockSharedDefects([
      failed("deployment-update.version.unlisted-rejected", "status", put('{"releaseChannelVersion":""}')),
      failed("deployment-update.negative.unlisted-version", "status", put('{"releaseChannelVersion":""}'), "property"),
      failed("deployment-update.version.near-miss-forms", "status", put('{"releaseChannelVersion":"V1.7.20"}'), "property"),
      failed("deployment-update.other", "status", put('{"releaseChannelVersion":""}', 200)),
      failed("deployment-update.own-reason", "current-version", put('{"releaseChannelVersion":""}')),
    ]);
    expect(out.map((r) => `${r.id} ${r.status}`)).toEqual([
      "deployment-update.version.unlisted-rejected failed",
      "deployment-update.negative.unlisted-version blocked",
      "deployment-update.version.near-miss-forms failed",
      "deployment-update.other failed",
      "deployment-update.own-reason failed",
    ]);
    expect(out[1].blockedBy).toBe("deployment-update.version.unlisted-rejected: PUT http://h/api/v1/deployments/4 answered 422 (status)");
  });
});

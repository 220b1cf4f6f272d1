import { describe, expect, it } from "vitest";
import { ClassTally } from "../core/run/class-tally.js";
import { INPUT_DOMAINS } from "../core/api/input-domain.js";
import type { Exchange, FullAnswer } from "../core/transport/http.js";
import { catalogue } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";

/** One request as the transport's observe hook hands it over. */
function sent(method: string, url: string, body?: unknown): [Exchange, FullAnswer] {
  const u = new URL(url);
  const answer: FullAnswer = {
    method,
    url: u,
    requestBody: body === undefined ? undefined : JSON.stringify(body),
    status: 200,
    text: "{}",
    body: {},
    isJson: true,
  };
  return [{ method, url, status: 200 } as Exchange, answer];
}

/** Issue 29, section 4: the classes of each input a run sent are measured at the transport, and judged by the checks that reached a verdict. */
describe("the input-class tally", () => {
  it("tells each sent value's class, and counts a class judged only through a check with a verdict", () => {
    const tally = new ClassTally();
    tally.see(...sent("POST", "http://h/api/v1/deployments/1/environments/e/tokens-for-meta-sync", { security_context: {}, expires_in: 1_000_000_000 }), "a");
    tally.see(...sent("GET", "http://h/api/v1/deployments/1/workbooks?first=1"), "b");
    tally.see(...sent("PUT", "http://h/api/v1/deployments/1", { templateVariables: { K: "" } }), "a");
    const c = tally.coverage([
      { id: "a", status: "passed" },
      { id: "b", status: "skipped" },
    ]);
    const cls = (input: string, name: string) => c.inputs.find((i) => i.input === input)!.classes.find((k) => k.name === name)!;
    expect(cls("createMetadataToken /expires_in", "far-beyond-cap")).toMatchObject({ sent: 1, judgedBy: ["a"] });
    expect(cls("updateDeployment /templateVariables/*", "empty")).toMatchObject({ sent: 1, judgedBy: ["a"] });
    // Sent, but by a check without a verdict: not judged.
    expect(cls("listWorkbooks first", "minimum")).toMatchObject({ sent: 1, judgedBy: [] });
    expect(c.byRule.a).toContain("E3 /expires_in: far-beyond-cap");
  });

  it("every class the spec rules out quotes the sentence, and every input names an operation's field once", () => {
    const keys = INPUT_DOMAINS.map((d) => `${d.operation} ${d.section} ${d.field}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const d of INPUT_DOMAINS) for (const k of d.classes) if (k.ruledOut) expect(k.ruledOut).toMatch(/^(E\d+|Pagination|the served)/);
  });

  it("a run of the token properties judges every positive lifetime class of expires_in", async () => {
    const checks = catalogue.filter((c) => c.id === "tokens.lifetime.any-expires-in");
    const o = await runAgainstReference(checks, { settings: { runs: 100 } });
    const input = o.inputClasses!.inputs.find((i) => i.input === "createMetadataToken /expires_in")!;
    const judged = input.classes.filter((k) => k.judgedBy.includes("tokens.lifetime.any-expires-in")).map((k) => k.name);
    expect(judged.sort()).toEqual(["above-default", "default", "far-beyond-cap", "fractional", "one", "plausible"]);
  });
});

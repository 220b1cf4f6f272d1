import { describe, expect, it } from "vitest";
import { ClassTally, inputKey } from "../core/run/class-tally.js";
import { NOT_EXERCISED } from "../core/api/input-gaps.js";
import { INPUT_DOMAINS } from "../core/api/input-domain.js";
import type { Exchange, FullAnswer } from "../core/transport/http.js";
import { catalogue } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";
import { cli } from "./report-run.js";

/** One request as the transport's observe hook hands it over, with the answer it got. */
function sent(method: string, url: string, body?: unknown, answered: unknown = {}, status = 200): [Exchange, FullAnswer] {
  const u = new URL(url);
  const answer: FullAnswer = {
    method,
    url: u,
    requestBody: body === undefined ? undefined : JSON.stringify(body),
    status,
    text: JSON.stringify(answered),
    body: answered,
    isJson: true,
  };
  return [{ method, url, status } as Exchange, answer];
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

  it("tells a class that is a fact about the server's state from what the run was answered before it sent the value", () => {
    const tally = new ClassTally();
    const classesOf = (input: string) => (c: ReturnType<ClassTally["coverage"]>) =>
      c.inputs
        .find((i) => i.input === input)!
        .classes.filter((k) => k.sent)
        .map((k) => `${k.name} ${k.sent}`);
    // Before any answer named workbook 7, an id the run sends is one no object has.
    tally.see(...sent("GET", "http://h/api/v1/deployments/1/workbooks/7"), "c");
    tally.see(
      ...sent("GET", "http://h/api/v1/deployments/1/workbooks?first=1", undefined, { items: [{ id: 7, folderId: 3 }], pageInfo: { endCursor: "c1" } }),
      "c",
    );
    tally.see(...sent("GET", "http://h/api/v1/deployments/1/workbooks/7"), "c");
    tally.see(...sent("GET", "http://h/api/v1/deployments/2/workbooks/7"), "c");
    tally.see(...sent("GET", "http://h/api/v1/deployments/1/workbooks/3"), "c");
    tally.see(...sent("GET", "http://h/api/v1/deployments/1/workbooks?first=1&after=c1"), "c");
    tally.see(...sent("GET", "http://h/api/v1/deployments/1/workbooks?first=1&after=c9"), "c");
    // A delete the server applied makes the id one no object has again.
    tally.see(...sent("POST", "http://h/api/v1/deployments/1/workspace/bulk-delete", { items: [{ type: "WORKBOOK", id: 7 }] }), "c");
    tally.see(...sent("GET", "http://h/api/v1/deployments/1/workbooks/7"), "c");
    tally.see(...sent("GET", "http://h/api/v1/users", undefined, { items: [{ id: 1, email: "ann@example.com" }] }), "c");
    for (const search of ["ann@example.com", "ann", "example", "ANN@EXAMPLE.COM", "zed"])
      tally.see(...sent("GET", `http://h/api/v1/users?search=${search}`), "c");
    const c = tally.coverage([{ id: "c", status: "passed" }]);
    expect(classesOf("getWorkbook workbookId")(c)).toEqual(["existing 1", "missing 2", "other-deployment 1", "other-kind 1"]);
    expect(classesOf("listWorkbooks after")(c)).toEqual(["given 1", "made-up 1"]);
    expect(classesOf("listUsers search")(c)).toEqual(["exact 1", "prefix 1", "substring 1", "case-variant 1", "none-holds 1"]);
    expect(c.reached.c).toContain("E8 page>1");
  });

  it("every class the spec rules out quotes the sentence, and every input names an operation's field once", () => {
    const keys = INPUT_DOMAINS.map((d) => `${d.operation} ${d.section} ${d.field}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const d of INPUT_DOMAINS) for (const k of d.classes) if (k.ruledOut) expect(k.ruledOut).toMatch(/^(E\d+|Pagination|the served)/);
    // A gap said for an input or class the table does not hold would excuse nothing.
    for (const [input, gaps] of Object.entries(NOT_EXERCISED)) {
      const d = INPUT_DOMAINS.find((x) => inputKey(x) === input);
      expect(d, input).toBeDefined();
      for (const name of Object.keys(gaps)) expect(d!.classes.map((k) => k.name)).toContain(name);
    }
  });

  it("--min-class-coverage fails a run that judged fewer input classes, with one line", async () => {
    const run = await cli("--reference", "--check", "deployments.list.schema", "--min-class-coverage", "50");
    expect(run.code).toBe(1);
    expect(run.lines.filter((l) => /input class coverage [\d.]+% \(\d+ of \d+ classes judged\) is below --min-class-coverage 50%/.test(l))).toHaveLength(1);
  });

  it("a run of the token properties judges every positive lifetime class of expires_in", async () => {
    const checks = catalogue.filter((c) => c.id === "tokens.lifetime.any-expires-in");
    const o = await runAgainstReference(checks, { settings: { runs: 100 } });
    const input = o.inputClasses!.inputs.find((i) => i.input === "createMetadataToken /expires_in")!;
    const judged = input.classes.filter((k) => k.judgedBy.includes("tokens.lifetime.any-expires-in")).map((k) => k.name);
    expect(judged.sort()).toEqual(["above-default", "default", "far-beyond-cap", "fractional", "one", "plausible"]);
  });
});

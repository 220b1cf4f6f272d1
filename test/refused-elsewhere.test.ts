import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { selectChecks } from "../core/run/select.js";
import { catalogue } from "../suites/index.js";
import { refusingProxy } from "./refusing-proxy.js";

/**
 * Issue 28: a notification create refused for a field the suite never sent (`workbookId`, which
 * that server requires) was charged to the filter operator under test. A refusal that names
 * another field makes the rule not verifiable, with the server's words.
 */
describe("a refusal naming a field other than the one under test (issue 28)", () => {
  it("leaves the rule not verifiable, quoting the server, never failed", async () => {
    const proxy = await refusingProxy((req, url) =>
      req.method === "POST" && /\/notifications$/.test(url.pathname)
        ? { status: 422, body: { detail: [{ loc: ["body", "workbookId"], msg: "Field required", type: "missing" }] } }
        : undefined,
    );
    try {
      const { results } = await runChecks(selectChecks(catalogue, undefined, ["notifications.filters.empty-operators"]), proxy.settings, await Schemas.load());
      expect(results.map((r) => [r.status, r.skipKind])).toEqual([["skipped", "not-verifiable"]]);
      expect(results[0].message).toMatch(/workbookId.*Field required/);
    } finally {
      await proxy.close();
    }
  });
});

/**
 * Issue 28: embed access ("dashboard access per embed tenant or for all embed users") was set on a
 * bare workbook with no dashboard; a server's 400 for that is reasonable. The rule runs on a
 * workbook of the run's own that has a published dashboard.
 */
describe("a rule runs on an object that has what the rule is about (issue 28)", () => {
  it("embed access is set on a workbook with a published dashboard", async () => {
    const proxy = await refusingProxy(async (req, url, upstream) => {
      if (req.method !== "PUT" || !url.pathname.endsWith("/embed-access")) return undefined;
      const workbook = await fetch(upstream + url.pathname.replace(/\/embed-access$/, ""), { headers: { authorization: String(req.headers.authorization) } });
      const body = (await workbook.json()) as { publishedDashboard?: unknown };
      return body.publishedDashboard ? undefined : { status: 400, body: { error: "this workbook has no published dashboard to give access to" } };
    });
    try {
      const { results } = await runChecks(selectChecks(catalogue, undefined, ["embed.access.actions"]), proxy.settings, await Schemas.load());
      expect(results.map((r) => `${r.status}: ${r.message}`)).toEqual(["passed: "]);
    } finally {
      await proxy.close();
    }
  });
});

/**
 * Issue 28, point 2: E14 bodies from the server's own document and from a listed object of the
 * same kind. A server whose document types a notification's schedule as an object, needs one
 * recipient (an e-mail address) and a workbookId of a workbook it holds refuses a guessed body for
 * those fields; a body built from its document, with a workbook it lists, lets the rule be judged.
 */
describe("an E14 body built from the served document and a listed object (issue 28)", () => {
  const isCreate = (req: IncomingMessage, url: URL) => req.method === "POST" && /\/notifications$/.test(url.pathname);
  const json = (b: Buffer) => JSON.parse(b.toString() || "null");

  it("is accepted where a guessed schedule, an empty recipient list or a made-up workbook would be refused", async () => {
    const proxy = await refusingProxy(
      async (req, url, upstream, sent) => {
        if (!isCreate(req, url)) return undefined;
        const body = json(sent);
        const refuse = (field: string, msg: string) => ({ status: 422, body: { detail: [{ loc: ["body", field], msg }] } });
        if (typeof body?.schedule !== "object" || typeof body.schedule?.cron !== "string") return refuse("schedule", "Input should be a valid object");
        if (!Array.isArray(body.recipients) || !body.recipients.length || !body.recipients.every((r: unknown) => typeof r === "string" && r.includes("@")))
          return refuse("recipients", "List should have at least 1 item");
        if (!Number.isInteger(body.workbookId)) return refuse("workbookId", "Input should be a valid integer");
        const workbook = await fetch(`${upstream}${url.pathname.replace(/notifications$/, "workbooks")}/${body.workbookId}`, {
          headers: { authorization: String(req.headers.authorization) },
        });
        return workbook.status === 200 ? undefined : refuse("workbookId", "no such workbook");
      },
      {},
      {
        // The reference keeps its own shape: the schedule as a cron string.
        request: (req, url, sent) => (isCreate(req, url) ? Buffer.from(JSON.stringify({ ...json(sent), schedule: json(sent).schedule.cron })) : sent),
        answer: (req, url, answer) => {
          if (req.method !== "GET" || url.pathname !== "/api/v1/spec") return answer;
          const doc = json(answer);
          const shape = (write: any) => {
            write.properties.schedule = { type: "object", required: ["cron"], properties: { cron: { type: "string", minLength: 1 } } };
            write.properties.recipients = { type: "array", minItems: 1, items: { type: "string", format: "email" } };
          };
          shape(doc.components.schemas.NotificationWrite);
          // The create's body: the Write schema by reference beside its required fields, or (as the reference serves it) inlined whole.
          for (const op of Object.values<any>(doc.paths).map((p) => p.post?.requestBody?.content?.["application/json"]?.schema)) {
            const inlined = op?.title === "NotificationWrite";
            if (inlined) shape(op);
            if (inlined || op?.allOf?.[0]?.$ref === "#/components/schemas/NotificationWrite") op.required = [...op.required, "workbookId", "recipients"];
          }
          return Buffer.from(JSON.stringify(doc));
        },
      },
    );
    try {
      const { results } = await runChecks(selectChecks(catalogue, undefined, ["notifications.filters.empty-operators"]), proxy.settings, await Schemas.load());
      expect(results.map((r) => `${r.status}: ${r.message}`)).toEqual(["passed: "]);
    } finally {
      await proxy.close();
    }
  });
});

/**
 * Issue 28, point 3: the dbt rules run on a sync of the run's own. A server that runs one sync a
 * deployment at a time answers a start 409 while another runs (here someone else's, for 1.5 s from
 * the run's first start): the rules were left unverifiable; the start now waits for that sync to end.
 */
describe("the dbt rules run on a sync of the run's own (issue 28)", () => {
  it("a start answered 409 while another sync runs is sent again once that one ends", async () => {
    let busyUntil: number | undefined;
    const proxy = await refusingProxy((req, url) => {
      if (req.method !== "POST" || !url.pathname.endsWith("/dbt-sync")) return undefined;
      busyUntil ??= Date.now() + 1500;
      return Date.now() < busyUntil ? { status: 409, body: { error: "A dbt sync is already running for this deployment" } } : undefined;
    });
    try {
      const checks = selectChecks(catalogue, undefined, ["dbt-sync.run.poll-result-logs", "dbt-sync.cancel.stops", "dbt-sync.start.branch-and-ref"]);
      const { results } = await runChecks(checks, proxy.settings, await Schemas.load());
      expect(results.map((r) => `${r.id} ${r.status}: ${r.message}`)).toEqual(checks.map((c) => `${c.id} passed: `));
    } finally {
      await proxy.close();
    }
  });
});

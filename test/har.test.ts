import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { faultyRun } from "./report-run.js";

const addFormats = ((formatsModule as any).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

/** HAR 1.2 (the HTTP Archive spec, W3C Web Performance draft): the required members and their types. */
const nameValue = {
  type: "object",
  required: ["name", "value"],
  properties: { name: { type: "string" }, value: { type: "string" }, comment: { type: "string" } },
};
const HAR_1_2 = {
  type: "object",
  required: ["log"],
  properties: {
    log: {
      type: "object",
      required: ["version", "creator", "entries"],
      properties: {
        version: { const: "1.2" },
        creator: { type: "object", required: ["name", "version"], properties: { name: { type: "string" }, version: { type: "string" } } },
        pages: { type: "array" },
        entries: {
          type: "array",
          items: {
            type: "object",
            required: ["startedDateTime", "time", "request", "response", "cache", "timings"],
            properties: {
              startedDateTime: { type: "string", format: "date-time" },
              time: { type: "number", minimum: 0 },
              request: {
                type: "object",
                required: ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"],
                properties: {
                  method: { type: "string" },
                  url: { type: "string", format: "uri" },
                  httpVersion: { type: "string" },
                  cookies: { type: "array" },
                  headers: { type: "array", items: nameValue },
                  queryString: { type: "array", items: nameValue },
                  postData: {
                    type: "object",
                    required: ["mimeType"],
                    properties: { mimeType: { type: "string" }, text: { type: "string" }, params: { type: "array" } },
                  },
                  headersSize: { type: "integer" },
                  bodySize: { type: "integer" },
                },
              },
              response: {
                type: "object",
                required: ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"],
                properties: {
                  status: { type: "integer" },
                  statusText: { type: "string" },
                  httpVersion: { type: "string" },
                  cookies: { type: "array" },
                  headers: { type: "array", items: nameValue },
                  content: {
                    type: "object",
                    required: ["size", "mimeType"],
                    properties: { size: { type: "integer" }, mimeType: { type: "string" }, text: { type: "string" }, encoding: { type: "string" } },
                  },
                  redirectURL: { type: "string" },
                  headersSize: { type: "integer" },
                  bodySize: { type: "integer" },
                },
              },
              cache: { type: "object" },
              timings: {
                type: "object",
                required: ["send", "wait", "receive"],
                properties: { send: { type: "number", minimum: -1 }, wait: { type: "number", minimum: -1 }, receive: { type: "number", minimum: -1 } },
              },
            },
          },
        },
      },
    },
  },
};

let run: Awaited<ReturnType<typeof faultyRun>>;
beforeAll(async () => {
  run = await faultyRun(["har", "json"]);
});

describe("run.har", () => {
  it("is valid HAR 1.2", () => {
    const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(HAR_1_2);
    const har = JSON.parse(run.read("run.har"));
    expect(validate(har), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
  });

  it("holds every exchange of the run: at least the exchanges each result shows, in order of time", () => {
    const entries = JSON.parse(run.read("run.har")).log.entries as { request: { method: string; url: string }; startedDateTime: string }[];
    const urls = new Set(entries.map((e) => `${e.request.method} ${e.request.url}`));
    for (const r of run.report().results)
      for (const x of r.exchanges ?? []) expect(urls.has(`${x.method} ${x.url}`), `${r.id}: ${x.method} ${x.url}`).toBe(true);
    expect(entries.length).toBeGreaterThan(100);
  });

  it("keeps JSON bodies whole: every JSON answer's text parses, those past 2,000 characters included; report.json keeps the excerpts only", () => {
    const entries = JSON.parse(run.read("run.har")).log.entries as {
      response: { content: { size: number; mimeType: string; text?: string; comment?: string } };
    }[];
    const json = entries.map((e) => e.response.content).filter((c) => /json/.test(c.mimeType) && c.text);
    for (const c of json) expect(() => JSON.parse(c.text!), c.text!.slice(0, 200)).not.toThrow();
    expect(
      json.some((c) => c.text!.length > 2_000),
      "an answer longer than the excerpt",
    ).toBe(true);
    for (const c of entries.map((e) => e.response.content)) if (c.text === undefined && c.size > 64 * 1024) expect(c.comment).toMatch(/left out/);
    expect(run.read("report.json")).not.toMatch(/"whole"/);
  });

  it("holds no token: neither the API keys nor the metadata JWTs the run was issued", () => {
    const text = run.read("run.har");
    for (const secret of run.secrets) expect(text).not.toContain(secret);
    expect(text).toContain("Bearer [REDACTED]");
    // tokens.* created metadata tokens: their answers are in the archive, redacted.
    expect(text).toContain("tokens-for-meta-sync");
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+/);
  });
});

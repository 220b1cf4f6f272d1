import $RefParser from "@apidevtools/json-schema-ref-parser";
import type { Api } from "../core/api.js";
import { group } from "../core/check.js";
import type { Expect } from "../core/expect.js";
import type { Response } from "../core/http.js";

const SPEC_PATH = "/api/v1/spec";

/** The operations of E1–E13, as the spec names them; `{}` stands for any path parameter. */
const OPERATIONS = [
  { spec: "E1", method: "GET", path: "/api/v1/deployments" },
  { spec: "E2", method: "GET", path: "/api/v1/deployments/{}/environments" },
  { spec: "E3", method: "POST", path: "/api/v1/deployments/{}/environments/{}/tokens-for-meta-sync" },
  { spec: "E4", method: "PUT", path: "/build/api/v1/deployments/{}/branches/staging-environment" },
  { spec: "E5", method: "GET", path: "/api/v1/deployments/{}/versions" },
  { spec: "E6", method: "PUT", path: "/api/v1/deployments/{}" },
  { spec: "E7", method: "GET", path: "/api/v1/audit-logs/export" },
  { spec: "E8", method: "GET", path: "/api/v1/deployments/{}/workbooks" },
  { spec: "E9", method: "GET", path: "/api/v1/deployments/{}/workbooks/{}" },
  { spec: "E10", method: "POST", path: "/api/v1/deployments/{}/workbooks/{}/duplicate" },
  { spec: "E11", method: "PUT", path: "/api/v1/deployments/{}/workbooks/by-slug/{}" },
  { spec: "E12", method: "POST", path: "/api/v1/deployments/{}/workspace/bulk-move" },
  { spec: "E13", method: "GET", path: "/api/v1/deployments/{}/env-vars" },
];

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

async function servedDocument(api: Api, expect: Expect): Promise<{ doc: any; res: Response }> {
  const res = await api.get(SPEC_PATH);
  const doc = expect.ok(res);
  expect.that(doc !== null && typeof doc === "object" && !Array.isArray(doc), "the served description is a JSON object", { expected: "an OpenAPI document", got: typeof doc, res });
  return { doc, res };
}

/** `/api/v1/deployments/{deploymentId}/` and `/api/v1/deployments/{id}` read the same. */
const normalise = (path: string) => path.replace(/\{[^}]*\}/g, "{}").replace(/(.)\/+$/, "$1");

/** The path part of a server URL (`https://{tenant}.example.com/api/v1` -> `/api/v1`). */
const serverPath = (url: unknown) => (typeof url === "string" ? normalise(url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/^\{[^}]*\}/, "")) : "");

/** Every `METHOD path` the document describes, with its servers' path prefixes applied. */
function documentedOperations(doc: any): Set<string> {
  const out = new Set<string>();
  const topServers: any[] = Array.isArray(doc.servers) ? doc.servers : [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    if (!item || typeof item !== "object") continue;
    const servers = Array.isArray(item.servers) ? item.servers : topServers;
    const prefixes = new Set(["", ...servers.map((s: any) => serverPath(s?.url)).filter((p: string) => p !== "/")]);
    for (const method of HTTP_METHODS.filter((m) => item[m]))
      for (const prefix of prefixes) out.add(`${method.toUpperCase()} ${normalise(prefix + path)}`);
  }
  return out;
}

export const specChecks = group("spec", [
  {
    id: "spec.document.openapi-3-1",
    spec: "Versioning 1; E14 (GET /api/v1/spec)",
    level: "MUST",
    title: "GET /api/v1/spec answers an OpenAPI 3.1 document (openapi 3.1.x)",
    async run({ api, expect }) {
      const { doc, res } = await servedDocument(api, expect);
      expect.that(typeof doc.openapi === "string" && /^3\.1\.\d+$/.test(doc.openapi), "the document declares OpenAPI 3.1", { reason: "openapi-version", expected: "openapi 3.1.x", got: doc.openapi, res });
    },
  },
  {
    id: "spec.document.version",
    spec: "Versioning 1",
    level: "MUST",
    title: "The served document's info.version is 1.0.0",
    async run({ api, expect }) {
      const { doc, res } = await servedDocument(api, expect);
      expect.equal(doc.info?.version, "1.0.0", "info.version is 1.0.0", { res, reason: "info-version" });
    },
  },
  {
    id: "spec.document.title",
    spec: "Versioning 1 (titled as a platform API)",
    level: "SHOULD",
    title: "The served document's info.title names a platform API",
    async run({ api, expect }) {
      const { doc, res } = await servedDocument(api, expect);
      const title = doc.info?.title;
      expect.that(typeof title === "string" && /platform/i.test(title) && /\bAPI\b/i.test(title), "info.title names a platform API", { reason: "title", expected: "a title with 'Platform' and 'API'", got: title, res });
    },
  },
  {
    id: "spec.document.dereferences",
    spec: "Versioning 1; E14 (the full OpenAPI 3.1 document)",
    level: "MUST",
    title: "Every $ref of the served document resolves inside it",
    async run({ api, expect }) {
      const { doc, res } = await servedDocument(api, expect);
      // No file or URL is fetched: the document is the full one, and the tester's disk is not its to read.
      const problem = await $RefParser
        .dereference(structuredClone(doc), { resolve: { file: false, http: false } })
        .then(() => undefined, (err: Error) => err.message);
      expect.that(problem === undefined, "the document dereferences without a dangling or external $ref", { reason: "dereferences", expected: "every $ref resolved", got: problem, res });
    },
  },
  {
    id: "spec.operations.documented",
    spec: "Versioning 1; E1–E13",
    // SHOULD: the spec says the document describes the interface, not that it lists each of E1–E13 (the platform's published document has no audit-log export).
    level: "SHOULD",
    title: "The served document describes every operation of E1–E13 (method and path)",
    async run({ api, expect }) {
      const { doc, res } = await servedDocument(api, expect);
      const documented = documentedOperations(doc);
      const missing = OPERATIONS.filter((op) => !documented.has(`${op.method} ${op.path}`)).map((op) => `${op.spec} ${op.method} ${op.path}`);
      expect.that(missing.length === 0, "every E1–E13 operation is in paths", { reason: "operations", expected: "all of E1–E13", got: `missing: ${missing.join("; ")}`, res });
    },
  },
]);

import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import type { ServedRead } from "../../core/served/read.js";
import { operationsOf } from "../../core/served/served-document.js";
import { operationKey } from "../../core/api/match.js";
import { SPECIFIED } from "../../core/api/spec-operations.js";
import { drift } from "../../core/served/drift.js";
import { NotExercised } from "../../core/model/outcome.js";
import { pointerToken } from "../../core/model/json-pointer.js";
import { operation } from "../../core/api/operations.js";
import { declaring, REMOVED_SESSION_FIELD, removedEndpoint } from "./removals.js";

/** The run's one read of the document (core/served/read.ts), judged here: these checks are about the document itself. */
async function servedDocument({
  servedDocument,
  expect,
}: Pick<CheckContext, "servedDocument" | "expect">): Promise<{ doc: any; res: Response; read: ServedRead }> {
  const read = await servedDocument();
  const res = read.res;
  const doc = expect.ok(res);
  expect.that(doc !== null && typeof doc === "object" && !Array.isArray(doc), "the served description is a JSON object", {
    expected: "an OpenAPI document",
    got: typeof doc,
    res,
    reason: "not-an-object",
  });
  return { doc, res, read };
}

/** JSON pointers of every enum or const of the document that offers the value. */
function offering(node: unknown, value: string, at = "#"): string[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => offering(v, value, `${at}/${i}`));
  if (!node || typeof node !== "object") return [];
  const o = node as Record<string, unknown>;
  const here = (Array.isArray(o.enum) && o.enum.includes(value)) || o.const === value ? [at] : [];
  return [...here, ...Object.entries(o).flatMap(([k, v]) => offering(v, value, `${at}/${pointerToken(k)}`))];
}

export const specChecks = group("spec", [
  {
    id: "spec.document.openapi-3-1",
    spec: "Versioning 1; E14 (GET /api/v1/spec)",
    level: "MUST",
    title: "GET /api/v1/spec answers an OpenAPI 3.1 document (openapi 3.1.x)",
    async run(ctx) {
      const { expect } = ctx;
      const { doc, res } = await servedDocument(ctx);
      expect.that(typeof doc.openapi === "string" && /^3\.1\.\d+$/.test(doc.openapi), "the document declares OpenAPI 3.1", {
        expected: "openapi 3.1.x",
        got: doc.openapi,
        res,
        reason: "openapi-version",
      });
    },
  },
  {
    id: "spec.document.version",
    spec: "Versioning 1",
    level: "MUST",
    title: "The served document's info.version is 1.0.0",
    async run(ctx) {
      const { expect } = ctx;
      const { doc, res } = await servedDocument(ctx);
      expect.equal(doc.info?.version, "1.0.0", "info.version is 1.0.0", { res, reason: "info-version" });
    },
  },
  {
    id: "spec.document.title",
    spec: "Versioning 1 (titled as a platform API)",
    level: "SHOULD",
    title: "The served document's info.title names a platform API",
    async run(ctx) {
      const { expect } = ctx;
      const { doc, res } = await servedDocument(ctx);
      const title = doc.info?.title;
      expect.that(typeof title === "string" && /platform/i.test(title) && /\bAPI\b/i.test(title), "info.title names a platform API", {
        expected: "a title with 'Platform' and 'API'",
        got: title,
        res,
        reason: "title",
      });
    },
  },
  {
    id: "spec.document.dereferences",
    spec: "Versioning 1; E14 (the full OpenAPI 3.1 document)",
    level: "MUST",
    title: "Every $ref of the served document resolves inside it",
    async run(ctx) {
      const { expect } = ctx;
      const { res, read } = await servedDocument(ctx);
      const problem = read.problem?.kind === "not-dereferenced" ? read.problem.message : undefined;
      expect.that(problem === undefined, "the document dereferences without a dangling or external $ref", {
        expected: "every $ref resolved",
        got: problem,
        res,
        reason: "dangling-ref",
      });
    },
  },
  {
    id: "spec.operations.documented",
    spec: "Versioning 1; E1–E13",
    // The platform's published document has no audit-log export: a document that lacks an
    // operation the server serves is incomplete, not a server that breaks a stated rule.
    level: "SHOULD",
    title: "The served document describes every operation of E1–E13 (method and path)",
    async run(ctx) {
      const { expect } = ctx;
      const { doc, res, read } = await servedDocument(ctx);
      // The model's operations; a document that does not dereference is listed as served (spec.document.dereferences judges it).
      const documented = new Set((read.model?.operations ?? operationsOf(doc)).map((o) => o.key));
      const missing = SPECIFIED.filter((op) => !documented.has(operationKey(op.method, op.path))).map((op) => `${op.spec} ${op.method} ${op.path}`);
      expect.that(missing.length === 0, "every E1–E13 operation is in paths", {
        expected: "all of E1–E13",
        got: `missing: ${missing.join("; ")}`,
        res,
        reason: "operation-missing",
      });
    },
  },
  {
    id: "spec.document.no-tabs-container",
    spec: "Resources / DashboardWidget; Versioning 3",
    level: "MUST",
    title: "The served document no longer advertises the widget type TABS_CONTAINER (in no enum or const)",
    async run(ctx) {
      const { expect } = ctx;
      const { doc, res } = await servedDocument(ctx);
      const at = offering(doc, "TABS_CONTAINER");
      expect.that(at.length === 0, "no schema of the document offers TABS_CONTAINER", {
        expected: "TABS_CONTAINER in no enum or const",
        got: at.join(", "),
        res,
        reason: "tabs-container-advertised",
      });
    },
  },
  {
    id: "spec.document.revision-paths",
    spec: "Versioning 3; E14",
    // A stated revision: 0.3.0 "path of embed tenant deletion lost its trailing slash".
    level: "MUST",
    title: "The served document writes embed tenant deletion as revision 0.3.0 left it: without its trailing slash",
    async run(ctx) {
      const { expect } = ctx;
      const { doc, res } = await servedDocument(ctx);
      const paths = doc?.paths && typeof doc.paths === "object" ? (doc.paths as Record<string, any>) : {};
      // The trailing slash is what the revision changed: the table's path with one, under any placeholder name.
      const now = operation("deleteEmbedTenant");
      const old = Object.keys(paths).filter((p) => p.endsWith("/") && paths[p]?.delete && operationKey("DELETE", p) === operationKey(now.method, now.path));
      expect.that(old.length === 0, "no DELETE of an embed tenant under its pre-0.3.0 path (with a trailing slash)", {
        expected: `DELETE ${now.path}`,
        got: old.map((p) => `DELETE ${p}`).join(", "),
        res,
        reason: "pre-revision-path",
      });
    },
  },
  {
    id: "spec.document.no-removed-session-field",
    spec: "Versioning 3; E14 (GET /api/v1/spec: the full OpenAPI 3.1 document)",
    // A stated revision: 0.2.0 removed "the ephemeralTtlSeconds session field". Where sessions are described is not shown: any schema is looked at.
    level: "MUST",
    title: "The served document describes no ephemeralTtlSeconds property, the session field revision 0.2.0 removed",
    async run(ctx) {
      const { doc, res } = await servedDocument(ctx);
      const at = declaring(doc, REMOVED_SESSION_FIELD);
      ctx.expect.that(at.length === 0, `no schema of the document declares ${REMOVED_SESSION_FIELD}`, {
        expected: `${REMOVED_SESSION_FIELD} in no schema's properties`,
        got: at.join(", "),
        res,
        reason: "removed-field-described",
      });
    },
  },
  {
    id: "spec.document.no-removed-endpoints",
    spec: "Versioning 3; E14 (GET /api/v1/spec: the full OpenAPI 3.1 document)",
    // SHOULD: the revision history names the removed endpoints, not their paths; a path is told by the words it is made of (suites/spec/removals.ts).
    level: "SHOULD",
    title:
      "The served document lists none of the endpoints the revision history removed, as their names tell them: an AI widget thread id store (0.4.0), the active agent region (0.3.0), the embed-tenant user-attribute list and delete (0.2.0)",
    async run(ctx) {
      const { doc, res, read } = await servedDocument(ctx);
      const listed = (read.model?.operations ?? operationsOf(doc)).flatMap((o) => {
        const was = removedEndpoint(o.method, o.path);
        return was ? [`${o.method} ${o.path} (${was})`] : [];
      });
      ctx.expect.that(listed.length === 0, "no operation of the document is one the revision history removed", {
        expected: "none of the removed endpoints",
        got: listed.join("; "),
        res,
        reason: "removed-endpoint-listed",
      });
    },
  },
  {
    id: "spec.document.no-breaking-drift",
    spec: "Versioning 1; E1–E13",
    // The document is the server's own description; the spec states the resources, not how a
    // document must word them: a contradiction is a finding, not a broken stated rule.
    level: "SHOULD",
    title:
      "The served document describes E1–E13 as the spec does: no required answer field or success status dropped, no type narrowed or changed, no enum value removed, no new required request field or parameter",
    async run(ctx) {
      const { expect, schemas } = ctx;
      const { doc, res } = await servedDocument(ctx);
      const report = await drift(schemas.document, doc).catch(() => undefined);
      if (!report) throw new NotExercised("the served document does not dereference (spec.document.dereferences says why)");
      // A missing operation is spec.operations.documented's finding.
      const breaking = report.findings.filter((f) => f.breaking && f.kind !== "operation-missing");
      expect.that(breaking.length === 0, "no breaking difference from the spec's E1–E13", {
        expected: "none",
        got: breaking.map((f) => `${f.kind}: ${f.message} (contract ${f.contract}, served ${f.served ?? "-"})`).join("; "),
        res,
        reason: "breaking-drift",
      });
    },
  },
  {
    id: "spec.document.bearer-security",
    spec: "Authentication 1 (HTTP bearer: Authorization: Bearer <API_KEY>); E14 (GET /api/v1/spec: the full OpenAPI 3.1 document)",
    // SHOULD: the spec states bearer authentication, and that the document is the API's; it does not say the document must declare it.
    level: "SHOULD",
    title:
      "Where the served document declares security schemes, one is HTTP bearer (type http, scheme bearer), as Authentication 1 says: a client generated from it sends Bearer <API_KEY>",
    async run(ctx) {
      const { doc, res } = await servedDocument(ctx);
      const schemes = doc?.components?.securitySchemes;
      if (!schemes || typeof schemes !== "object" || !Object.keys(schemes).length)
        throw new NotExercised("the served document declares no security scheme: how it says the key is sent is not shown");
      const bearer = Object.values(schemes).some((s: any) => String(s?.type).toLowerCase() === "http" && String(s?.scheme).toLowerCase() === "bearer");
      ctx.expect.that(bearer, "one security scheme of the served document is HTTP bearer", {
        expected: '{"type": "http", "scheme": "bearer"}',
        got: schemes,
        res,
        reason: "bearer-scheme",
      });
    },
  },
]);

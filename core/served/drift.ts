import { dereference } from "../api/dereference.js";
import { type Operation, operationsOf } from "./served-document.js";
import { operationKey } from "../api/match.js";
import { SPECIFIED } from "../api/spec-operations.js";
import { pointerKey, pointerToken } from "../model/json-pointer.js";

/**
 * The served document against the bundled contract (schemas/openapi.json), for the operations of
 * E1–E13, in the classes oasdiff calls breaking: an operation or a documented success status
 * missing, a required answer field gone or made optional, a type narrowed or changed, an enum
 * value removed, a new required request field or parameter. The rest (fields and values added,
 * types widened) follows; what the server documents beyond the spec is listed as such. Each
 * finding names the place in both documents by JSON pointer (into the documents as served,
 * $refs followed).
 */
export interface DriftFinding {
  breaking: boolean;
  kind: string;
  message: string;
  contract: string;
  served?: string;
}

export interface DriftReport {
  findings: DriftFinding[];
  /** Operations of the served document that E1–E13 do not name. */
  beyondSpec: { method: string; path: string; pointer: string }[];
}

type Side = "request" | "response";
const MAX_DEPTH = 12;

/** A schema of free text: type string (or string and null), no enum of values. */
const isText = (s: any) => {
  const t = typesOf(s);
  return !!t && t.has("string") && [...t].every((x) => x === "string" || x === "null") && !enumOf(s);
};

function typesOf(s: any): Set<string> | undefined {
  if (!s || typeof s !== "object") return undefined;
  if (typeof s.type === "string") return new Set([s.type]);
  if (Array.isArray(s.type)) return new Set(s.type);
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) {
    const all = branches.map(typesOf);
    return all.every(Boolean) ? new Set(all.flatMap((t) => [...t!])) : undefined;
  }
  if (s.properties) return new Set(["object"]);
  return undefined;
}

/** A schema's variants (oneOf/anyOf branches, nested ones flattened) that are not null alone, with their pointers; itself when it has none. */
function variantsOf(s: any, at: string): [any, string][] {
  const key = Array.isArray(s?.oneOf) ? "oneOf" : Array.isArray(s?.anyOf) ? "anyOf" : undefined;
  if (!key) return [[s, at]];
  // Branches that only add to the schema beside them (`required: [branchName]`) are read with it.
  if (s.properties) return [[s, at]];
  const parts = (s[key] as any[]).flatMap((b, i) => (b && typeof b === "object" ? variantsOf(b, `${at}/${key}/${i}`) : []));
  const notNull = parts.filter(([b]) => !(b.type === "null" || b.const === null || (Array.isArray(b.enum) && b.enum.every((v: unknown) => v === null))));
  return notNull.length ? notNull : [[s, at]];
}

/**
 * Variants as one object: every field of any, required only where all require it. A field the
 * variants type differently (an array in one shape, an object keyed by kind in the other) takes
 * any of their schemas: the spec accepts each shape, so a document that allows both at that field
 * widens nothing the spec does not.
 */
function merged(variants: any[]): any {
  const required = variants.map((v) => new Set<string>(v.required ?? []));
  const keys = [...new Set(variants.flatMap((v) => Object.keys(v.properties ?? {})))];
  const properties = Object.fromEntries(
    keys.map((k) => {
      const schemas = [...new Set(variants.map((v) => v.properties?.[k]).filter((p) => p !== undefined))];
      return [k, schemas.length === 1 ? schemas[0] : { anyOf: schemas }];
    }),
  );
  return { type: "object", properties, required: keys.filter((k) => required.every((r) => r.has(k))) };
}

/** Every value an enum (or const) of the schema or its variants offers, null for a null variant; undefined when any variant is open. */
function enumOf(s: any): unknown[] | undefined {
  if (!s || typeof s !== "object") return undefined;
  if (Array.isArray(s.enum)) return s.enum;
  if ("const" in s) return [s.const];
  if (s.type === "null") return [null];
  const branches = s.oneOf ?? s.anyOf;
  if (!Array.isArray(branches)) return undefined;
  const all = branches.map(enumOf);
  return all.every(Boolean) ? all.flat() : undefined;
}

/** `integer` is a `number`: a set of types covers another when each of its types is in it, or is an integer under a number. */
const covers = (a: Set<string>, b: Set<string>) => [...b].every((t) => a.has(t) || (t === "integer" && a.has("number")));

/**
 * The resources and bodies whose table in the spec has a Required column (Resources, E3, E4): only
 * there is a field's required-ness the spec's, not the contract's choice, and a document that
 * drops or adds it breaks something.
 */
/**
 * The bodies whose fields the spec names without their types (E6: "Update-deployment field types
 * beyond the names listed: not shown"): the contract's types there are its own plausible choices,
 * and a document that types a field otherwise breaks nothing the spec states.
 */
const TYPES_NOT_SHOWN = new Set(["UpdateDeploymentRequest"]);

/** Where a comparison stands: inside a resource whose required fields the spec states, and inside one whose types it does not show. */
interface Scope {
  stated: boolean;
  untyped: boolean;
}

const REQUIRED_STATED = new Set([
  "Workbook",
  "WorkbooksListResponse",
  "PageInfo",
  "ResourceOwner",
  "DashboardWidget",
  "Dashboard",
  "ReportSnapshot",
  "MetadataTokenRequest",
  "StagingToggleRequest",
]);

class Comparison {
  readonly findings: DriftFinding[] = [];
  /** Pairs compared already: shared (and circular) schemas are compared once. */
  private readonly seen = new WeakMap<object, WeakSet<object>>();

  add(breaking: boolean, kind: string, message: string, contract: string, served?: string): void {
    this.findings.push({ breaking, kind, message, contract, served });
  }

  /** `scope.stated`: inside a resource whose required fields the spec states (its tables' Required column); `scope.untyped`: inside a body whose types it does not show. */
  schema(c: any, s: any, cAt: string, sAt: string, side: Side, depth = 0, outer: Scope = { stated: false, untyped: false }): void {
    if (!c || !s || typeof c !== "object" || typeof s !== "object" || depth > MAX_DEPTH || this.seen.get(c)?.has(s)) return;
    const scope = { stated: outer.stated || REQUIRED_STATED.has(c.title), untyped: outer.untyped || TYPES_NOT_SHOWN.has(c.title) };
    this.seen.set(c, (this.seen.get(c) ?? new WeakSet()).add(s));
    // Types and enums are compared over the whole of each side, variants and null included.
    const ct = typesOf(c);
    const st = typesOf(s);
    if (ct && st && scope.untyped) {
      if (!covers(st, ct) || !covers(ct, st))
        this.add(false, "type-differs-where-not-shown", `type ${[...ct].join("|")} documented as ${[...st].join("|")}, where the spec shows no type`, cAt, sAt);
    } else if (ct && st) {
      // A request that takes fewer types refuses what clients send; an answer of fewer types is
      // still one the spec allows (a server that never answers null documents no null): no drift.
      if (!covers(st, ct) && covers(ct, st)) {
        if (side === "request") this.add(true, "type-narrowed", `type ${[...ct].join("|")} narrowed to ${[...st].join("|")}`, cAt, sAt);
      } else if (!covers(st, ct)) this.add(true, "type-changed", `type ${[...ct].join("|")} changed to ${[...st].join("|")}`, cAt, sAt);
      else if (!covers(ct, st)) this.add(side === "response", "type-widened", `type ${[...ct].join("|")} widened to ${[...st].join("|")}`, cAt, sAt);
    }
    const cEnum = enumOf(c);
    const sEnum = enumOf(s);
    if (cEnum && sEnum) {
      const removed = cEnum.filter((v) => !sEnum.some((w) => JSON.stringify(w) === JSON.stringify(v)));
      const added = sEnum.filter((v) => !cEnum.some((w) => JSON.stringify(w) === JSON.stringify(v)));
      // A request that takes fewer values refuses what clients send; an answer of fewer values is
      // still one the spec allows (a server that never answers null lists no null): no break.
      if (removed.length) this.add(side === "request", "enum-value-removed", `enum value(s) ${JSON.stringify(removed)} removed`, cAt, sAt);
      if (added.length) this.add(false, "enum-value-added", `enum value(s) ${JSON.stringify(added)} added`, cAt, sAt);
    }
    // Documented variants of a shape (a legacy and a current list shape) are all the spec's: each
    // served variant is compared with the contract's variant it differs least from, never with
    // the union, whose own fields are none.
    const cParts = variantsOf(c, cAt);
    // A served shape may carry the fields of several variants at once (a list answering its
    // current and its deprecated shape together): the contract's variants merged are a candidate too.
    if (cParts.length > 1) cParts.push([merged(cParts.map(([v]) => v)), cAt]);
    const sParts = variantsOf(s, sAt);
    for (const [sv, svAt] of sParts) {
      const tries = cParts.map(([cv, cvAt]) => {
        if (cParts.length === 1) return { findings: undefined, cv, cvAt };
        const trial = new Comparison();
        trial.fields(cv, sv, cvAt, svAt, side, depth, scope);
        return { findings: trial.findings, cv, cvAt };
      });
      const weight = (fs: DriftFinding[] | undefined) => (fs ?? []).reduce((n, f) => n + (f.breaking ? 100 : 1), 0);
      const best = tries.sort((x, y) => weight(x.findings) - weight(y.findings))[0];
      if (!best) continue;
      if (best.findings) this.findings.push(...best.findings);
      else this.fields(best.cv, sv, best.cvAt, svAt, side, depth, scope);
    }
  }

  /** The fields of one variant on each side: required-ness, each property, the items. */
  private fields(c: any, s: any, cAt: string, sAt: string, side: Side, depth: number, scope: Scope): void {
    const { stated } = scope;
    const cReq = new Set<string>(c.required ?? []);
    const sReq = new Set<string>(s.required ?? []);
    const cProps: Record<string, any> = c.properties ?? {};
    const sProps: Record<string, any> = s.properties ?? {};
    // A contract object that names no field (its shape "not shown" in the spec) is open: a served document's fields add nothing to compare.
    const open = !c.properties && !c.items;
    for (const [name, sub] of Object.entries(cProps)) {
      const at = (base: string) => `${base}/properties/${pointerToken(name)}`;
      if (!(name in sProps)) {
        if (side === "response" && cReq.has(name)) this.add(true, "required-response-field-removed", `required answer field ${name} removed`, at(cAt), sAt);
        else this.add(false, `${side}-field-removed`, `${side} field ${name} removed`, at(cAt), sAt);
        continue;
      }
      // Where the spec leaves required-ness open, the contract's `required` is ours, and a document that does not repeat it takes nothing away.
      if (side === "response" && stated && cReq.has(name) && !sReq.has(name))
        this.add(true, "required-response-field-removed", `answer field ${name} is no longer required`, at(cAt), at(sAt));
      this.schema(sub, sProps[name], at(cAt), at(sAt), side, depth + 1, scope);
    }
    for (const name of Object.keys(sProps).filter((n) => !(n in cProps) && !open)) {
      const newRequired = side === "request" && sReq.has(name);
      this.add(
        newRequired,
        newRequired ? "new-required-request-field" : `${side}-field-added`,
        `${side} field ${name} added${newRequired ? ", required" : ""}`,
        cAt,
        `${sAt}/properties/${pointerToken(name)}`,
      );
    }
    if (side === "request")
      for (const name of [...sReq].filter((n) => n in cProps && !cReq.has(n)))
        this.add(
          stated,
          stated ? "new-required-request-field" : "request-field-required-where-the-spec-is-open",
          `request field ${name} is now required`,
          `${cAt}/properties/${pointerToken(name)}`,
          `${sAt}/properties/${pointerToken(name)}`,
        );
    if (c.items && s.items) this.schema(c.items, s.items, `${cAt}/items`, `${sAt}/items`, side, depth + 1, scope);
  }

  operation(c: Operation, s: Operation): void {
    for (const p of s.parameters.filter((p) => p.required)) {
      if (!c.parameters.some((q) => q.name === p.name && q.in === p.in && q.required) && p.in !== "path")
        this.add(true, "new-required-parameter", `${p.in} parameter ${p.name} is required`, `${c.pointer}/parameters`, `${s.pointer}/parameters`);
    }
    for (const p of c.parameters) {
      const q = s.parameters.find((x) => x.name === p.name && x.in === p.in);
      if (!q) this.add(false, "parameter-removed", `${p.in} parameter ${p.name} not documented`, `${c.pointer}/parameters`, `${s.pointer}/parameters`);
      // A path segment is text on the wire, whatever type a document gives it (E2: "string/number");
      // so is a query value, and a served query parameter typed as a string takes whatever the
      // contract's type would send (`folderId=7`, `folderId=null`): a wider request, no drift.
      else if (p.in !== "path" && !(p.in === "query" && isText(q.schema)))
        this.schema(
          p.schema,
          q.schema,
          `${c.pointer}/parameters/${pointerToken(p.name)}/schema`,
          `${s.pointer}/parameters/${pointerToken(q.name)}/schema`,
          "request",
        );
    }
    const cBody = c.requestBody?.media["application/json"];
    const sBody = s.requestBody?.media["application/json"];
    if (cBody && sBody)
      this.schema(
        cBody,
        sBody,
        `${c.pointer}/requestBody/content/application~1json/schema`,
        `${s.pointer}/requestBody/content/application~1json/schema`,
        "request",
      );
    for (const [status, r] of Object.entries(c.responses).filter(([status]) => /^2/.test(status))) {
      const sr = s.responses[status];
      if (!sr) {
        this.add(true, "response-status-removed", `answer ${status} not documented`, `${c.pointer}/responses/${status}`, `${s.pointer}/responses`);
        continue;
      }
      for (const [type, schema] of Object.entries(r.media)) {
        const served = sr.media[type];
        if (served === undefined && !(type in sr.media))
          this.add(
            true,
            "response-media-type-removed",
            `answer ${status} no longer documented as ${type}`,
            `${c.pointer}/responses/${status}/content/${pointerToken(type)}`,
            `${s.pointer}/responses/${status}/content`,
          );
        else
          this.schema(
            schema,
            served,
            `${c.pointer}/responses/${status}/content/${pointerToken(type)}/schema`,
            `${s.pointer}/responses/${status}/content/${pointerToken(type)}/schema`,
            "response",
          );
      }
    }
  }
}

/** The drift of a served document from the contract, breaking findings first. */
export async function drift(contract: unknown, served: unknown): Promise<DriftReport> {
  const [c, s] = await Promise.all([dereference(contract), dereference(served)]);
  const specified = new Set(SPECIFIED.map((o) => operationKey(o.method, o.path)));
  const cOps = operationsOf(c).filter((o) => specified.has(o.key));
  const sOps = operationsOf(s);
  const cmp = new Comparison();
  for (const op of cOps) {
    const match = sOps.find((o) => o.key === op.key);
    if (!match) cmp.add(true, "operation-missing", `${op.method} ${op.path} not documented`, op.pointer);
    else cmp.operation(op, match);
  }
  const findings = [...cmp.findings.filter((f) => f.breaking), ...cmp.findings.filter((f) => !f.breaking)];
  return { findings, beyondSpec: sOps.filter((o) => !specified.has(o.key)).map((o) => ({ method: o.method, path: o.path, pointer: o.pointer })) };
}

/**
 * A pointer as a reader reads it, unescaped: `#/paths/~1api~1v1~1deployments/get/responses/200`
 * reads `GET /api/v1/deployments responses/200`. The reports keep the pointer itself (report.json).
 */
export function shownPointer(pointer: string): string {
  const op = /^#\/paths\/([^/]+)\/(get|put|post|delete|patch)(?:\/(.*))?$/.exec(pointer);
  if (!op) return pointerKey(pointer);
  return `${op[2].toUpperCase()} ${pointerKey(op[1])}${op[3] ? ` ${op[3].split("/").map(pointerKey).join(" › ")}` : ""}`;
}

/** As text, for `conformance drift` and the console. */
export function driftLines(d: DriftReport): string[] {
  const breaking = d.findings.filter((f) => f.breaking);
  const lines = [
    `drift: ${breaking.length} breaking and ${d.findings.length - breaking.length} other difference(s) from the spec's E1–E13; ${d.beyondSpec.length} operation(s) beyond them`,
  ];
  for (const f of d.findings)
    lines.push(
      `  ${f.breaking ? "BREAKING" : "other   "} ${f.kind}: ${f.message} (contract: ${shownPointer(f.contract)}${f.served ? `; served: ${shownPointer(f.served)}` : ""})`,
    );
  for (const o of d.beyondSpec) lines.push(`  beyond the spec: ${o.method} ${o.path}`);
  return lines;
}

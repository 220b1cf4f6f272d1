import { describe, expect, it } from "vitest";
import { dereference } from "../core/api/dereference.js";
import { DocumentSchemas } from "../core/served/document-schemas.js";

/** A served document's components as a server writes them, dereferenced as a run reads them. */
async function components(schemas: Record<string, unknown>): Promise<Record<string, any>> {
  const doc = await dereference({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {}, components: { schemas } });
  return doc.components.schemas;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe("the served document's schemas (E14: answers validated against the server's own document)", () => {
  it("judge a component met in several answers the same in each, down to the item that breaks it", async () => {
    const c = await components({
      Workbook: {
        type: "object",
        required: ["id", "name"],
        properties: { id: { type: "string" }, name: { type: "string" }, state: { enum: ["draft", "live"] } },
      },
      WorkbookList: { type: "object", properties: { items: { type: "array", items: ref("Workbook") } } },
    });
    const schemas = new DocumentSchemas();
    expect(schemas.errors(c.Workbook, { id: "a", name: "b" })).toEqual([]);
    expect(schemas.errors(c.WorkbookList, { items: [{ id: "a", name: "b" }, { id: "c" }] })).toEqual(["/items/1 must have required property 'name'"]);
    expect(schemas.errors(c.WorkbookList, { items: [{ id: "a", name: "b", state: "gone" }] })).toEqual([
      '/items/0/state must be equal to one of the allowed values ["draft","live"]',
    ]);
    expect(schemas.errors(c.Workbook, { id: 1, name: "b" })).toEqual(["/id must be string"]);
  });

  it("judge a component that refers to itself (a tree) at any depth, where compiled inline it never compiled and judged nothing", async () => {
    const c = await components({
      Folder: { type: "object", required: ["name"], properties: { name: { type: "string" }, children: { type: "array", items: ref("Folder") } } },
    });
    const schemas = new DocumentSchemas();
    const deep = { name: "a", children: [{ name: "b", children: [{ name: "c", children: [{ children: [] }] }] }] };
    expect(schemas.errors(c.Folder, deep)).toEqual(["/children/0/children/0/children/0 must have required property 'name'"]);
    expect(schemas.errors(c.Folder, { name: "a", children: [{ name: "b", children: [] }] })).toEqual([]);
  });

  it("count the properties a referred component evaluates for unevaluatedProperties", async () => {
    const c = await components({
      Base: { type: "object", properties: { id: { type: "string" } } },
      Dashboard: { allOf: [ref("Base")], properties: { title: { type: "string" } }, unevaluatedProperties: false },
    });
    const schemas = new DocumentSchemas();
    expect(schemas.errors(c.Dashboard, { id: "a", title: "t" })).toEqual([]);
    expect(schemas.errors(c.Dashboard, { id: "a", title: "t", other: 1 })).toEqual(["(root) must NOT have unevaluated properties"]);
  });

  it("read a component that names a dialect of its own as part of the document, as it was read inline", async () => {
    const c = await components({
      Env: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", required: ["key"], properties: { key: { type: "string" } } },
      EnvList: { type: "array", items: ref("Env") },
    });
    expect(new DocumentSchemas().errors(c.EnvList, [{ key: "A" }, {}])).toEqual(["/1 must have required property 'key'"]);
  });
});

import { describe, expect, expectTypeOf, it } from "vitest";
import { offSchema, pathTo, requestTo } from "../core/transport/client.js";
import type { OperationName } from "../core/api/operations.js";
import type { AnswerOf, RequestOf } from "../core/api/operation-types.js";
import type { Workbook } from "../core/api/schema-types.js";
import type { Api } from "../core/transport/api.js";

/**
 * The table's rows keep their names and paths as types (issue 27, "a rename is a compile error"):
 * an operation that is not in the table, a placeholder misspelt or left out does not compile.
 * `tsc -p tsconfig.test.json` (in `npm test`) fails if one of the `@ts-expect-error` lines below
 * compiles, which is what proves it; the runtime lines show the same calls when they are right.
 */
describe("operations are typed by the table", () => {
  it("names outside the table do not compile", () => {
    // @ts-expect-error: no such operation
    const name: OperationName = "getWorkbooks";
    expect(name).toBe("getWorkbooks");
  });

  it("a path's values are the row's placeholders, no more and no fewer", () => {
    expect(pathTo("getWorkbook", { deploymentId: 1, workbookId: "a/b" })).toBe("/api/v1/deployments/1/workbooks/a%2Fb");
    // @ts-expect-error: workbookId left out
    expect(() => pathTo("getWorkbook", { deploymentId: 1 })).toThrow();
    // @ts-expect-error: misspelt placeholder
    expect(() => pathTo("getWorkbook", { deploymentId: 1, workbookid: 2 })).toThrow();
    // @ts-expect-error: a path with a placeholder needs its values
    expect(() => requestTo("listEnvironments")).toThrow();
    expect(requestTo("listDeployments").path).toBe("/api/v1/deployments");
  });

  it("an answer's body is the row's 2xx schema, a request's body the row's request schema", () => {
    // Typed only: never called (no server here); tsc checks the bodies of these functions.
    const reads = async (api: Api, deploymentId: string) => {
      const list = await api.call("listWorkbooks", { deploymentId });
      const first: Workbook | undefined = list.body.items[0];
      // @ts-expect-error: a workbook's id is a number, not a string
      const id: string = first!.id;
      // @ts-expect-error: no such field in WorkbooksListResponse
      list.body.workbooks;
      // Either documented shape of E1, read field by field.
      const deployments = await api.call("listDeployments");
      const pages = deployments.body.pagination ?? deployments.body.pageInfo;
      // E14: the spec shows no shape, so the body is unknown until narrowed.
      const users = await api.call("listUsers");
      // @ts-expect-error: an E14 answer is unknown, not any
      users.body.items;
      return [id, pages];
    };
    const sends = (api: Api, deploymentId: string) => [
      api.call("upsertWorkbookBySlug", { deploymentId, slug: "s" }, { body: { name: "n", folderId: 3 } }),
      // @ts-expect-error: folderId is a number in UpsertWorkbookRequest
      api.call("upsertWorkbookBySlug", { deploymentId, slug: "s" }, { body: { folderId: "3" } }),
      // @ts-expect-error: UpsertWorkbookRequest has no `title`
      api.call("upsertWorkbookBySlug", { deploymentId, slug: "s" }, { body: { title: "t" } }),
      // Off the schema on purpose (a negative check's body): said at the call.
      api.call("upsertWorkbookBySlug", { deploymentId, slug: "s" }, { body: offSchema({ folderId: "3" }) }),
      // E14: any body the server's document asks for.
      api.call("createUser", {}, { body: { email: "a@b.c" } }),
    ];
    expectTypeOf<AnswerOf<"getWorkbook">>().toEqualTypeOf<Workbook>();
    expectTypeOf<AnswerOf<"listUsers">>().toBeUnknown();
    expectTypeOf<RequestOf<"createUser">>().toBeUnknown();
    // A name of any operation: nothing is known of its answer.
    expectTypeOf<AnswerOf<OperationName>>().toBeUnknown();
    expect([reads, sends].every((f) => typeof f === "function")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { pathTo, requestTo } from "../core/transport/client.js";
import type { OperationName } from "../core/api/operations.js";

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
});

import { describe, expect, it } from "vitest";
import { RunKnowledge } from "../core/run/run-knowledge.js";

describe("what the run was answered, as the input classes ask it", () => {
  it("an id a delete removed stays one no object has, though a read answered before the delete is recorded after it; a create that gives it again brings it back", () => {
    const known = new RunKnowledge();
    const list = { items: [{ id: 5, name: "a" }] };
    known.learn("listWorkbooks", "1", list, false);
    expect(known.seenBy("duplicateWorkbook", "1").id("workbook", "5")).toBe("here");
    known.learn("listDeployments", undefined, { data: { deployments: [{ id: 1 }] } }, false);
    known.forget("deleteWorkbook", { deploymentId: "1", workbookId: "5" }, undefined);
    // The delete removed the workbook, not the deployment its path is under.
    expect(known.seenBy("getDeployment", undefined).id("deployment", "1")).toBe("here");
    // The list was read while the delete was in flight (checks run side by side): its answer arrives late.
    known.learn("listWorkbooks", "1", list, false);
    expect(known.seenBy("duplicateWorkbook", "1").id("workbook", "5")).toBe("never");
    known.learn("createWorkbook", "1", { id: 5, name: "b" }, false);
    expect(known.seenBy("duplicateWorkbook", "1").id("workbook", "5")).toBe("here");
  });
});

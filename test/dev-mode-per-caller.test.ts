import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathTo } from "../core/transport/client.js";
import type { OperationName } from "../core/api/operations.js";
import { type RunningReference, startReference } from "../reference/server.js";

/**
 * The dev-mode-per-caller variant (reference/dev-mode-per-caller.ts) makes the choice the third
 * independent server makes where the spec leaves dev mode's scope open: one branch at a time per
 * caller, writes only on the caller's own. The clean reference, which lets any session on a branch
 * count, answers the same requests otherwise: the variant is a server of its own kind.
 */
const DEP = "1";

async function call(ref: RunningReference, token: string, op: OperationName, method: string, body?: unknown): Promise<number> {
  const res = await fetch(ref.url + pathTo(op, { deploymentId: DEP }), {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Starts dev mode on A then B as the main caller, another caller on C; then writes on A, B and C as the main caller. */
async function writesAfterSwitching(ref: RunningReference): Promise<Record<string, number>> {
  const { primary, creator } = ref.seeded.tokens;
  for (const name of ["per-caller-a", "per-caller-b", "per-caller-c"]) expect(await call(ref, primary, "createBranch", "POST", { name })).toBeLessThan(300);
  const start = (token: string, branchName: string) => call(ref, token, "startDevMode", "POST", { branchName });
  const write = (branchName: string) =>
    call(ref, primary, "writeDataModelFiles", "PUT", { branchName, files: [{ fileName: "per-caller.yml", content: "cubes: []" }] });
  expect(await start(primary, "per-caller-a")).toBe(200);
  expect(await write("per-caller-a")).toBe(200);
  expect(await start(primary, "per-caller-b")).toBe(200);
  expect(await start(creator, "per-caller-c")).toBe(200);
  return { a: await write("per-caller-a"), b: await write("per-caller-b"), c: await write("per-caller-c") };
}

describe("dev mode held per caller, on one branch at a time", () => {
  let variant: RunningReference;
  let clean: RunningReference;
  beforeAll(async () => {
    [variant, clean] = await Promise.all([startReference({ variants: ["dev-mode-per-caller"] }), startReference({})]);
  });
  afterAll(async () => {
    await Promise.all([variant.close(), clean.close()]);
  });

  it("writes only on the caller's own current dev-mode branch", async () => {
    // A: the caller's session moved to B; C: another caller's session.
    expect(await writesAfterSwitching(variant)).toEqual({ a: 400, b: 200, c: 400 });
  });

  it("differs from the clean reference, where every session on a branch lets anyone write there", async () => {
    expect(await writesAfterSwitching(clean)).toEqual({ a: 200, b: 200, c: 200 });
  });
});

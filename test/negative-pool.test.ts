import fc from "fast-check";
import { expect, it } from "vitest";
import type { CheckContext } from "../core/check/context.js";
import { Schemas } from "../core/api/schemas.js";
import { ENV_VAR_POOL, TEMPLATE_VARIABLE_POOL } from "../core/api/fixed-names.js";
import { namesInPool } from "../suites/lib/env-vars-stage.js";
import { badBodies, withPoolKeys } from "../suites/lib/negative-bodies.js";

/**
 * What a lenient server keeps of an accepted negative body cannot be removed (template variables,
 * environment variables): the generated bodies name only the tool's fixed names, so a tenant holds
 * at most the pool however often the suite runs (issue 26). The negative data is in values and types.
 */
it("generated E6 bodies name template variables of the fixed pool only, their breaks kept", async () => {
  const ctx = { schemas: await Schemas.load() } as CheckContext;
  const raw = badBodies(ctx, "UpdateDeploymentRequest", { base: fc.constant({ releaseChannelVersion: "1.0.0" }), nullIsAbsent: true, optionalRoot: true });
  const samples = fc.sample(raw, { numRuns: 400, seed: 7 });
  const tv = (b: { body?: unknown }) => (b.body as { templateVariables?: unknown } | undefined)?.templateVariables;
  // An array in its place is a type break that names no variable.
  const keyed = samples.filter((b) => typeof tv(b) === "object" && tv(b) !== null && !Array.isArray(tv(b)) && Object.keys(tv(b) as object).length > 0);
  // Without the pool the generator makes up keys: the case this guards against.
  expect(keyed.some((b) => Object.keys(tv(b) as object).some((k) => !TEMPLATE_VARIABLE_POOL.includes(k)))).toBe(true);
  for (const b of keyed) {
    const pooled = withPoolKeys(b, "templateVariables", TEMPLATE_VARIABLE_POOL);
    expect(Object.keys(tv(pooled) as object).every((k) => TEMPLATE_VARIABLE_POOL.includes(k))).toBe(true);
    // A break inside templateVariables is still there, under its new name.
    if (b.at.startsWith("/templateVariables/")) expect(pooled.at.startsWith(`/templateVariables/${TEMPLATE_VARIABLE_POOL[0]}`)).toBe(true);
  }
});

it("generated E13 bodies that set a name outside the fixed pool are not sent", async () => {
  const ctx = { schemas: await Schemas.load() } as CheckContext;
  const set = { env_variables: [{ name: ENV_VAR_POOL[0], value: "after" }] };
  const samples = fc.sample(badBodies(ctx, "EnvVarsPutRequest", { base: fc.constant(set), nullIsAbsent: true }), { numRuns: 400, seed: 7 });
  expect(samples.some((b) => !namesInPool(b.body))).toBe(true);
  expect(namesInPool({ env_variables: [{ name: "3mLnhKm=", value: "x" }] })).toBe(false);
  expect(namesInPool({ env_variables: [{ name: ENV_VAR_POOL[1], value: 5 }] })).toBe(true);
});

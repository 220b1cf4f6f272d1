import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { secretValue } from "../generators/index.js";
import { secretMasking } from "../suites/env-vars/secrets.js";

/**
 * Issue 20 §1: secrets are looked for in values, where values are, never in names or keys; a
 * generated secret is long and distinctive enough to be found only where it leaked.
 */
const base = "http://server.test";
const dep = "/api/v1/deployments/1";
const observed = (method: string, path: string, status: number, body: unknown, requestBody?: unknown) => ({
  method,
  url: new URL(base + path),
  requestBody: requestBody === undefined ? undefined : JSON.stringify(requestBody),
  status,
  text: JSON.stringify(body),
  body,
  isJson: true,
  exchange: {} as any,
});

function watcher(secret: string) {
  const watch = secretMasking.watch!({} as any);
  watch(observed("PUT", `${dep}/env-vars`, 200, { items: [] }, { env_variables: [{ name: "RUN_API_PASS", value: secret }] }));
  return watch;
}

describe("env-vars.mask.every-answer looks for secrets in values", () => {
  it("a secret that occurs inside another variable's name, or in a key, is no leak", () => {
    const watch = watcher("toString");
    const listed = {
      items: [
        { name: "RUN_API_PASS", value: "[ENCRYPTED]" },
        { name: "_pASStoString_RUN", value: "[ENCRYPTED]" },
      ],
      data: [],
    };
    expect(watch(observed("GET", `${dep}/env-vars`, 200, listed))).toBe("held");
    const long = watcher("a distinctive secret 7f3a9c");
    expect(long(observed("GET", `${dep}/settings`, 200, { "a distinctive secret 7f3a9c": true, name: "x" }))).toBe("held");
  });

  it("a secret held in a value, whole or inside a longer one, is a leak", () => {
    const secret = "a distinctive secret 7f3a9c";
    for (const value of [secret, `prefix ${secret} suffix`]) {
      const v = watcher(secret)(observed("GET", `${dep}/settings`, 200, { settings: { nested: [value] } }));
      expect(typeof v === "object" && v?.reason).toBe("secret-leaked");
    }
  });

  it("a plain variable shown with the value the run set for it is no leak, even where that value contains a secret", () => {
    const secret = "a distinctive secret 7f3a9c";
    const plainValue = `before ${secret} after`;
    const watch = watcher(secret);
    const put = { env_variables: [{ name: "RUN_PLAIN", value: plainValue }] };
    const listed = {
      items: [
        { name: "RUN_API_PASS", value: "[ENCRYPTED]" },
        { name: "RUN_PLAIN", value: plainValue },
      ],
      data: [],
    };
    expect(watch(observed("PUT", `${dep}/env-vars`, 200, listed, put))).toBe("held");
    expect(watch(observed("GET", `${dep}/env-vars`, 200, listed))).toBe("held");
    // The same secret under another variable, or in a value the run did not set for RUN_PLAIN, is a leak.
    for (const entry of [
      { name: "RUN_OTHER", value: plainValue },
      { name: "RUN_PLAIN", value: `changed ${secret}` },
    ]) {
      const v = watch(observed("GET", `${dep}/env-vars`, 200, { items: [{ name: "RUN_API_PASS", value: "[ENCRYPTED]" }, entry], data: [] }));
      expect(typeof v === "object" && v?.reason).toBe("secret-leaked");
    }
  });

  it("generated secret values are long and distinctive: never a word that names or keys are made of", () => {
    for (const v of fc.sample(secretValue(), { numRuns: 500, seed: 1 })) {
      expect([...v].length).toBeGreaterThanOrEqual(16);
      expect(new Set(v).size).toBeGreaterThanOrEqual(8);
    }
  });
});

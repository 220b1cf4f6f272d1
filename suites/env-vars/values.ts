import { group } from "../../core/check/check.js";
import { domainOf } from "../../core/api/input-domain.js";
import { ENV_VARS } from "../../core/api/fixed-names.js";
import { listedVariable } from "../lib/env-var-calls.js";
import { settled, SUCCESS } from "../lib/success.js";

/** The input the check sends over its whole domain (core/api/input-domain.ts): a variable's value. */
const VALUE = domainOf("setEnvVars", "/env_variables/*/value");

/**
 * Values to set one after another: each class's first edge, and a number's other spellings each
 * right after the spelling a loose comparison calls equal to it (the class's edges are those pairs).
 */
const valuesToSet = (): string[] =>
  VALUE.classes.flatMap((c) => (c.name === "numeric-respelling" ? c.edges : c.edges.slice(0, 1))).filter((v): v is string => typeof v === "string");

export const envVarValueChecks = group("env-vars", [
  {
    id: "env-vars.put.value-replaced",
    spec: "E14 (PUT env-vars sets variables; facts: it adds or updates by name); E13",
    level: "MUST",
    title:
      'A variable set again through PUT env-vars reads the value last set, for each class of value (plain, empty, whitespace-padded, non-ASCII, long) and for a number\'s other spelling sent right after it ("1e1" after "10", "01" after "1")',
    // The tool's plain variable (no request removes one): every run sets the same name, and leaves it holding a value that names the run.
    needs: ["writes", "unremovable-writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const name = ENV_VARS.listedPlain;
      const own = `value of ${ctx.scratch.prefix}`;
      for (const [i, value] of [own, ...valuesToSet(), own].entries()) {
        const sent = `PUT env-vars setting ${name} to ${JSON.stringify(value.length > 40 ? `${value.slice(0, 20)}… (${value.length} characters)` : value)}`;
        const put = await ctx.api.call("setEnvVars", { deploymentId: dep }, { body: { env_variables: [{ name, value }] } });
        // The body's shape is the published documentation's (facts), not the spec's: a server that refuses the run's own value is not judged.
        if (i === 0) ctx.require(put, "E14", `setting the tool's variable ${name} (PUT env-vars)`, (r) => r.status < 300);
        // No class of value but the run's own is named acceptable (a length cap, a character set: not shown): a refusal sets nothing to read back.
        if (put.status >= 400 && put.status < 500 && i > 0) continue;
        ctx.expect.status(put, SUCCESS.PUT, sent);
        await settled(ctx.api, put);
        const listed = await listedVariable(ctx.api, dep, name);
        ctx.expect.equal(listed?.value, value, `after ${sent}, the variable reads the value last set`, { res: listed?.res ?? put, reason: "value-replaced" });
      }
    },
  },
]);

import fc from "fast-check";
import { groupedById, type CheckSpec } from "../../core/check/check.js";
import type { Response } from "../../core/transport/http.js";
import { forAll } from "../../core/run/property.js";
import { envVarName, holdsMarker, secretValue } from "../../generators/index.js";
import { ENV_VARS, PROPERTY_ENV_VARS } from "../../core/api/fixed-names.js";
import { MASK } from "../../core/api/operations.js";
import { listedVariable } from "../lib/env-var-calls.js";
import { settled, SUCCESS } from "../lib/success.js";

/**
 * Resources / Environment variable, for names set through PUT env-vars (published docs): the value reads
 * [ENCRYPTED] exactly when `masked(name)`. Only names `select` keeps are tried. The names are the
 * tool's fixed set (generators/domain.ts): they cannot be removed, so every run reuses the same ones.
 */
function maskingProperty(o: Pick<CheckSpec, "id" | "level" | "title"> & { select: (name: string) => boolean; masked: (name: string) => boolean }): CheckSpec {
  return {
    ...o,
    spec: "Resources / Environment variable; E13; PUT env-vars (E14, body in the published docs)",
    kind: "property",
    needs: ["writes", "unremovable-writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // Every name the property may draw is set first: whatever cases the seed draws, a run leaves the same variables.
      const names = [ENV_VARS.probe, ...PROPERTY_ENV_VARS.filter(o.select)];
      const probe = await ctx.api.call("setEnvVars", { deploymentId: dep }, { body: { env_variables: names.map((name) => ({ name, value: "probe" })) } });
      ctx.require(probe, "E14", "setting the tool's variables (PUT env-vars), to see how names set here are masked", () => true);
      const variable = fc.record({ name: envVarName(), value: secretValue() }).filter((v) => o.select(v.name));
      await forAll(ctx, variable, async ({ name, value }, api) => {
        const put = await api.call("setEnvVars", { deploymentId: dep }, { body: { env_variables: [{ name, value }] } });
        ctx.expect.status(put, SUCCESS.PUT, `PUT env-vars with variable ${name} (it took ${ENV_VARS.probe} before)`);
        await settled(api, put);
        // published docs: the PUT answers with the list shape; every variable it shows, in items and in data, obeys the rule too.
        const wrong = answeredVariables(put).filter((v) => o.select(v.name) && (v.value === MASK) !== o.masked(v.name));
        ctx.expect.that(wrong.length === 0, "in the PUT env-vars answer, each variable reads [ENCRYPTED] exactly when its name holds a marker", {
          reason: "put-answer-masking",
          expected: "secret-named values masked, others not",
          got: wrong.map((v) => `${v.name} (in ${v.where})`),
          res: put,
        });
        const listed = await listedVariable(api, dep, name);
        if (!listed)
          return ctx.expect.fail(`the variable ${name} just set is not in the list (E13)`, {
            expected: `an item named ${name}`,
            got: "none",
            res: put,
            reason: "listed-once",
          });
        const masked = o.masked(name);
        ctx.expect.that(
          (listed.value === MASK) === masked,
          masked ? `${name} holds a marker: its value reads ${MASK}` : `${name} holds no marker: its value is not masked`,
          { reason: "masking", expected: masked ? MASK : "the value set", got: listed.value, res: listed.res },
        );
      });
    },
  };
}

/** The variables a PUT env-vars answer shows, in items and in the deprecated data, with where each was read. */
function answeredVariables(put: Response): { name: string; value: unknown; where: string }[] {
  const body = put.isJson ? put.body : undefined;
  return (["items", "data"] as const).flatMap((where) =>
    (Array.isArray(body?.[where]) ? body[where] : [])
      .filter((v: any) => typeof v?.name === "string")
      .map((v: any) => ({ name: v.name, value: v.value, where })),
  );
}

export const envVarPropertyChecks = groupedById([
  maskingProperty({
    id: "env-vars.mask.any-upper-case-marker",
    level: "MUST",
    title:
      "Any variable name set through PUT env-vars reads [ENCRYPTED] exactly when it contains PASS, SECRET, TOKEN, KEY or CREDENTIAL, wherever in the name: in the list and in the PUT answer (items and data)",
    // Markers only in another case are the SHOULD below: the spec writes them in upper case.
    select: (name) => holdsMarker(name, false) || !holdsMarker(name, true),
    masked: (name) => holdsMarker(name, false),
  }),
  maskingProperty({
    id: "env-vars.mask.any-other-case-marker",
    level: "SHOULD",
    title:
      "Any variable name set through PUT env-vars that contains a marker only in another case (pass, Secret, toKen) reads [ENCRYPTED] too, in the list and in the PUT answer",
    select: (name) => holdsMarker(name, true) && !holdsMarker(name, false),
    masked: () => true,
  }),
]);

import type { EnvironmentVariable } from "../../core/api/schema-types.js";
import type { Api } from "../../core/transport/api.js";
import { group } from "../../core/check/check.js";
import type { Expect } from "../../core/api/expect.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkCursor, wholeList } from "../../core/transport/pagination.js";
import { expectPageInfoOnPartialPage, expectWalkCovers, severalPagesOf } from "../lib/cursor-walk.js";
import { copyDifference } from "../lib/legacy-copy.js";
import { ENV_VARS } from "../../core/api/fixed-names.js";
import { MASK, SECRET_MARKERS as MARKERS } from "../../core/api/operations.js";
import { varsPath } from "../lib/env-var-calls.js";

const DISCOVERY_PAGE = 100;

/** As the spec writes the markers: upper case. */
const markedAsWritten = (name: string) => MARKERS.some((m) => name.includes(m));
const markedInAnyCase = (name: string) => markedAsWritten(name.toUpperCase());

interface Listed {
  name: string;
  value: unknown;
  /** Where it was read: a leak through the deprecated copy counts as much as one through items. */
  where: "items" | "data";
  res: Response;
}

/** Every variable of the deployment as listed in `items` and in `data`, over all cursor pages. */
async function listed(api: Api, dep: string): Promise<Listed[]> {
  const walk = await walkCursor<EnvironmentVariable>(api, varsPath(dep), { first: DISCOVERY_PAGE, endpoint: "E13" });
  const read = (res: Response, where: Listed["where"]): Listed[] =>
    (Array.isArray(res.body?.[where]) ? res.body[where] : [])
      .filter((v: any) => typeof v?.name === "string")
      .map((v: any) => ({ name: v.name, value: v.value, where, res }));
  return walk.pages.flatMap(({ res }) => [...read(res, "items"), ...read(res, "data")]);
}

/** Names only: a value that should have been masked must not be repeated in the report. */
const named = (vars: Listed[]) => [...new Set(vars.map((v) => `${v.name} (in ${v.where})`))];

function expectMasked(expect: Expect, vars: Listed[], mask: boolean, what: string): void {
  const wrong = vars.filter((v) => (v.value === MASK) !== mask);
  expect.that(wrong.length === 0, what, {
    reason: "masking",
    expected: mask ? `value ${MASK}` : `a value other than ${MASK}`,
    got: named(wrong),
    res: wrong[0]?.res,
  });
}

export const envVarChecks = group("env-vars", [
  {
    id: "env-vars.list.schema",
    spec: "E13; Resources / Environment variable",
    level: "MUST",
    title: "The environment variables list answers 200 with items of {name, value}; a page short of the whole list carries pageInfo",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const path = varsPath(fixture("deployment").id);
      const body = expect.ok(await api.get(path), "EnvVarsListResponse");
      const count = body.pageInfo?.hasNextPage ? (await walkCursor<EnvironmentVariable>(api, path)).items.length : body.items.length;
      await expectPageInfoOnPartialPage(api, expect, path, count, "variable");
    },
  },
  {
    id: "env-vars.mask.any-case",
    spec: "E13; Resources / Environment variable",
    level: "SHOULD",
    title: "A variable whose name carries a marker in another case (e.g. webhook_secret) reads [ENCRYPTED] too",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const secret = (await listed(api, fixture("deployment").id)).filter((v) => !markedAsWritten(v.name) && markedInAnyCase(v.name));
      if (!secret.length) throw new NotExercised(`no variable name carries ${MARKERS.join(", ")} in another case than upper case`);
      expectMasked(expect, secret, true, "every variable named with a marker in another case is masked");
    },
  },
  {
    id: "env-vars.mask.plain-unmasked",
    spec: "E13; Resources / Environment variable",
    level: "SHOULD",
    title: "A variable whose name carries no marker reads its value, not [ENCRYPTED]",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const plain = (await listed(api, fixture("deployment").id)).filter((v) => !markedInAnyCase(v.name));
      if (!plain.length) throw new NotExercised(`every variable name carries one of ${MARKERS.join(", ")}: no plain variable to check`);
      expectMasked(expect, plain, false, "no plain variable is masked");
    },
  },
  {
    id: "env-vars.put.listed",
    spec: "E13; E14 (PUT env-vars sets variables; body in the published docs)",
    level: "MUST",
    title: "Variables set in one PUT env-vars are each listed once by a walk of small pages, a plain one and one set to the empty value with the value set",
    needs: ["writes", "unremovable-writes", "fixture:deployment"],
    // Also the scenario of env-vars.mask.every-answer: a secret the run set, then every page of the
    // list, its data copy and the deployment settings ("secrets excluded", E14) are read.
    async run({ api, expect, fixture, scratch, require }) {
      const dep = fixture("deployment").id;
      // Names of the tool's fixed set (the API cannot delete variables); the values say which run set them.
      const secret = { name: ENV_VARS.listedSecret, value: `secret value of ${scratch.prefix}` };
      const plain = { name: ENV_VARS.listedPlain, value: `plain value of ${scratch.prefix}` };
      // The empty value is a class of its own (rule 2): set, it is a variable whose value is "", not a removal.
      const empty = { name: ENV_VARS.listedEmpty, value: "" };
      require(await api.call(
        "setEnvVars",
        { deploymentId: dep },
        { body: { env_variables: [secret, plain, empty] } },
      ), "E14", "setting three variables of its own (PUT env-vars)", (r) => r.status < 300);
      await api.call("getDeploymentSettings", { deploymentId: dep });
      const count = wholeList(await walkCursor<EnvironmentVariable>(api, varsPath(dep), { first: DISCOVERY_PAGE, endpoint: "E13" }), "variables").items.length;
      const walk = wholeList(await walkCursor<EnvironmentVariable>(api, varsPath(dep), { first: severalPagesOf(count), maxPages: count + 2 }), "variables");
      for (const v of [secret, plain, empty]) {
        const found = walk.items.filter((item) => item?.name === v.name);
        expect.equal(found.length, 1, `${v.name}, just set, is listed once over the walk`, { res: walk.pages.at(-1)?.res, reason: "listed-once" });
      }
      for (const v of [plain, empty])
        expect.equal(walk.items.find((item) => item?.name === v.name)?.value, v.value, `${v.name} reads the value set`, {
          res: walk.pages.at(-1)?.res,
          reason: "plain-value",
        });
    },
  },
  {
    id: "env-vars.cursor.complete",
    spec: "E13; Pagination styles 2",
    level: "MUST",
    title: "Walking the variables with first/after at a small page size yields every variable exactly once, and ends",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const whole = wholeList(await walkCursor<EnvironmentVariable>(api, varsPath(dep), { first: DISCOVERY_PAGE, endpoint: "E13" }), "variables").items.map(
        (v) => String(v?.name),
      );
      if (whole.length < 2) throw new NotExercised(`the deployment has ${whole.length} variable(s): a cursor walk needs at least two to span two pages`);
      const walk = wholeList(
        await walkCursor<EnvironmentVariable>(api, varsPath(dep), { first: severalPagesOf(whole.length), maxPages: whole.length + 2 }),
        "variables",
      );
      expectWalkCovers(
        expect,
        walk.items.map((v) => String(v?.name)),
        whole,
        "variable",
        walk.pages.at(-1)?.res,
      );
    },
  },
  {
    id: "env-vars.legacy.data-matches-items",
    spec: "E13 (data is a deprecated copy of items)",
    level: "MUST",
    title: "On every page the deprecated data holds the same variables as items (in any order)",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const count = wholeList(await walkCursor<EnvironmentVariable>(api, varsPath(dep), { first: DISCOVERY_PAGE, endpoint: "E13" }), "variables").items.length;
      const walk = wholeList(await walkCursor<EnvironmentVariable>(api, varsPath(dep), { first: severalPagesOf(count), maxPages: count + 2 }), "variables");
      if (!walk.pages.some((p) => Array.isArray(p.res.body?.data))) throw new NotExercised("the server sends no deprecated data array beside items");
      for (const [i, p] of walk.pages.entries()) {
        const difference = Array.isArray(p.res.body?.data) ? copyDifference(p.items, p.res.body.data, (v) => String(v?.name)) : undefined;
        expect.that(!difference, `page ${i + 1}: data is a copy of items`, {
          reason: "data-copy",
          expected: "data holding the entries of items",
          got: difference,
          res: p.res,
        });
      }
    },
  },
]);

import { smallLaterPage } from "./kit/invariants.js";
import { MARKERS } from "./kit/properties.js";
import { looselyEqualStrings } from "./kit/input-domain.js";
import { MASK } from "../../core/api/operations.js";
import type { Fault } from "../http.js";
import { deploymentOf } from "../routes/common.js";

/** The faults of the group env-vars (suites/env-vars/): each makes a check of it fail, for the reason its `because` names. */
export const envVarsFaults: Fault[] = [
  {
    name: "env-var-name-hyphen-accepted",
    breaks: "E14 (PUT env-vars; facts: new names match ^[A-Za-z_][A-Za-z0-9_]*$)",
    description: "the name check also allows a hyphen: MY-VAR is set and listed",
    because: { "env-vars.put.name-pattern-refused": "client-error" },
    operations: ["setEnvVars"],
    handle: ({ req, app, next }) => {
      const sent = (req.body as { env_variables?: { name?: unknown; value?: unknown }[] } | undefined)?.env_variables;
      if (!Array.isArray(sent)) return next();
      const hyphened = sent.filter(
        (v) => typeof v?.name === "string" && typeof v.value === "string" && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(v.name) && v.name.includes("-"),
      );
      const dep = deploymentOf(app, req);
      for (const v of hyphened) dep.envVars.push({ name: v.name as string, value: v.value as string });
      (req.body as { env_variables: unknown[] }).env_variables = sent.filter((v) => !hyphened.includes(v));
      return next();
    },
  },
  {
    name: "env-vars-empty-value-removes",
    breaks: "E14 (PUT env-vars sets variables); E13",
    description: 'a variable sent with the empty string as its value is removed instead of being set to ""',
    because: { "env-vars.put.listed": "listed-once" },
    operations: ["setEnvVars"],
    handle: ({ req, app, next }) => {
      const list = (req.body as { env_variables?: { name?: unknown; value?: unknown }[] } | undefined)?.env_variables;
      if (!Array.isArray(list)) return next();
      const emptied = new Set(list.filter((v) => v?.value === "").map((v) => v.name));
      const dep = deploymentOf(app, req);
      dep.envVars = dep.envVars.filter((v) => !emptied.has(v.name));
      req.body = { ...req.body, env_variables: list.filter((v) => v?.value !== "") };
      return next();
    },
  },
  {
    name: "env-var-numeric-respelling-kept",
    breaks: "E14 (PUT env-vars sets variables; facts: it adds or updates by name)",
    description:
      'a variable\'s value is written only when it differs from the stored one as PHP\'s == compares strings: "1e1" sent over a stored "10" (and "01" over "1") is taken for no change',
    because: { "env-vars.put.value-replaced": "value-replaced" },
    operations: ["setEnvVars"],
    handle: ({ req, app, next }) => {
      const list = (req.body as { env_variables?: { name?: unknown; value?: unknown }[] } | undefined)?.env_variables;
      if (!Array.isArray(list)) return next();
      const stored = deploymentOf(app, req).envVars;
      const kept = (v: { name?: unknown; value?: unknown }) => stored.find((e) => e.name === v?.name && looselyEqualStrings(e.value, v.value));
      req.body = { ...req.body, env_variables: list.map((v) => (kept(v) ? { ...v, value: kept(v)!.value } : v)) };
      return next();
    },
  },
  {
    name: "env-vars-put-lost-update",
    breaks: "E14 (PUT env-vars; facts: variables not sent keep their values)",
    description:
      "PUT env-vars copies the variables, waits (a slow store), then applies its own to the copy and writes the whole copy back: of PUTs that overlap, the last one written wins and the others' variables are lost",
    because: { "env-vars.put.concurrent-writes-kept": "concurrent-kept" },
    operations: ["setEnvVars"],
    handle: async ({ req, app, next }) => {
      const dep = deploymentOf(app, req);
      const copy = dep.envVars.map((v) => ({ ...v }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      dep.envVars = copy;
      return next();
    },
  },
  {
    name: "settings-show-env-vars",
    breaks: "E14 (settings: secrets excluded); Resources / Environment variable",
    description: "the deployment settings carry the deployment's environment variables with their stored values, secrets in clear",
    feeds: ["env-vars.put.listed"],
    because: { "env-vars.mask.every-answer": "secret-leaked" },
    operations: ["getDeploymentSettings"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200) return body;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      return { ...body, environmentVariables: dep?.envVars.map((v) => ({ ...v })) ?? [] };
    },
  },
  {
    name: "env-vars-later-pages-unmasked",
    breaks: "E13; Resources / Environment variable",
    description: "pages of the variables list after the first, at a page size under 20, show secret-named values in clear, in items and data alike",
    feeds: ["env-vars.cursor.complete"],
    because: { "env-vars.mask.every-answer": "secret-unmasked" },
    routes: ["E13"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200 || !smallLaterPage(req.query)) return body;
      const stored = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId)?.envVars ?? [];
      const clear = (list: any[]) => list.map((v) => ({ ...v, value: stored.find((s) => s.name === v.name)?.value ?? v.value }));
      return { ...body, items: clear(body.items), data: clear(body.data) };
    },
  },
  // The rule of the scenario maker of env-vars.mask.every-answer.
  {
    name: "env-vars-put-keeps-first-only",
    breaks: "E13; E14 (PUT env-vars)",
    description: "PUT env-vars answers 200 but keeps only the first variable of its batch; the others are dropped",
    because: { "env-vars.put.listed": "listed-once" },
    operations: ["setEnvVars"],
    respond: ({ status, body, req, app }) => {
      const sent = req.body?.env_variables;
      if (status !== 200 || !Array.isArray(sent)) return body;
      const dropped = new Set(sent.slice(1).map((v: any) => v?.name));
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      if (dep) dep.envVars = dep.envVars.filter((v) => !dropped.has(v.name));
      const kept = (list: any) => (Array.isArray(list) ? list.filter((v: any) => !dropped.has(v?.name)) : list);
      return { ...body, items: kept(body.items), data: kept(body.data) };
    },
  },
  {
    name: "masking-misses-embedded-markers",
    breaks: "Resources / Environment variable",
    description: "a marker counts only as a word of its own (at an edge of the name or next to an underscore): DBPASSWORDX is not masked",
    because: { "env-vars.mask.any-upper-case-marker": "masking", "env-vars.mask.any-other-case-marker": "masking" },
    behaviour: { isSecretName: (name) => new RegExp(`(^|_)(${MARKERS})|(${MARKERS})(_|$)`, "i").test(name) },
  },
  {
    name: "env-vars-put-answer-unmasked",
    breaks: "Resources / Environment variable",
    description: "the answer of PUT env-vars shows every value in clear, secret ones included; the GET list still masks them",
    because: { "env-vars.mask.any-upper-case-marker": "put-answer-masking", "env-vars.mask.any-other-case-marker": "put-answer-masking" },
    operations: ["setEnvVars"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200 || !Array.isArray(body?.items)) return body;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      const clear = (list: any[]) => list.map((v) => ({ ...v, value: dep?.envVars.find((e) => e.name === v.name)?.value ?? v.value }));
      return { ...body, items: clear(body.items), data: Array.isArray(body.data) ? clear(body.data) : body.data };
    },
  },
  // E13: environment variables.
  {
    name: "env-vars-secret-values-null",
    breaks: "E13; Resources / Environment variable",
    description: "secret-named variables read null instead of [ENCRYPTED]",
    because: { "env-vars.list.schema": "schema:EnvVarsListResponse", "env-vars.mask.every-answer": "secret-unmasked" },
    routes: ["E13"],
    respond: ({ body }) => {
      const nulled = (list: any[]) => list.map((v) => (v.value === MASK ? { ...v, value: null } : v));
      return { ...body, items: nulled(body.items), data: nulled(body.data) };
    },
  },
  {
    name: "env-vars-credential-unmasked",
    breaks: "Resources / Environment variable",
    description: "names containing CREDENTIAL are not treated as secret",
    feeds: ["env-vars.cursor.complete"],
    because: { "env-vars.mask.every-answer": "secret-unmasked" },
    behaviour: { isSecretName: (name) => /PASS|SECRET|TOKEN|KEY/i.test(name) },
  },
  {
    name: "env-vars-mask-case-sensitive",
    breaks: "Resources / Environment variable",
    description: "markers are matched in upper case only: webhook_secret reads its value",
    because: { "env-vars.mask.any-case": "masking" },
    behaviour: { isSecretName: (name) => /PASS|SECRET|TOKEN|KEY|CREDENTIAL/.test(name) },
  },
  {
    name: "env-vars-everything-masked",
    breaks: "Resources / Environment variable",
    description: "every value reads [ENCRYPTED], plain ones too",
    because: { "env-vars.mask.plain-unmasked": "masking" },
    behaviour: { isSecretName: () => true },
  },
  {
    name: "env-vars-data-unmasked",
    breaks: "E13 (data is a copy of items); Resources / Environment variable",
    description: "the deprecated data copy carries the stored values, secrets unmasked",
    because: { "env-vars.mask.every-answer": "secret-unmasked", "env-vars.legacy.data-matches-items": "data-copy" },
    routes: ["E13"],
    respond: ({ body, req, app }) => {
      const stored = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId)?.envVars ?? [];
      return { ...body, data: body.items.map((v: any) => ({ ...v, value: stored.find((s) => s.name === v.name)?.value ?? v.value })) };
    },
  },
];

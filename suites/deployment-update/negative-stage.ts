import fc from "fast-check";
import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { documented } from "../lib/e14.js";
import { conforms, rejectedVersionForm } from "../../generators/index.js";
import { TEMPLATE_VARIABLE_POOL } from "../../core/api/fixed-names.js";
import { operation } from "../../core/api/operations.js";
import { readSettings, settingsIn } from "../lib/deployment-settings.js";
import { currentVersions } from "../lib/version-list.js";
import { type BadBody, type Stage, badBodies, notJsonBodies, sender, withPoolKeys } from "../lib/negative-bodies.js";
import { isObject } from "../lib/values.js";

const bare = (version: unknown) => String(version).replace(/^v/, "");

/** The fields E6 names (the table's). */
const E6_FIELDS = operation("updateDeployment").fields ?? [];

/** The E6 fields the settings (E14, shape not shown) show, or undefined when they cannot be read. */
async function e6Settings(api: Api, dep: string): Promise<{ fields: Record<string, unknown>; res: Response } | undefined> {
  const res = await api.call("getDeploymentSettings", { deploymentId: dep });
  const settings = res.status === 200 && res.isJson ? settingsIn(res.body) : undefined;
  return isObject(settings) ? { fields: Object.fromEntries(E6_FIELDS.filter((f) => f in settings).map((f) => [f, settings[f]])), res } : undefined;
}

/**
 * The valid update moves the deployment to another listed version. Besides the schema's breaks,
 * releaseChannelVersion gets strings that name no listed version (E6 rule 1: "any other value").
 */
export async function updateStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("mutableDeployment").id;
  const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
  const target = list.find((v) => v.isCurrent !== true);
  if (!current || !target)
    throw new NotExercised("E5 marks no version current, or lists no other: an update that would change the version cannot be built and undone");
  await readSettings(ctx, dep);
  let before = await e6Settings(ctx.api, dep);
  const base = fc.constant({ releaseChannelVersion: bare(target.version) });
  const unlisted = rejectedVersionForm(list).map(
    (v): BadBody => ({ kind: "unlisted-version", at: "/releaseChannelVersion", body: { releaseChannelVersion: v } }),
  );
  return {
    // Template variables cannot be removed: a generated key is one of the tool's fixed names.
    notJson: notJsonBodies(base),
    cases: badBodies(ctx, "UpdateDeploymentRequest", { base, nullIsAbsent: true, optionalRoot: true }, [unlisted]).map((b) =>
      withPoolKeys(b, "templateVariables", TEMPLATE_VARIABLE_POOL),
    ),
    send: sender("updateDeployment", { deploymentId: dep }),
    async restore(api) {
      const now = await currentVersions(api, ctx.expect, dep);
      if (bare(now.current?.version) !== bare(current.version))
        ctx.expect.status(
          await api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersion: bare(current.version) } }),
          200,
          `putting the deployment back on version ${current.version}`,
        );
      before = await e6Settings(api, dep);
    },
    // E6 rule 1: any value that is no listed version is a 400, whatever it might be read as.
    lenient: () => false,
    async unchanged(api) {
      const now = await currentVersions(api, ctx.expect, dep);
      ctx.expect.that(bare(now.current?.version) === bare(current.version), "E5 marks the same version current as before", {
        expected: `isCurrent on ${current.version}`,
        got: now.current ? `isCurrent on ${now.current.version}` : "none",
        res: now.res,
        reason: "current-version",
      });
      const after = before && (await e6Settings(api, dep));
      if (before && after)
        ctx.expect.equal(after.fields, before.fields, "the E6 fields of the settings are as they were", { res: after.res, reason: "settings-unchanged" });
    },
  };
}

export const atVersion = (b: BadBody) => b.at === "/releaseChannelVersion";

/**
 * E6 names the fields but shows no types beyond releaseChannelVersion: a value is mistyped only
 * where the server's own document says so. The update stage's cases, a 2xx judged a finding only
 * where the body breaks the request schema the server documents for E6 (one that documents none is not judged).
 */
export async function documentedTypesStage(ctx: CheckContext): Promise<Stage> {
  const op = (await documented(ctx)).requireNamed("updateDeployment", "types the E6 fields (the spec shows only their names)");
  const schema = op.bodySchema();
  if (!schema || typeof schema !== "object")
    throw new NotVerifiable("the server's document shows no JSON body for E6: the types of its fields are not shown anywhere");
  const documentedBody = conforms(schema);
  const stage = await updateStage(ctx);
  // A body the server's document allows is a reading it may take, as a lenient one is: a 2xx to it is no finding.
  return { ...stage, lenient: (b) => stage.lenient(b) || (b.raw === undefined && documentedBody(b.body)) };
}

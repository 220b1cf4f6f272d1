import fc from "fast-check";
import { groupedById, type CheckSpec, type Need } from "../core/check.js";
import type { CheckContext } from "../core/context.js";
import type { Endpoint } from "../core/endpoints.js";
import { forAll } from "../core/property.js";
import { atVersion, bulkMoveStage, bulkMoveTyped, cloneStage, draftStage, envVarStage, tokenStage, stagingStage, updateStage, upsertStage, type BadBody, type Stage } from "./lib/negative-stages.js";

/**
 * Negative data (E3, E4, E6, E10, E11, E12, PUT env-vars): a body that breaks one rule of the
 * endpoint, in an otherwise valid request that would have changed something, changes nothing; it
 * is rejected with a 4xx (at MUST where the spec names the status or the rule is stated, at SHOULD
 * where it names none). The stages live in lib/negative-stages.ts. The valid request names only what the check created or restores, so a
 * server that wrongly accepts one acts on the run's own objects. Unknown extra fields are never
 * sent as "invalid": a server may ignore them.
 */

const describe = (bad: BadBody) => (bad.kind === "malformed-json" ? "a body that is not JSON" : `a body with ${bad.kind} at ${bad.at || "the root"}`);

/** One endpoint of a negative property: how to set it up, which of its cases the property sends, and the status they must get (else any 4xx). */
interface Part {
  endpoint: string;
  stage: (ctx: CheckContext) => Promise<Stage>;
  select: (bad: BadBody) => boolean;
  status?: (bad: BadBody) => number[] | undefined;
}

const everything = () => true;

/**
 * What a property judges of each case. "rejected": a 4xx (or the status a part names), and
 * nothing changed. "not-applied": where the spec names no status for the break, what it does
 * state: no server error, and nothing changed (a status a part names is still judged).
 */
type Judged = "rejected" | "not-applied";

/**
 * The property: every case the parts select is judged as `judged` says. Endpoints whose rules
 * the spec fixes to the same degree share one property. A trial is a short session of up to
 * three bad requests, each to one endpoint; shrinking leaves the one that is not refused. A 2xx to
 * a case a lenient server may read as valid is that reading, not a break: it is checked for
 * faithfulness where it can be, and the state put back.
 */
function negative(o: Pick<CheckSpec, "id" | "spec" | "level" | "title"> & { needs: Need[]; parts: Part[]; judged?: Judged }): CheckSpec {
  const judged = o.judged ?? "rejected";
  return {
    id: o.id,
    spec: o.spec,
    level: o.level,
    title: o.title,
    kind: "property",
    needs: o.needs,
    async run(ctx) {
      const parts: (Part & Stage & { moved: boolean })[] = [];
      for (const p of o.parts) parts.push({ ...p, ...(await p.stage(ctx)), moved: false });
      const cases = fc.oneof(...parts.map((p) => p.cases.filter(p.select).map((bad) => ({ endpoint: p.endpoint, ...bad }))));
      await forAll(ctx, fc.array(cases, { minLength: 1, maxLength: 3 }), async (session, api) => {
        for (const p of parts) if (p.moved) await p.restore(api);
        for (const p of parts) p.moved = false;
        for (const bad of session) {
          const part = parts.find((p) => p.endpoint === bad.endpoint)!;
          part.moved = true;
          const res = await part.send(api, bad);
          // Where only what is stated is judged, a case the spec gives no outcome may also be read without its unusable part.
          const lenient = part.lenient(bad) || (judged === "not-applied" && (part.ignorable?.(bad) ?? false));
          if (res.status < 300 && lenient) {
            await part.faithful?.(api, bad, res);
            await part.restore(api);
            part.moved = false;
            continue;
          }
          const status = part.status?.(bad);
          const what = `${bad.endpoint}: ${describe(bad)}`;
          // A missing route refuses everything: that proves nothing about the body.
          ctx.requireRoute(res, /^E\d+$/.test(bad.endpoint) ? (bad.endpoint as Endpoint) : "E14", what);
          if (status) ctx.expect.status(res, status, `${what} is rejected`);
          else if (judged === "rejected") ctx.expect.clientError(res, `${what} is rejected with a 4xx`);
          else ctx.expect.that(res.status < 500, `${what} is no server error`, { expected: "a status below 500", got: `${res.status}`, res, reason: "no-5xx" });
          await part.unchanged(api, res);
          part.moved = false;
        }
      });
    },
  };
}

const TOKEN_NEEDS: Need[] = ["writes", "fixture:deployment", "fixture:environment"];
/** A bad E6 body that a server took anyway would change the deployment: only the one named for it, only with the opt-in. */
const DEPLOYMENT_CHANGES: Need[] = ["writes", "deployment-changes", "fixture:mutableDeployment"];

const WORKSPACE_PARTS: Part[] = [
  { endpoint: "E10", stage: cloneStage, select: everything },
  { endpoint: "E11", stage: upsertStage, select: everything },
  { endpoint: "E12", stage: bulkMoveStage, select: bulkMoveTyped },
];

export const negativeChecks = groupedById([
  negative({
    id: "tokens.negative.broken-body",
    spec: "E3 (security_context: object, required; expires_in: number); Errors 2 (no status named)",
    level: "MUST",
    title: "Any E3 body whose security_context is missing or not an object, or whose expires_in is not a number, or that is not JSON, issues no token and is no server error",
    needs: TOKEN_NEEDS,
    judged: "not-applied",
    parts: [{ endpoint: "E3", stage: tokenStage, select: (b) => b.kind !== "out-of-range" }],
  }),
  negative({
    id: "tokens.negative.broken-body-4xx",
    spec: "E3 (security_context: object, required; expires_in: number)",
    // SHOULD: the spec names no status for a broken E3 body.
    level: "SHOULD",
    title: "Any E3 body whose security_context is missing or not an object, or whose expires_in is not a number, or that is not JSON, is rejected with a 4xx",
    needs: TOKEN_NEEDS,
    parts: [{ endpoint: "E3", stage: tokenStage, select: (b) => b.kind !== "out-of-range" }],
  }),
  negative({
    id: "tokens.negative.non-positive-lifetime",
    spec: "E3 (expires_in: seconds)",
    level: "SHOULD",
    title: "Any E3 body whose expires_in is zero or negative is rejected with a 4xx",
    needs: TOKEN_NEEDS,
    parts: [{ endpoint: "E3", stage: tokenStage, select: (b) => b.kind === "out-of-range" }],
  }),
  negative({
    id: "staging.negative.broken-body",
    spec: "E4 (enabled: boolean, required; branchName: string or branchId: integer, one of them); Errors 5 (no status named)",
    level: "MUST",
    title: "Any E4 body with enabled missing or not a boolean, a branchName or branchId of the wrong type, neither of them, or no JSON, leaves the staging flag as it was and is no server error",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    judged: "not-applied",
    parts: [{ endpoint: "E4", stage: stagingStage, select: everything }],
  }),
  negative({
    id: "staging.negative.broken-body-4xx",
    spec: "E4 (enabled: boolean, required; branchName: string or branchId: integer, one of them)",
    // SHOULD: the spec names no status for a broken E4 body.
    level: "SHOULD",
    title: "Any E4 body with enabled missing or not a boolean, a branchName or branchId of the wrong type, neither of them, or no JSON, is rejected with a 4xx",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    parts: [{ endpoint: "E4", stage: stagingStage, select: everything }],
  }),
  negative({
    id: "deployment-update.negative.unlisted-version",
    spec: "E6 rule 1; Errors 2",
    level: "MUST",
    title: "Any E6 body whose releaseChannelVersion is not a listed version in an accepted form, whatever its type, gets 400; a body that is not a JSON object a 4xx; neither changes the deployment",
    needs: DEPLOYMENT_CHANGES,
    parts: [{ endpoint: "E6", stage: updateStage, select: (b) => atVersion(b) || b.at === "" || b.kind === "malformed-json", status: (b) => (atVersion(b) ? [400] : undefined) }],
  }),
  negative({
    id: "workspace.negative.broken-body",
    spec: "E10 (body {shared: boolean}); E11 (name string, folderId integer, meta object); E12 (items array, folderId integer or null); no status named",
    level: "MUST",
    title: "Any clone, upsert or bulk-move body with a field of a type other than the one the spec shows, that is not an object, or that is not JSON, creates, changes and moves nothing beyond what the request without its unusable part does, and is no server error",
    needs: ["writes", "fixture:deployment"],
    judged: "not-applied",
    parts: WORKSPACE_PARTS,
  }),
  negative({
    id: "workspace.negative.broken-body-4xx",
    spec: "E10 (body {shared: boolean}); E11 (name string, folderId integer, meta object); E12 (items array, folderId integer or null)",
    // SHOULD: the spec names no status for a wrongly typed clone, upsert or bulk-move body.
    level: "SHOULD",
    title: "Any clone, upsert or bulk-move body with a field of a type other than the one the spec shows, that is not an object, or that is not JSON, is rejected with a 4xx",
    needs: ["writes", "fixture:deployment"],
    parts: WORKSPACE_PARTS,
  }),
  negative({
    id: "deployment-update.negative.mistyped-fields",
    spec: "E6 (field types not shown)",
    level: "SHOULD",
    title: "An E6 body with another field than releaseChannelVersion of an implausible type (a number for region, a non-string template variable, ...) is rejected with a 4xx and changes nothing",
    // A template variable a server took anyway could not be removed.
    needs: [...DEPLOYMENT_CHANGES, "unremovable-writes"],
    parts: [{ endpoint: "E6", stage: updateStage, select: (b) => !atVersion(b) && b.at !== "" && b.kind !== "malformed-json" }],
  }),
  negative({
    id: "upsert.negative.broken-draft",
    spec: "E11 rule 2 (a meta.dashboardDraft is validated as elsewhere); Resources / DashboardConfig",
    level: "MUST",
    title: "Any meta.dashboardDraft that breaks DashboardConfig at one place, however deep (a field of another JSON type, an unknown or near-miss enum value, an app entry past 255 characters, a widget without its id, type or position), is not applied (the workbook keeps its name, meta and folder) and is no server error",
    needs: ["writes", "fixture:deployment"],
    judged: "not-applied",
    parts: [{ endpoint: "E11", stage: draftStage, select: everything }],
  }),
  negative({
    id: "errors.negative.implied-rules",
    spec: "E12 (items of {type, id}, up to 100), Limits; PUT env-vars (E14, body in the platform's documentation)",
    level: "SHOULD",
    title: "Bodies that break what the spec only implies (a malformed E12 entry or more than 100 of them, a missing items, a bad PUT env-vars entry or the [ENCRYPTED] placeholder) are rejected with a 4xx and change nothing",
    // PUT env-vars sets variables that cannot be removed, should a server take a bad body.
    needs: ["writes", "unremovable-writes", "fixture:deployment"],
    parts: [
      { endpoint: "E12", stage: bulkMoveStage, select: (b) => !bulkMoveTyped(b) },
      { endpoint: "PUT env-vars", stage: envVarStage, select: everything },
    ],
  }),
]);

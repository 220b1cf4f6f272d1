import { group } from "../../core/check/check.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { propertiesOf } from "../../core/served/answers.js";
import { field, type ServedOperation } from "../../core/served/served-operations.js";
import { accepted, bodyWith, createdIn, documented } from "../lib/e14.js";
import type { CheckContext } from "../../core/check/context.js";
import { ADMIN } from "../lib/needs.js";

/** E14 rules in the parameters of policies: the actions Authentication 5 names. Shapes come from the server's own document (E14 shows none). */

/** A policy body naming one action, as the document spells the action (one value or a list). */
async function policyBody(ctx: CheckContext, op: ServedOperation, name: string, action: string): Promise<Record<string, unknown>> {
  const props = propertiesOf(op.bodySchema());
  const key = Object.keys(props).find((k) => ["action", "actions"].includes(k.toLowerCase()));
  if (!key) throw new NotVerifiable(`${op.label} documents no action property`);
  // A principal the policy names is one the server lists (a user or a group), not a made-up id.
  return bodyWith(ctx, op, { "name|title": name, [key]: props[key]?.type === "array" ? [action] : action }, ctx.fixture("deployment").id);
}

export const policyChecks = [
  ...group("policies", [
    {
      id: "policies.actions.named",
      spec: "Authentication 5",
      level: "MUST",
      title: "A policy can be created with the action SecretsManage and with DownloadData, and keeps it",
      needs: [...ADMIN, "fixture:deployment"],
      async run(ctx) {
        const doc = await documented(ctx);
        const op = doc.requireNamed("createPolicy", "creates a policy");
        const listedActions = op.enumOf("action|actions") ?? propertiesOf(op.bodySchema()).actions?.items?.enum;
        for (const action of ["SecretsManage", "DownloadData"]) {
          if (Array.isArray(listedActions))
            ctx.expect.that(listedActions.includes(action), `the document's policy actions include ${action}`, {
              expected: action,
              got: listedActions,
              reason: "action-documented",
            });
          const body = await policyBody(ctx, op, ctx.scratch.name(`policy-${action}`), action);
          const res = await ctx.api.call("createPolicy", {}, { body });
          accepted(ctx, res, { body, op, underTest: ["action", "actions", action] }, `a policy with action ${action} is created`, "policy-action-accepted");
          const { id, record } = createdIn(ctx, op, res, `creating a ${action} policy`);
          ctx.scratch.onCleanup(`delete policy ${id}`, async () => void (await ctx.api.call("deletePolicy", { policyId: id })));
          const shown = field(record, "action|actions");
          if (shown !== undefined)
            ctx.expect.that(shown === action || (Array.isArray(shown) && shown.includes(action)), `the policy keeps action ${action}`, {
              expected: action,
              got: shown,
              res,
              reason: "action-kept",
            });
        }
      },
    },
  ]),
];

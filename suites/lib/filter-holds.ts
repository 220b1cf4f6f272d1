import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import { field } from "../../core/served/served-operations.js";
import { allRecords } from "./e14.js";

/** Each value of a filter lists only records carrying it; exercised when some record shows the field. */
export async function filterHolds(ctx: CheckContext, path: string, param: string, values: string[], fieldNames: string, reason: ReasonKey): Promise<void> {
  let seen = 0;
  for (const value of values) {
    const { res, items } = await allRecords(ctx, path, { [param]: value }, `the list filtered by ${param}=${value}`);
    const shown = items.map((r) => field(r, fieldNames)).filter((v) => v !== undefined);
    seen += shown.length;
    ctx.expect.equal(
      shown.filter((v) => v !== value),
      [],
      `${param}=${value} lists only records of that ${param}`,
      { res, reason },
    );
  }
  if (!seen) throw new NotExercised(`no record filtered by ${param} (${values.join(", ")}) shows its ${param}`);
}

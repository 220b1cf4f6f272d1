import type { CheckContext } from "../../core/check/context.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { workbooksPath } from "./workbook-calls.js";

/**
 * Authentication 4: cloning a workbook (E10 rule 5) and creating one by slug (E11 rule 4) need the
 * AI BI User role or higher. A caller below it (tokens.viewer) is refused both, on a workbook it
 * can read too, and nothing is made.
 */
export const VIEWER = ["writes", "token:viewer", "fixture:deployment"] as const;

/** Workbooks of the deployment named `name`, over every page (the run's own key). */
export async function namedIn(ctx: CheckContext, dep: string, name: string): Promise<number[]> {
  const walk = await walkCursor(ctx.api, workbooksPath(dep), { first: 100, endpoint: "E8" });
  return walk.items.filter((w: any) => w?.name === name).map((w: any) => w.id);
}

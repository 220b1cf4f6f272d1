import type { Api } from "../../core/transport/api.js";
import type { Response } from "../../core/transport/http.js";
import { walkAgainUntil, walkCursor } from "../../core/transport/pagination.js";
import { pathTo } from "../../core/transport/client.js";
import { WHOLE_PAGE } from "./cursor-walk.js";

/** E13: the deployment's environment variables. */
export const varsPath = (dep: string) => pathTo("listEnvVars", { deploymentId: dep });

/** A variable as the list shows it now, looked up by name over every page. */
export async function listedVariable(api: Api, dep: string, name: string): Promise<{ value: unknown; res: Response } | undefined> {
  const named = (items: any[]) => items.some((v) => v?.name === name);
  const read = () => walkCursor(api, varsPath(dep), { first: WHOLE_PAGE, endpoint: "E13", until: named });
  const walk = await walkAgainUntil(read, (w) => named(w.items));
  for (const p of walk.pages) {
    const found = p.items.find((v: any) => v?.name === name);
    if (found) return { value: found.value, res: p.res };
  }
  return undefined;
}

import { HttpError, ok, type Route } from "../http.js";
import { cursorPage, offsetPage } from "../paging.js";
import type { EnvironmentRecord } from "../store.js";
import { deploymentOf } from "./common.js";

const TYPES = ["production", "staging", "development"];

/** Resources / Environment, list shape: api_credentials as an array of kinds. */
export function environmentItem(depId: number, e: EnvironmentRecord) {
  const host = `${e.id}.reference.local`;
  return {
    id: e.id,
    type: e.type,
    branch: e.branch,
    user: e.user,
    api_credentials: [
      { type: "rest", version: 1, database: `db_${depId}`, host, port: 443, url: `https://${host}/cubejs-api/v1` },
      { type: "sql", version: 1, database: `db_${depId}`, host, port: 5432, url: `postgres://${host}:5432/db_${depId}` },
    ],
  };
}

export const environmentRoutes: Route[] = [
  {
    operation: "listEnvironments",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const type = req.query.get("type");
      if (type !== null && !TYPES.includes(type)) throw new HttpError(400, `type must be one of ${TYPES.join(", ")}`);
      // The filter holds on every page it serves, whatever its after or offset.
      const all = app.b
        .environmentsOf(dep)
        .filter((e) => app.b.environmentMatchesType(e, type))
        .map((e) => environmentItem(dep.id, e));
      // published docs: `items` is the whole list unless `first` is given; only legacy `data` follows offset/limit.
      const cursor = cursorPage(app.b, all, req.query);
      const legacy = offsetPage(app.b, all, req.query, 0);
      return ok({ items: cursor.items, pageInfo: cursor.pageInfo, data: legacy.items, pagination: legacy.pagination });
    },
  },
  {
    operation: "listBranches",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const list = dep.branches.map((b) => ({
        id: b.id,
        name: b.name,
        parentBranch: b.parentBranch || null,
        lastHash: b.lastHash,
        isStagingEnvironmentEnabled: b.isStagingEnvironmentEnabled,
      }));
      const page = cursorPage(app.b, list, req.query);
      return ok({ items: page.items, data: page.items, pageInfo: page.pageInfo });
    },
  },
];

import type { Api } from "../../core/transport/api.js";
import type { Expect } from "../../core/api/expect.js";
import { environmentView, type EnvironmentView } from "../../core/check/fixtures.js";
import type { Response } from "../../core/transport/http.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { requireAnswer } from "../../core/api/preconditions.js";
import { pathTo } from "../../core/transport/client.js";
import type { OneShape } from "../../core/api/operation-types.js";
import type { Environment, EnvironmentsListResponse } from "../../core/api/schema-types.js";

/**
 * The environments E2 lists right now, in either documented shape (items/pageInfo, or the
 * control-plane data.environments): for checks that change what it lists, where the fixture's
 * copy, read once per run, would be stale. A page short of the whole list is followed.
 */
export async function currentEnvironments(api: Api, expect: Expect, dep: string, type?: string): Promise<{ environments: EnvironmentView[]; res: Response }> {
  const path = pathTo("listEnvironments", { deploymentId: dep });
  const query = type === undefined ? {} : { type };
  const res = await api.get(path, query);
  // Unfiltered, the list is the check's starting point; filtered, its answer is the rule under test.
  if (type === undefined) requireAnswer(res, "E2", "listing the environments");
  expect.status(res, 200, "the environments list (E2)");
  const body = expect.json(res);
  if (Array.isArray(body?.items)) {
    const items = body.pageInfo?.hasNextPage ? (await walkCursor(api, path, { query })).items : body.items;
    return { environments: items.map(environmentView), res };
  }
  const listed = body?.data?.environments;
  if (!Array.isArray(listed))
    expect.fail("the environments list (E2) holds neither items nor data.environments", {
      expected: "items or data.environments",
      got: Object.keys(body ?? {}),
      res,
      reason: "no-list",
    });
  const total = body.pagination?.total;
  if (typeof total === "number" && total > listed.length) {
    const whole = await api.get(path, { ...query, limit: total });
    expect.status(whole, 200, "the environments list (E2) read whole");
    return { environments: (expect.json(whole)?.data?.environments ?? []).map(environmentView), res: whole };
  }
  return { environments: listed.map(environmentView), res };
}

/** E2's offset-paged copy: the deprecated data array, or data.environments of the control-plane shape. */
export const legacyEnvironments = (body: unknown): Environment[] | undefined => {
  const data = (body as EnvironmentsAnswer | null | undefined)?.data;
  return Array.isArray(data) ? data : Array.isArray(data?.environments) ? data.environments : undefined;
};

/** Whether an E2 answer pages its legacy copy by offset and limit: a copy with a pagination object (pagination may be null, the list then shown whole). */
export const offsetPaged = (body: unknown): boolean => {
  const pagination = (body as EnvironmentsAnswer | null | undefined)?.pagination;
  return legacyEnvironments(body) !== undefined && typeof pagination === "object" && pagination !== null;
};

/** An E2 answer read field by field, in either documented shape. */
type EnvironmentsAnswer = OneShape<EnvironmentsListResponse>;

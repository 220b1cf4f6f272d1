import type { Environment } from "../../core/api/schema-types.js";
import type { Api } from "../../core/transport/api.js";
import { group } from "../../core/check/check.js";
import type { Expect } from "../../core/api/expect.js";
import { environmentView, type EnvironmentView } from "../../core/check/fixtures.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkCursor, walkOffset, wholeList } from "../../core/transport/pagination.js";
import type { Response } from "../../core/transport/http.js";
import {
  exactlyFullPagesOf,
  expectLastPageSaysSo,
  expectPageInfoOnPartialPage,
  expectWalkCovers,
  severalPagesOf,
  smallestPagesOf,
} from "../lib/cursor-walk.js";
import { currentEnvironments, legacyEnvironments, offsetPaged } from "../lib/environment-list.js";
import { notASubset } from "../lib/legacy-copy.js";
import { pathTo } from "../../core/transport/client.js";

const TYPES = ["production", "staging", "development"] as const;
/** A legacy page that holds a deployment's environments whole: the filter is judged on the page, not on a walk. */
const LEGACY_PAGE = 100;
const listPath = (dep: string) => pathTo("listEnvironments", { deploymentId: dep });
const ids = (envs: { id?: unknown }[]) => envs.map((e) => String(e?.id));

/** The cursor checks need the cursor shape and at least two environments to span two pages. */
async function walkable(api: Api, expect: Expect, dep: string): Promise<EnvironmentView[]> {
  const { environments, res } = await currentEnvironments(api, expect, dep);
  if (!Array.isArray(res.body?.items))
    throw new NotExercised("the server answers E2 in the control-plane shape (data.environments, no items/pageInfo): there is no cursor to walk");
  if (environments.length < 2)
    throw new NotExercised(`the deployment has ${environments.length} environment(s): a cursor walk needs at least two to span two pages`);
  return environments;
}

/** The whole list, then a cursor walk of it in pages of several environments each. */
async function walkInSeveralPages(api: Api, expect: Expect, dep: string) {
  const whole = await walkable(api, expect, dep);
  return { whole, walk: await walkCursor<Environment>(api, listPath(dep), { first: severalPagesOf(whole.length), maxPages: whole.length + 2 }) };
}

/**
 * E2's type filter walked in pages of the smallest size that spans two (first/after over items,
 * offset/limit over the deprecated data): each page keeps to the type, and the walk yields each
 * environment of it (`typed`: each type and its environments' ids, two or more). `listed` bounds
 * the walk of a server that drops the filter.
 */
export async function expectFilteredWalks(api: Api, expect: Expect, dep: string, listed: number, typed: { type: string; whole: string[] }[]): Promise<void> {
  let walked = 0;
  for (const { type, whole } of typed) {
    const size = smallestPagesOf(whole.length);
    // A server that drops the filter walks the unfiltered list: the walk must reach its wrong pages, not stop short.
    const limits = { maxPages: listed + 2, query: { type } };
    const head = await api.get(listPath(dep), { type, first: size });
    const walks: { how: string; pages: { items: any[]; res: Response }[]; items: any[] }[] = [];
    if (Array.isArray(head.body?.items) && head.body?.pageInfo)
      walks.push({ how: `first=${size}`, ...wholeList(await walkCursor(api, listPath(dep), { first: size, ...limits }), "environments") });
    if (offsetPaged((await api.get(listPath(dep), { type, limit: size })).body)) {
      const walk = wholeList(await walkOffset(api, listPath(dep), size, legacyEnvironments, limits), "environments");
      walks.push({ how: `limit=${size} (data)`, items: walk.items, pages: walk.pages.map((res) => ({ items: legacyEnvironments(res.body) ?? [], res })) });
    }
    for (const walk of walks) {
      for (const [i, page] of walk.pages.entries()) {
        const other = page.items.map(environmentView).filter((e) => e.type !== type);
        expect.that(other.length === 0, `page ${i + 1} of type=${type} at ${walk.how} lists only ${type} environments`, {
          expected: `type ${type} only`,
          got: other.map((e) => `${e.id}: ${e.type}`),
          res: page.res,
          reason: "filter-every-page",
        });
      }
      expectWalkCovers(expect, ids(walk.items), whole, `${type} environment (${walk.how})`, walk.pages.at(-1)?.res);
      walked++;
    }
  }
  if (!walked) throw new NotExercised("the environments list offers neither items with pageInfo nor a deprecated data array with pagination to walk in pages");
}

export const environmentChecks = group("environments", [
  {
    id: "environments.list.schema",
    spec: "E2; Resources / Environment",
    level: "MUST",
    title:
      "The environments list answers 200 in one of the documented shapes (items/pageInfo, or data.environments); a page short of the whole list carries pageInfo",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const path = listPath(fixture("deployment").id);
      const body = expect.ok(await api.get(path), "EnvironmentsListResponse");
      if (Array.isArray(body.items)) await expectPageInfoOnPartialPage(api, expect, path, body.items.length, "environment");
    },
  },
  {
    id: "environments.list.ids",
    spec: "Resources / Environment (id: string); E3 (addressed by environmentId)",
    level: "SHOULD",
    title: "Every environment carries a string id (which fields are required is not shown, but E3 addresses an environment by it)",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const { environments, res } = await currentEnvironments(api, expect, fixture("deployment").id);
      if (!environments.length) throw new NotExercised("the deployment lists no environment");
      const without = environments.filter((e) => typeof e.raw?.id !== "string" || e.raw.id === "");
      expect.that(without.length === 0, "every environment has a non-empty string id", {
        reason: "ids",
        expected: "id on each",
        got: without.slice(0, 3).map((e) => e.raw),
        res,
      });
    },
  },
  {
    id: "environments.filter.only-that-type",
    spec: "E2 (query type)",
    level: "MUST",
    title: "With type=T the list holds only environments of type T: in items, and in the deprecated data when offset and limit are sent",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      let typed = 0;
      let listed = 0;
      for (const type of TYPES) {
        const current = await currentEnvironments(api, expect, dep, type);
        // The deprecated data array as offset/limit page it: a server once sliced it from the unfiltered list (a read path of its own).
        const paged = await api.get(listPath(dep), { type, offset: 0, limit: LEGACY_PAGE });
        const legacy = offsetPaged(paged.body) ? (legacyEnvironments(paged.body) ?? []).map(environmentView) : [];
        for (const [how, environments, res] of [
          ["", current.environments, current.res],
          [` (data, offset=0&limit=${LEGACY_PAGE})`, legacy, paged],
        ] as const) {
          const other = environments.filter((e) => e.type !== undefined && e.type !== type);
          expect.that(other.length === 0, `type=${type} lists only ${type} environments${how}`, {
            reason: "only-type",
            expected: `type ${type} only`,
            got: other.map((e) => `${e.id}: ${e.type}`),
            res,
          });
          typed += environments.filter((e) => e.type !== undefined).length;
          listed += environments.length;
        }
      }
      // Environments without a type (the control-plane shape may omit it) say nothing about the filter.
      if (!typed) throw new NotExercised(`the lists filtered by ${TYPES.join(", ")} held ${listed} environment(s), none with a type to compare`);
    },
  },
  {
    id: "environments.filter.all-of-that-type",
    spec: "E2 (query type)",
    level: "MUST",
    title: "With type=T the list holds every environment of type T that the unfiltered list holds",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const all = (await currentEnvironments(api, expect, dep)).environments;
      if (!all.some((e) => typeof e.type === "string")) throw new NotExercised("no environment of the unfiltered list carries a type to filter on");
      for (const type of TYPES) {
        const { environments, res } = await currentEnvironments(api, expect, dep, type);
        const listed = new Set(ids(environments));
        const missing = ids(all.filter((e) => e.type === type)).filter((id) => !listed.has(id));
        expect.that(missing.length === 0, `type=${type} lists every ${type} environment of the unfiltered list`, {
          reason: "all-of-type",
          expected: "none missing",
          got: `missing: ${missing.join(", ")}`,
          res,
        });
      }
    },
  },
  {
    id: "environments.filter.every-page",
    spec: "E2 (query type); Pagination styles 1 and 2",
    level: "MUST",
    title:
      "Walked in small pages (first/after over items, offset/limit over the deprecated data), type=T keeps to type T on every page, and the walk yields every environment of type T",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const all = (await currentEnvironments(api, expect, dep)).environments;
      const typed = TYPES.map((type) => ({ type, whole: ids(all.filter((e) => e.type === type)) })).filter((t) => t.whole.length >= 2);
      if (!typed.length) throw new NotExercised(`no type is held by two environments (${all.length} listed): a filtered walk needs two to span two pages`);
      await expectFilteredWalks(api, expect, dep, all.length, typed);
    },
  },
  {
    id: "environments.cursor.complete",
    spec: "E2; Pagination styles 2",
    level: "MUST",
    title: "Walking the list with first/after at a small page size yields every environment exactly once, and ends",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const { whole, walk } = await walkInSeveralPages(api, expect, dep);
      expectWalkCovers(expect, ids(walk.items), ids(whole), "environment", walk.pages.at(-1)?.res);
    },
  },
  {
    id: "environments.cursor.first-caps-page",
    spec: "E2; Pagination styles 2",
    level: "MUST",
    title: "A cursor page holds at most `first` environments",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const whole = await walkable(api, expect, dep);
      const first = severalPagesOf(whole.length);
      const walk = await walkCursor(api, listPath(dep), { first, maxPages: whole.length + 2 });
      for (const [i, page] of walk.pages.entries())
        expect.that(page.items.length <= first, `page ${i + 1} holds at most first=${first} environments`, {
          reason: "first-caps",
          expected: `<= ${first}`,
          got: page.items.length,
          res: page.res,
        });
    },
  },
  {
    id: "environments.cursor.page-info",
    spec: "E2; Resources / PageInfo; Pagination styles 2",
    level: "MUST",
    title: "hasNextPage is true on every page before the one holding the last environment; after it the walk ends (at once, or after one empty page)",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const { whole, walk } = await walkInSeveralPages(api, expect, dep);
      let seen = 0;
      for (const [i, page] of walk.pages.entries()) {
        seen += page.items.length;
        if (seen < whole.length)
          expect.equal(page.pageInfo?.hasNextPage, true, `page ${i + 1} (${seen} of ${whole.length} environments seen): hasNextPage is true`, {
            res: page.res,
            reason: "has-next-page",
          });
        // A full last page may still announce a next one, if that one is empty and ends the walk.
        else if (i < walk.pages.length - 1)
          expect.that(
            walk.pages.slice(i + 1).every((p) => p.items.length === 0) && walk.pages.length - i === 2,
            `after page ${i + 1}, which holds the last environment, at most one empty page follows`,
            {
              expected: "the walk ends there, or after one empty page",
              got: walk.pages.slice(i + 1).map((p) => `${p.items.length} items`),
              res: walk.pages.at(-1)?.res,
              reason: "no-empty-page",
            },
          );
      }
    },
  },
  {
    id: "environments.cursor.page-info-exact",
    spec: "E2; Resources / PageInfo",
    level: "SHOULD",
    title:
      "hasNextPage is already false on the page holding the last environment (no empty page after it), whether that page is partly filled or exactly full: several pages, one page of them all, pages of a size that divides their count",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const whole = await walkable(api, expect, dep);
      for (const first of new Set([severalPagesOf(whole.length), ...exactlyFullPagesOf(whole.length)]))
        expectLastPageSaysSo(
          expect,
          await walkCursor<Environment>(api, listPath(dep), { first, maxPages: whole.length + 2 }),
          whole.length,
          first,
          "environment",
        );
    },
  },
  {
    id: "environments.legacy.consistent",
    spec: "E2; Pagination styles 1 and 2",
    level: "MUST",
    title:
      "The deprecated data is a window of the environments of items (in any order) of the size pagination describes, and pagination.total is the whole count, unfiltered and with each type=T",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      const dep = fixture("deployment").id;
      const all = await currentEnvironments(api, expect, dep);
      if (!Array.isArray(all.res.body?.items))
        throw new NotExercised("the server answers E2 in the control-plane shape: there are no items to compare the legacy fields with");
      let compared = 0;
      // The type filter holds on the deprecated copy too: a server once filtered items only.
      const queries: Record<string, string | number>[] = [{}, { offset: 1, limit: 2 }, ...TYPES.map((type) => ({ type }))];
      for (const query of queries) {
        const whole = ids(typeof query.type === "string" ? (await currentEnvironments(api, expect, dep, query.type)).environments : all.environments);
        const res = await api.get(listPath(dep), query);
        const body = expect.ok(res, "EnvironmentsListResponse");
        if (!Array.isArray(body.data)) continue;
        compared++;
        const data = ids(body.data);
        const p = body.pagination;
        // A window of the same environments, in whatever order the server keeps them: data is a
        // deprecated copy, and no order of either list is a rule of the spec.
        const off = notASubset(data, whole);
        expect.that(!off, "data holds environments of items, each once", { expected: "a subset of the ids of items", got: off, res, reason: "data-copy" });
        if (!p) continue;
        expect.equal(p.total, whole.length, "pagination.total is the number of environments in the whole list", { res, reason: "total" });
        expect.equal(p.offset, "offset" in query ? query.offset : 0, "pagination.offset echoes the offset sent (0 when none)", {
          res: res,
          reason: "offset-echoed",
        });
        expect.equal(
          data.length,
          Math.min(p.limit, Math.max(0, p.total - p.offset)),
          "data holds pagination.limit environments, or those left after pagination.offset",
          { res: res, reason: "data-page" },
        );
      }
      if (!compared) throw new NotExercised("the server sends no deprecated data array beside items");
    },
  },
  {
    id: "environments.staging.listed",
    spec: "E2; States (Branch isStagingEnvironmentEnabled = true)",
    level: "MUST",
    title: "A branch with an always-on staging environment appears in the environments list with type staging",
    needs: ["fixture:deployment", "fixture:branches"],
    async run({ api, expect, fixture }) {
      const alwaysOn = fixture("branches").filter((b) => b.isStagingEnvironmentEnabled === true);
      if (!alwaysOn.length)
        throw new NotExercised("no branch of the branches list has isStagingEnvironmentEnabled true (enable one with E4 to run this check)");
      const { environments, res } = await currentEnvironments(api, expect, fixture("deployment").id);
      if (!environments.some((e) => typeof e.branch === "string")) throw new NotExercised("the environments carry no branch field to match a branch by");
      for (const b of alwaysOn) {
        const ofBranch = environments.filter((e) => e.branch === b.name);
        expect.that(
          ofBranch.some((e) => e.type === "staging"),
          `branch ${b.name} (always-on staging) is listed as a staging environment`,
          {
            reason: "staging-listed",
            expected: `an environment with branch ${b.name} and type staging`,
            got: ofBranch.length ? ofBranch.map((e) => `${e.id}: ${e.type}`) : "no environment of that branch",
            res,
          },
        );
      }
    },
  },
]);

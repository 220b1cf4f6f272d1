import { trailingEmptyPage } from "../shape-variants.js";
import type { Fault } from "../http.js";

/** A list that clamps first below 1 up to 1 and serves the page instead of refusing it. */
const firstClampedToOne: NonNullable<Fault["handle"]> = ({ req, next }) => {
  const first = Number(req.query.get("first"));
  if (req.query.has("first") && first < 1) req.query.set("first", "1");
  return next();
};

/** The faults of the group pagination (suites/pagination/): each makes a check of it fail, for the reason its `because` names. */
export const paginationFaults: Fault[] = [
  {
    name: "workbooks-first-zero-clamped",
    breaks: "Pagination styles 2 (first minimum 1: below it, a 4xx is a SHOULD)",
    description: "the workbooks list clamps first below 1 up to 1 and serves the page instead of refusing it",
    because: { "pagination.cursor.first-below-minimum-rejected": "client-error" },
    operations: ["listWorkbooks"],
    handle: firstClampedToOne,
  },
  {
    name: "e14-lists-first-zero-clamped",
    breaks: "Limits (first minimum 1, cursor lists: below it, a 4xx is a SHOULD); E14 rule 11",
    description:
      "the lists made cursor-paginated in 0.4.0 (branches, data-model files, regions, user attributes) clamp first below 1 up to 1 and serve the page; E2, E8 and E13 refuse it",
    because: { "pagination.cursor.first-below-minimum-rejected": "client-error" },
    operations: ["listBranches", "listDataModelFiles", "listRegions", "listUserAttributes"],
    handle: firstClampedToOne,
  },
  {
    name: "workbooks-full-last-page-has-next",
    breaks: "Resources / PageInfo (hasNextPage false on the last page: SHOULD)",
    description: "the workbooks list says hasNextPage: true on any full page, the last one too (an empty page follows)",
    because: { "pagination.cursor.last-page-exact": "last-page" },
    routes: ["E8"],
    respond: ({ body, req }) => trailingEmptyPage(body, req),
  },
  {
    name: "env-vars-full-last-page-has-next",
    breaks: "Resources / PageInfo (hasNextPage false on the last page: SHOULD)",
    description: "the variables list says hasNextPage: true on any full page, the last one too (an empty page follows)",
    because: { "pagination.cursor.last-page-exact": "last-page" },
    routes: ["E13"],
    respond: ({ body, req }) => trailingEmptyPage(body, req),
  },
  {
    name: "env-vars-data-first-page-only",
    breaks: "E13 (data is a deprecated copy of items); Versioning 2",
    description: "the deprecated data copy is sent on the first page and left out of every later one",
    because: { "pagination.legacy.kept-per-server": "legacy-field-dropped" },
    feeds: ["env-vars.legacy.data-matches-items"],
    routes: ["E13"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !req.query.get("after") || !body || !("data" in body)) return body;
      const { data, ...rest } = body;
      return rest;
    },
  },
  {
    name: "e14-lists-count-first-page-only",
    breaks: "Versioning 2; Pagination styles 2 (legacy fields kept); E14 rule 11",
    description:
      "the E14 lists of the resource engine and the regions (users, groups, user attributes, regions, ...) count their items on the first page only: a page after it leaves the deprecated count out",
    because: { "pagination.legacy.kept-per-server": "legacy-field-dropped" },
    feeds: ["regions.list.cursor"],
    operations: ["listRegions", "listUsers", "listGroups", "listUserAttributes"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !req.query.get("after") || !body || !("count" in body)) return body;
      const { count, ...rest } = body;
      return rest;
    },
  },
  {
    name: "cursor-page-of-five-skips",
    breaks: "Pagination styles 2",
    description: "a page of 5 items after the first starts one item late, so a walk at first=5 loses an item per page",
    because: { "pagination.cursor.any-page-size": "walk:no-cursor" },
    behaviour: { pageSlice: (list, start, count) => (count === 5 && start > 0 ? list.slice(start + 1, start + 1 + count) : list.slice(start, start + count)) },
  },
  {
    name: "cursor-page-cap-past-first-page",
    breaks: "Pagination styles 2",
    description: "a cursor page after the first holds one item more than first when first is 3 or more (the cursor moves past it: nothing is lost or repeated)",
    because: { "pagination.cursor.any-page-size": "page-cap" },
    behaviour: { pageSlice: (list, start, count) => list.slice(start, start + count + (count >= 3 && start > 0 ? 1 : 0)) },
  },
  {
    name: "cursor-first-one-ends-early",
    breaks: "Pagination styles 2; E8",
    description:
      "walked at first=1, E8's page holding the last workbook but one says hasNextPage false: the last workbook is never served (every other page size ends right)",
    because: { "pagination.cursor.any-page-size": "missing" },
    routes: ["E8"],
    respond: ({ status, body, req }) => {
      const end = typeof body?.pageInfo?.endCursor === "string" ? JSON.parse(Buffer.from(body.pageInfo.endCursor, "base64url").toString("utf8")).p : undefined;
      if (status !== 200 || req.query.get("first") !== "1" || !body.pageInfo.hasNextPage || end !== body.count - 1) return body;
      return { ...body, pageInfo: { ...body.pageInfo, hasNextPage: false } };
    },
  },
];

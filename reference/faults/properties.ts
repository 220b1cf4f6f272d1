import { cleanBehaviour } from "../behaviour.js";
import { LEGACY_TABS, WIDGET_TYPES, widgetProblem } from "../dashboard.js";
import type { Fault } from "../http.js";
import { unnamedBranchIsFirstShared } from "./control-plane.js";
import { itemRefs } from "../routes/item-refs.js";
import type { VersionRecord } from "../store.js";

/**
 * Faults that only a generated input finds: each breaks its rule for some values that the example
 * checks, with their fixed page sizes, lifetimes and names, never send.
 */

const MARKERS = "PASS|SECRET|TOKEN|KEY|CREDENTIAL";

/** `1.7.5` read as the closest listed patch of 1.7 (here 1.7.18 or 1.7.20), in every form. */
function closestPatch(input: string, versions: VersionRecord[], repository: string): VersionRecord | undefined {
  const exact = cleanBehaviour.resolveVersion(input, versions, repository);
  const m = /^(?:[a-z0-9._/-]+:)?v?(\d+)\.(\d+)\.(\d+)$/.exec(input.trim());
  if (exact || !m) return exact;
  const sameMinor = versions.filter((v) => v.version.startsWith(`${m[1]}.${m[2]}.`));
  const distance = (v: VersionRecord) => Math.abs(Number(v.version.split(".")[2]) - Number(m[3]));
  return sameMinor.sort((a, b) => distance(a) - distance(b))[0];
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);
const wellFormedRef = (i: unknown) => isObject(i) && ["WORKBOOK", "REPORT", "FOLDER"].includes(i.type) && Number.isSafeInteger(i.id);

export const propertyFaults: Fault[] = [
  {
    name: "cursor-page-of-five-skips",
    breaks: "Pagination styles 2",
    description: "a page of 5 items after the first starts one item late, so a walk at first=5 loses an item per page",
    because: { "pagination.cursor.any-page-size": "walk:no-cursor" },
    behaviour: { pageSlice: (list, start, count) => (count === 5 && start > 0 ? list.slice(start + 1, start + 1 + count) : list.slice(start, start + count)) },
  },
  {
    name: "offset-limit-two-starts-late",
    breaks: "Pagination styles 1; E1",
    description: "an E1 page of limit=2 past the first starts one deployment late",
    because: { "deployments.list.any-limit": "missing" },
    routes: ["E1"],
    respond: ({ status, body, req, app }) => {
      const offset = Number(req.query.get("offset") ?? 0);
      if (status !== 200 || req.query.get("limit") !== "2" || offset <= 0) return body;
      const late = app.store.deployments.slice(offset + 1, offset + 3).map((d) => ({ id: String(d.id), name: d.name, created_at: d.created_at }));
      return { ...body, data: { ...body.data, deployments: late } };
    },
  },
  {
    name: "masking-misses-embedded-markers",
    breaks: "Resources / Environment variable",
    description: "a marker counts only as a word of its own (at an edge of the name or next to an underscore): DBPASSWORDX is not masked",
    because: { "env-vars.mask.any-upper-case-marker": "masking", "env-vars.mask.any-other-case-marker": "masking" },
    behaviour: { isSecretName: (name) => new RegExp(`(^|_)(${MARKERS})|(${MARKERS})(_|$)`, "i").test(name) },
  },
  {
    name: "env-vars-put-answer-unmasked",
    breaks: "Resources / Environment variable",
    description: "the answer of PUT env-vars shows every value in clear, secret ones included; the GET list still masks them",
    because: { "env-vars.mask.any-upper-case-marker": "put-answer-masking", "env-vars.mask.any-other-case-marker": "put-answer-masking" },
    operations: ["setEnvVars"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200 || !Array.isArray(body?.items)) return body;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      const clear = (list: any[]) => list.map((v) => ({ ...v, value: dep?.envVars.find((e) => e.name === v.name)?.value ?? v.value }));
      return { ...body, items: clear(body.items), data: Array.isArray(body.data) ? clear(body.data) : body.data };
    },
  },
  {
    name: "token-lifetime-off-by-one-above-1000",
    breaks: "E3; Resources / Metadata token result",
    description: "a metadata token asked to live more than 1000 s lives one second longer (expires_at and the JWT's exp)",
    because: { "tokens.lifetime.any-expires-in": "lifetime", "tokens.jwt.any-lifetime": "jwt-lifetime" },
    routes: ["E3"],
    handle: ({ req, next }) => {
      const asked = req.body?.expires_in;
      if (typeof asked === "number" && asked > 1000) req.body = { ...req.body, expires_in: asked + 1 };
      return next();
    },
  },
  {
    name: "version-image-name-ignored",
    breaks: "E6 rule 1",
    description:
      "an image-style reference is read by its tag alone: another image (or none) with a listed version's tag (other/image:v1.7.20, :v1.7.20) is taken as that version",
    because: { "deployment-update.version.near-miss-forms": "status" },
    behaviour: {
      resolveVersion: (input, versions, repository) => cleanBehaviour.resolveVersion(input.replace(/^[^:\s]*:/, `${repository}:`), versions, repository),
    },
  },
  {
    name: "version-capital-v-accepted",
    breaks: "E6 rule 1",
    description: "a version written with a capital V (V1.7.20) is taken as v1.7.20",
    because: { "deployment-update.version.near-miss-forms": "status" },
    behaviour: { resolveVersion: (input, versions, repository) => cleanBehaviour.resolveVersion(input.replace(/^(\s*)V/, "$1v"), versions, repository) },
  },
  {
    name: "version-unlisted-patch-rounds",
    breaks: "E6 rule 1",
    description: "a version whose major and minor are listed but whose patch is not (1.7.5) is taken as the closest listed patch instead of a 400",
    because: { "deployment-update.version.near-miss-forms": "status", "deployment-update.negative.unlisted-version": "status" },
    behaviour: { resolveVersion: closestPatch },
  },
  {
    name: "token-expires-in-numeric-string",
    breaks: "E3 (expires_in: number)",
    description: 'expires_in sent as a numeric string ("900") is accepted, and the token gets the default lifetime',
    because: { "tokens.negative.broken-body": "lifetime-spelled", "tokens.negative.broken-body-4xx": "lifetime-spelled" },
    behaviour: { expiresInProblem: (v) => (typeof v === "string" && /^\d+$/.test(v) ? undefined : cleanBehaviour.expiresInProblem(v)) },
  },
  {
    name: "token-expires-in-large-negative-accepted",
    breaks: "E3 (expires_in: seconds)",
    description: "an expires_in below -1000 is accepted (only small non-positive values are refused); the token is born expired",
    because: { "tokens.negative.non-positive-lifetime": "client-error" },
    behaviour: { expiresInProblem: (v) => (typeof v === "number" && v < -1000 ? undefined : cleanBehaviour.expiresInProblem(v)) },
  },
  {
    name: "staging-unnamed-branch-is-first-shared",
    breaks: "E4 (branchName or branchId)",
    description: "a toggle naming no branch acts on the deployment's first shared branch instead of being refused",
    because: { "staging.negative.broken-body": "staging-unchanged", "staging.negative.broken-body-4xx": "client-error" },
    routes: ["E4"],
    handle: unnamedBranchIsFirstShared,
  },
  {
    name: "clone-body-types-unchecked",
    breaks: "E10 (body {shared: boolean})",
    description:
      "any clone body is served: one that is not an object, or whose shared is not a boolean, makes a plain clone (a reading of the unusable part as absent: the MUST holds, the 4xx the SHOULD asks for is missing)",
    because: { "workspace.negative.broken-body-4xx": "client-error" },
    spares: ["workspace.negative.broken-body"],
    behaviour: { cloneBodyProblem: () => undefined },
  },
  {
    name: "clone-mistyped-shared-answers-source",
    breaks: "E10 (body {shared: boolean}; Response 200: the new Workbook)",
    description:
      "a clone body whose shared is not a boolean makes a plain clone but answers with the source workbook's id: the clone made is not the one answered",
    because: { "workspace.negative.broken-body": "beyond-request" },
    routes: ["E10"],
    behaviour: {
      cloneBodyProblem: (body) =>
        body === undefined || (typeof body === "object" && body !== null && !Array.isArray(body)) ? undefined : "the body must be an object {shared?}",
    },
    respond: ({ status, body, req }) => {
      const shared = req.body && typeof req.body === "object" ? (req.body as { shared?: unknown }).shared : undefined;
      return status === 200 && shared !== undefined && typeof shared !== "boolean" ? { ...body, id: Number(req.params.workbookId) } : body;
    },
  },
  {
    name: "bad-body-answered-200",
    breaks: "Errors 2 (a request error is a 4xx; no status named for a broken E3, E4, E10, E11 or E12 body)",
    description:
      "a broken body on E3, E4, E10, E11 or E12 is answered 200 with the error message and nothing applied: the MUST (not applied, no 5xx) holds, the 4xx the SHOULD asks for is missing",
    because: {
      "tokens.request.broken-body-4xx": "client-error",
      "tokens.negative.broken-body-4xx": "client-error",
      "staging.negative.broken-body-4xx": "client-error",
      "upsert.draft.invalid-widget-4xx": "client-error",
      "workspace.negative.broken-body-4xx": "client-error",
    },
    spares: [
      "upsert.draft.bad-widget-type-rejected",
      "upsert.draft.widget-without-position-rejected",
      "tokens.negative.broken-body",
      "staging.negative.broken-body",
      "workspace.negative.broken-body",
      "tokens.request.context-required",
      "tokens.request.context-object",
      "tokens.request.expires-in-number",
    ],
    behaviour: {
      requestErrorReply: (spec, status, body) => ({ status: status === 400 && ["E3", "E4", "E10", "E11", "E12"].includes(spec ?? "") ? 200 : status, body }),
    },
  },
  {
    name: "bulk-move-malformed-entries-dropped",
    breaks: "E12 (items of {type, id})",
    description: "item entries that are not {type: WORKBOOK|REPORT|FOLDER, id: integer} are dropped silently and the rest of the batch moves",
    because: { "errors.negative.implied-rules": "client-error" },
    behaviour: { bulkMoveItems: (body) => itemRefs(isObject(body) && Array.isArray(body.items) ? { ...body, items: body.items.filter(wellFormedRef) } : body) },
  },
  {
    name: "draft-widgets-only-validated",
    breaks: "E11 rule 2 (a meta.dashboardDraft is validated as elsewhere); Resources / DashboardConfig",
    description:
      "a sent meta.dashboardDraft is checked only widget by widget (id, type, position, config): its kind, layout, app, settings and the widgets' other fields are taken whatever their type",
    // A draft taken earlier in the run may be what fails: the workbook then reads back with it.
    because: { "upsert.negative.broken-draft": "schema:Workbook" },
    behaviour: { dashboardDraftProblem: (draft) => widgetProblem(draft, [...WIDGET_TYPES, LEGACY_TABS]) },
  },
  {
    name: "upsert-long-name-crashes",
    breaks: "Errors 2; E11",
    description: "a workbook name longer than 255 characters overflows its column: the upsert answers 500",
    because: { "errors.no-5xx.valid-writes": "server-error" },
    behaviour: {
      upsertFields: (current, sent) => {
        if ((sent.name?.length ?? 0) > 255) throw new Error("value too long for column name (255)");
        return cleanBehaviour.upsertFields(current, sent);
      },
    },
  },
  {
    name: "bulk-move-item-type-loosely-read",
    breaks: "E12 (items of {type, id}); Resources / Workspace item reference",
    description: "an item type is read loosely: a trailing S or separator is dropped, so WORKBOOKS or FOLDER_ moves the item as a WORKBOOK or FOLDER",
    because: { "errors.negative.implied-rules": "client-error" },
    behaviour: {
      bulkMoveItems: (body) =>
        itemRefs(
          isObject(body) && Array.isArray(body.items)
            ? {
                ...body,
                items: body.items.map((i: unknown) =>
                  isObject(i) && typeof i.type === "string" ? { ...i, type: i.type.replace(/(?<=[A-Z])(S|_|-)$/, "") } : i,
                ),
              }
            : body,
        ),
    },
  },
  {
    name: "page-parameter-overflow",
    breaks: "Errors 2",
    description: "an integer page parameter (offset, limit, first, folderId) beyond 1000 either way crashes the list handler: 500",
    because: { "errors.no-5xx.valid-reads": "server-error", "errors.no-5xx.invalid-reads": "server-error" },
    behaviour: {
      belowMinimum: (value, min) => {
        if (Math.abs(value) > 1000) throw new Error(`page arithmetic overflow at ${value}`);
        return value < min;
      },
    },
  },
  {
    name: "upsert-unicode-slug-crashes",
    breaks: "Errors 2; E11 rule 1",
    description: "a slug with a character outside ASCII crashes the slug normalisation: 500",
    because: { "errors.no-5xx.valid-writes": "server-error" },
    behaviour: {
      normaliseSlug: (slug) => {
        if (/[^\x00-\x7f]/.test(slug)) throw new Error("slug normalisation expects ASCII");
        return cleanBehaviour.normaliseSlug(slug);
      },
    },
  },
];

import { cleanBehaviour } from "../behaviour.js";
import type { Fault } from "../faults.js";
import { itemRefs } from "../routes/item-refs.js";
import type { VersionRecord } from "../store.js";

/**
 * Faults that only a generated input finds: each breaks its rule for some values that the example
 * checks, with their fixed page sizes, lifetimes and names, never send.
 */

const MARKERS = "PASS|SECRET|TOKEN|KEY|CREDENTIAL";

/** `1.7.5` read as the closest listed patch of 1.7 (here 1.7.18 or 1.7.20), in every form. */
function closestPatch(input: string, versions: VersionRecord[]): VersionRecord | undefined {
  const exact = cleanBehaviour.resolveVersion(input, versions);
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
    catches: ["properties.pagination.cursor-walk"],
    behaviour: { pageSlice: (list, start, count) => (count === 5 && start > 0 ? list.slice(start + 1, start + 1 + count) : list.slice(start, start + count)) },
  },
  {
    name: "offset-limit-two-starts-late",
    breaks: "Pagination styles 1; E1",
    description: "an E1 page of limit=2 past the first starts one deployment late",
    catches: ["properties.pagination.offset-walk"],
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
    catches: ["properties.masking.upper-case-markers", "properties.masking.other-case-markers"],
    behaviour: { isSecretName: (name) => new RegExp(`(^|_)(${MARKERS})|(${MARKERS})(_|$)`, "i").test(name) },
  },
  {
    name: "token-lifetime-off-by-one-above-1000",
    breaks: "E3; Resources / Metadata token result",
    description: "a metadata token asked to live more than 1000 s lives one second longer (expires_at and the JWT's exp)",
    catches: ["properties.tokens.expires-at", "properties.tokens.jwt-lifetime"],
    behaviour: { tokenLifetime: (expiresIn) => (expiresIn === undefined ? 86_400 : expiresIn > 1000 ? expiresIn + 1 : expiresIn) },
  },
  {
    name: "version-v-prefix-needs-nonzero-patch",
    breaks: "E6 rule 1",
    description: "the v-prefixed form of a listed version with patch 0 (v1.8.0) is rejected; every other form is accepted",
    catches: ["properties.versions.forms"],
    behaviour: { resolveVersion: (input, versions) => (/^v\d+\.\d+\.0$/.test(input.trim()) ? undefined : cleanBehaviour.resolveVersion(input, versions)) },
  },
  {
    name: "version-unlisted-patch-rounds",
    breaks: "E6 rule 1",
    description: "a version whose major and minor are listed but whose patch is not (1.7.5) is taken as the closest listed patch instead of a 400",
    catches: ["properties.versions.forms", "properties.negative.update-deployment"],
    behaviour: { resolveVersion: closestPatch },
  },
  {
    name: "token-expires-in-numeric-string",
    breaks: "E3 (expires_in: number)",
    description: "expires_in sent as a numeric string (\"900\") is accepted, and the token gets the default lifetime",
    catches: ["properties.negative.metadata-token", "properties.negative.metadata-token-rejected"],
    behaviour: { expiresInProblem: (v) => (typeof v === "string" && /^\d+$/.test(v) ? undefined : cleanBehaviour.expiresInProblem(v)) },
  },
  {
    name: "token-expires-in-large-negative-accepted",
    breaks: "E3 (expires_in: seconds)",
    description: "an expires_in below -1000 is accepted (only small non-positive values are refused); the token is born expired",
    catches: ["properties.negative.metadata-token-lifetime"],
    behaviour: { expiresInProblem: (v) => (typeof v === "number" && v < -1000 ? undefined : cleanBehaviour.expiresInProblem(v)) },
  },
  {
    name: "staging-unnamed-branch-is-first-shared",
    breaks: "E4 (branchName or branchId)",
    description: "a toggle naming no branch acts on the deployment's first shared branch instead of being refused",
    catches: ["properties.negative.staging-toggle", "properties.negative.staging-toggle-rejected"],
    behaviour: { branchWhenUnnamed: (dep) => dep.branches.find((b) => b.kind === "shared") },
  },
  {
    name: "clone-body-types-unchecked",
    breaks: "E10 (body {shared: boolean})",
    description: "any clone body is served: one that is not an object, or whose shared is not a boolean, makes a plain clone",
    catches: ["properties.negative.workspace-writes", "properties.negative.workspace-writes-rejected"],
    behaviour: { cloneBodyProblem: () => undefined },
  },
  {
    name: "bad-body-answered-200",
    breaks: "Errors 2 (a request error is a 4xx; no status named for a broken E3, E4, E10, E11 or E12 body)",
    description: "a broken body on E3, E4, E10, E11 or E12 is answered 200 with the error message and nothing applied: the MUST (not applied, no 5xx) holds, the 4xx the SHOULD asks for is missing",
    catches: ["properties.negative.metadata-token-rejected", "properties.negative.staging-toggle-rejected", "properties.negative.workspace-writes-rejected", "tokens.request.broken-body-4xx", "upsert.draft.invalid-widget-4xx"],
    spares: ["upsert.draft.bad-widget-type-rejected", "upsert.draft.widget-without-position-rejected", "properties.negative.metadata-token", "properties.negative.staging-toggle", "properties.negative.workspace-writes", "tokens.request.context-required", "tokens.request.context-object", "tokens.request.expires-in-number"],
    behaviour: { requestErrorReply: (spec, status, body) => ({ status: status === 400 && ["E3", "E4", "E10", "E11", "E12"].includes(spec ?? "") ? 200 : status, body }) },
  },
  {
    name: "bulk-move-malformed-entries-dropped",
    breaks: "E12 (items of {type, id})",
    description: "item entries that are not {type: WORKBOOK|REPORT|FOLDER, id: integer} are dropped silently and the rest of the batch moves",
    catches: ["properties.negative.implied-rules"],
    behaviour: { bulkMoveItems: (body) => itemRefs(isObject(body) && Array.isArray(body.items) ? { ...body, items: body.items.filter(wellFormedRef) } : body) },
  },
  {
    name: "page-parameter-overflow",
    breaks: "Errors 2",
    description: "an integer page parameter (offset, limit, first, folderId) beyond 1000 either way crashes the list handler: 500",
    catches: ["properties.server-errors.valid-reads", "properties.server-errors.invalid-reads"],
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
    catches: ["properties.server-errors.valid-writes"],
    behaviour: {
      normaliseSlug: (slug) => {
        if (/[^\x00-\x7f]/.test(slug)) throw new Error("slug normalisation expects ASCII");
        return cleanBehaviour.normaliseSlug(slug);
      },
    },
  },
];

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
    because: /appears in the cursor walk.*missing: |hasNextPage is true but endCursor gives no cursor/,
    behaviour: { pageSlice: (list, start, count) => (count === 5 && start > 0 ? list.slice(start + 1, start + 1 + count) : list.slice(start, start + count)) },
  },
  {
    name: "offset-limit-two-starts-late",
    breaks: "Pagination styles 1; E1",
    description: "an E1 page of limit=2 past the first starts one deployment late",
    catches: ["properties.pagination.offset-walk"],
    because: /every deployment of the whole list appears.*missing: /,
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
    because: /holds a marker: its value reads \[ENCRYPTED\]/,
    behaviour: { isSecretName: (name) => new RegExp(`(^|_)(${MARKERS})|(${MARKERS})(_|$)`, "i").test(name) },
  },
  {
    name: "token-lifetime-off-by-one-above-1000",
    breaks: "E3; Resources / Metadata token result",
    description: "a metadata token asked to live more than 1000 s lives one second longer (expires_at and the JWT's exp)",
    catches: ["properties.tokens.expires-at", "properties.tokens.jwt-lifetime"],
    because: /with expires_in (\d+), (expires_at is created_at|the JWT's exp is \1 s after).*expected \1 s \| got \d+ s/,
    behaviour: { tokenLifetime: (expiresIn) => (expiresIn === undefined ? 86_400 : expiresIn > 1000 ? expiresIn + 1 : expiresIn) },
  },
  {
    name: "version-v-prefix-needs-nonzero-patch",
    breaks: "E6 rule 1",
    description: "the v-prefixed form of a listed version with patch 0 (v1.8.0) is rejected; every other form is accepted",
    catches: ["properties.versions.forms"],
    because: /releaseChannelVersion "v\d+\.\d+\.0" names the listed version.*got 400/,
    behaviour: { resolveVersion: (input, versions) => (/^v\d+\.\d+\.0$/.test(input.trim()) ? undefined : cleanBehaviour.resolveVersion(input, versions)) },
  },
  {
    name: "version-unlisted-patch-rounds",
    breaks: "E6 rule 1",
    description: "a version whose major and minor are listed but whose patch is not (1.7.5) is taken as the closest listed patch instead of a 400",
    catches: ["properties.versions.forms", "properties.negative.update-deployment"],
    because: { "properties.versions.forms": /names no listed version.*expected 400 \| got 2\d\d|after the rejected update, E5 marks the same version current/, "properties.negative.update-deployment": /unlisted-version|E5 marks the same version current as before/ },
    behaviour: { resolveVersion: closestPatch },
  },
  {
    name: "token-expires-in-numeric-string",
    breaks: "E3 (expires_in: number)",
    description: "expires_in sent as a numeric string (\"900\") is accepted, and the token gets the default lifetime",
    catches: ["properties.negative.metadata-token"],
    because: /wrong-type at \/expires_in is rejected with a 4xx.*got 200/,
    behaviour: { expiresInProblem: (v) => (typeof v === "string" && /^\d+$/.test(v) ? undefined : cleanBehaviour.expiresInProblem(v)) },
  },
  {
    name: "token-expires-in-large-negative-accepted",
    breaks: "E3 (expires_in: seconds)",
    description: "an expires_in below -1000 is accepted (only small non-positive values are refused); the token is born expired",
    catches: ["properties.negative.metadata-token-lifetime"],
    because: /out-of-range at \/expires_in is rejected with a 4xx.*got 200/,
    behaviour: { expiresInProblem: (v) => (typeof v === "number" && v < -1000 ? undefined : cleanBehaviour.expiresInProblem(v)) },
  },
  {
    name: "staging-unnamed-branch-is-first-shared",
    breaks: "E4 (branchName or branchId)",
    description: "a toggle naming no branch acts on the deployment's first shared branch instead of being refused",
    catches: ["properties.negative.staging-toggle"],
    because: /E4: a body with missing-required at \/branch(Name|Id)|neither of them|branch.*is still/,
    behaviour: { branchWhenUnnamed: (dep) => dep.branches.find((b) => b.kind === "shared") },
  },
  {
    name: "bulk-move-folder-id-coerced",
    breaks: "E12 (folderId: integer or null)",
    description: "a folderId sent as a numeric string (\"42\") is taken as that folder instead of refused",
    catches: ["properties.negative.workspace-writes"],
    because: /E12: a body with wrong-type at \/folderId is rejected with a 4xx.*got 200|the run's workbook \d+ is still at the root.*got \d+/,
    behaviour: { bulkMoveDestination: (v) => cleanBehaviour.bulkMoveDestination(typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v) },
  },
  {
    name: "bulk-move-malformed-entries-dropped",
    breaks: "E12 (items of {type, id})",
    description: "item entries that are not {type: WORKBOOK|REPORT|FOLDER, id: integer} are dropped silently and the rest of the batch moves",
    catches: ["properties.negative.implied-rules"],
    because: /E12: a body with \S+ at \/items\/\d+(\/(type|id))? is rejected with a 4xx.*got 200/,
    behaviour: { bulkMoveItems: (body) => itemRefs(isObject(body) && Array.isArray(body.items) ? { ...body, items: body.items.filter(wellFormedRef) } : body) },
  },
  {
    name: "page-parameter-overflow",
    breaks: "Errors 2",
    description: "an integer page parameter (offset, limit, first, folderId) beyond 1000 either way crashes the list handler: 500",
    catches: ["properties.server-errors.valid-reads", "properties.server-errors.invalid-reads"],
    because: /gets no server error .*\| expected a status below 500 \| got 500/,
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
    because: /a valid E11 request gets no server error .*\| expected a status below 500 \| got 500/,
    behaviour: {
      normaliseSlug: (slug) => {
        if (/[^\x00-\x7f]/.test(slug)) throw new Error("slug normalisation expects ASCII");
        return cleanBehaviour.normaliseSlug(slug);
      },
    },
  },
];

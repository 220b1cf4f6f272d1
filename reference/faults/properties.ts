import { cleanBehaviour } from "../behaviour.js";
import type { Fault } from "../faults.js";
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
    name: "masking-misses-inner-markers",
    breaks: "Resources / Environment variable",
    description: "only a name that starts or ends with a marker is masked; DB_PASSWORD_HINT is not",
    catches: ["properties.masking.upper-case-markers", "properties.masking.other-case-markers"],
    behaviour: { isSecretName: (name) => new RegExp(`^(${MARKERS})|(${MARKERS})$`, "i").test(name) },
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
    catches: ["properties.versions.forms"],
    behaviour: { resolveVersion: closestPatch },
  },
];

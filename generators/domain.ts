import fc from "fast-check";
import { LIMITS, SECRET_MARKERS } from "../core/api/operations.js";
import { PROPERTY_ENV_VARS } from "../core/api/fixed-names.js";
import { text, validValues } from "./schema.js";

/** The spec's masking rule: upper-case markers only, or markers in any case. */
export function holdsMarker(name: string, anyCase: boolean): boolean {
  const n = anyCase ? name.toUpperCase() : name;
  return SECRET_MARKERS.some((m) => n.includes(m));
}

/** A name of the masking properties' set (reused by every run, never a new one). */
export function envVarName(): fc.Arbitrary<string> {
  return fc.constantFrom(...PROPERTY_ENV_VARS);
}

/**
 * A value for a variable the run sets: any text, then 16 characters of a random token, so that a
 * secret among them occurs nowhere but where it leaked (fast-check's text alone draws "toString",
 * which also stands inside names and keys).
 */
export function secretValue(): fc.Arbitrary<string> {
  return fc
    .tuple(
      text(0, 12),
      fc.stringMatching(/^[a-z0-9]{16}$/).filter((t) => new Set(t).size >= 8),
    )
    .map(([head, token]) => `${head}${token}`);
}

/** Security contexts of the shapes multi-tenant data models read: tenant ids, lists of them, nested objects. */
export function securityContext(): fc.Arbitrary<Record<string, unknown>> {
  const tenantId = fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.uuid(), text(1, 12));
  return fc.oneof(
    fc.record({ tenantId }),
    fc.record({ tenant_id: tenantId, region: fc.constantFrom("eu", "us", "apac") }, { requiredKeys: ["tenant_id"] }),
    fc.record({ tenants: fc.array(tenantId, { maxLength: 4 }) }),
    fc.record({ org: fc.record({ id: tenantId, teams: fc.array(tenantId, { maxLength: 3 }), parent: fc.option(fc.record({ id: tenantId }), { nil: null }) }) }),
    validValues({ type: "object" }) as fc.Arbitrary<Record<string, unknown>>,
  );
}

/** A version as E5 lists it. */
export interface ListedVersion {
  version: string;
  releaseChannelVersion: string;
  releaseChannel?: string;
}

const bare = (version: string) => version.replace(/^v/, "");

/** E6 rule 1: the three spellings of a listed version that name it. */
export function acceptedSpellings(v: ListedVersion): string[] {
  return [bare(v.version), `v${bare(v.version)}`, v.releaseChannelVersion];
}

/**
 * Near misses of the three accepted spellings of a listed version, each of which E6 rule 1
 * rejects ("any other value"): a capital V, a space inside, a doubled v, a part missing or added,
 * a pre-release suffix, the image reference with its tag spelled the other way (`:1.7.20` for
 * `:v1.7.20`), in upper case, of another image, without its repository or without its tag. Left
 * out, as not unambiguous: surrounding spaces (a server may trim a field, as E11 rule 1 does a
 * slug) and leading zeros (the same number).
 */
export function nearMissVersionForm(listed: ListedVersion[]): fc.Arbitrary<string> {
  return fc.constantFrom(...nearMissesOf(listed, listed));
}

/**
 * Each near miss (nearMissVersionForm) of the versions `of`, none of them an accepted spelling of a
 * version of `listed`: the forms a property sends on every run, whatever its seed draws.
 */
export function nearMissesOf(of: ListedVersion[], listed: ListedVersion[]): string[] {
  const accepted = new Set(listed.flatMap(acceptedSpellings));
  const misses = (v: ListedVersion): string[] => {
    const b = bare(v.version);
    const [major, minor] = b.split(".");
    const image = v.releaseChannelVersion;
    const colon = image.lastIndexOf(":");
    const [repository, tag] = colon > 0 ? [image.slice(0, colon), image.slice(colon + 1)] : ["cubejs/cube", `v${b}`];
    const otherTag = tag.startsWith("v") ? tag.slice(1) : `v${tag}`;
    return [
      `V${b}`,
      `v ${b}`,
      `vv${b}`,
      `${major}.${minor}`,
      `v${major}.${minor}`,
      `${b}.0`,
      `${b}-rc1`,
      `${repository}:${otherTag}`,
      `${repository.toUpperCase()}:${tag}`,
      `other/image:${tag}`,
      `${repository}-dev:${tag}`,
      `:${tag}`,
      repository,
      `${repository}:`,
    ];
  };
  return [...new Set(of.flatMap(misses))].filter((s) => !accepted.has(s) && !accepted.has(s.trim()));
}

/**
 * Strings that cannot name a listed version, so that E6 rule 1 rejects them: near misses (a listed
 * version's major and minor with a patch that is not listed), unlisted numbers, two or four
 * parts, each in every form, and free text. Anything in which a listed version's numbers appear
 * (even with leading zeros, spaces or a suffix) or that spells a channel name is left out:
 * whether a server reads it as that version is not the spec's to say.
 */
export function rejectedVersionForm(listed: ListedVersion[]): fc.Arbitrary<string> {
  const part = fc.integer({ min: 0, max: 40 });
  const image = listed.find((v) => v.releaseChannelVersion.includes(":"))?.releaseChannelVersion;
  const repo = image ? image.slice(0, image.lastIndexOf(":") + 1) : "cubejs/cube:";
  const dotted = (n: number) => fc.array(part, { minLength: n, maxLength: n }).map((ps) => ps.join("."));
  const minor = fc.constantFrom(...listed.map((v) => bare(v.version).split(".").slice(0, 2).join(".")));
  const nearMiss = fc.tuple(minor, part).map(([m, p]) => `${m}.${p}`);
  const number = fc.oneof(nearMiss, dotted(3), minor, dotted(4));
  return fc
    .oneof(
      number,
      number.map((v) => `v${v}`),
      number.map((v) => `${repo}v${v}`),
      fc.constantFrom("", "v", "vv1.2.3", "1..2", "version"),
      text(1, 12),
    )
    .filter((s) => !mayName(s, listed));
}

function mayName(s: string, listed: ListedVersion[]): boolean {
  const numbers = (v: string) => v.split(".").map(Number).join(".");
  const versions = new Set(listed.map((v) => numbers(bare(v.version))));
  const runs = s.match(/\d+(?:\.\d+)*/g) ?? [];
  const channels = new Set(listed.map((v) => v.releaseChannel?.toLowerCase()).filter(Boolean));
  return runs.some((r) => versions.has(numbers(r))) || channels.has(s.trim().toLowerCase()) || listed.some((v) => v.releaseChannelVersion === s);
}

interface PageSizeRange {
  maxPages?: number;
  max?: number;
}

/** The smallest page size pageSize draws for a list of n items: what the longest walk of a trial costs follows from it. */
export function smallestPageSize(n: number, o: PageSizeRange = {}): number {
  return Math.min(n + 2, o.max ?? Infinity, Math.max(LIMITS.firstMinimum, Math.ceil(n / (o.maxPages ?? 50))));
}

/**
 * A page size for a list of n items: up to n+2 (or `max`), from the size at which a walk takes at
 * most `maxPages` pages. Half of them are at most 10: small pages put the most page boundaries
 * into one walk.
 */
export function pageSize(n: number, o: PageSizeRange = {}): fc.Arbitrary<number> {
  const max = Math.min(n + 2, o.max ?? Infinity);
  const min = smallestPageSize(n, o);
  return fc.oneof(fc.integer({ min, max: Math.max(min, Math.min(max, 10)) }), fc.integer({ min, max }));
}

/** Page sizes a client may send: small, and large ones that no published maximum forbids. */
export function anyPageSize(): fc.Arbitrary<number> {
  return fc.oneof(fc.integer({ min: LIMITS.firstMinimum, max: 100 }), fc.integer({ min: 101, max: 100_000 }));
}

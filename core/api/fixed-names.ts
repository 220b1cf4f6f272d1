import { SECRET_MARKERS } from "./operations.js";

// The names this tool gives what a run cannot remove (environment variables, template variables,
// user attributes without a delete): a fixed set, so that a tenant holds at most these however
// often the suite runs. The ledger and the write plan read them here; the generators draw from them.

/**
 * The environment variables this tool sets. The API cannot delete a variable, so a run never makes
 * up a name: it sets names of this fixed set only, and every run overwrites the same ones, so that
 * a tenant holds at most ENV_VAR_POOL.length of them however often the suite runs. All carry
 * ENV_VAR_TAG (which holds no marker) as a whole "_"-separated segment.
 */
export const ENV_VAR_TAG = "CONFORMANCE_TOOL";

const lower = (m: string) => m.toLowerCase();
const capitalised = (m: string) => m[0] + m.slice(1).toLowerCase();

/**
 * The names the masking properties draw from: each marker at the start, inside a word and at the
 * end, in upper case and in other cases; and names with no marker.
 */
export const PROPERTY_ENV_VARS: readonly string[] = [
  ...SECRET_MARKERS.flatMap((m) => [
    `${m}_${ENV_VAR_TAG}`,
    `${ENV_VAR_TAG}_${m}`,
    `${ENV_VAR_TAG}_DB${m}X`,
    `${capitalised(m)}_${ENV_VAR_TAG}`,
    `${ENV_VAR_TAG}_db${lower(m)}x`,
    `${ENV_VAR_TAG}_${lower(m)}`,
  ]),
  `${ENV_VAR_TAG}_PLAIN`,
  `plain_${ENV_VAR_TAG}`,
  `${ENV_VAR_TAG}_Region_9`,
];

/** The names each example check sets, by its use. */
export const ENV_VARS = {
  probe: `${ENV_VAR_TAG}_PROBE`,
  listedSecret: `${ENV_VAR_TAG}_API_SECRET`,
  listedPlain: `${ENV_VAR_TAG}_REGION`,
  listedEmpty: `${ENV_VAR_TAG}_EMPTY`,
  negative: [`${ENV_VAR_TAG}_NEGATIVE_A`, `${ENV_VAR_TAG}_NEGATIVE_B`],
  /**
   * Names outside the pattern new names must match (facts: `^[A-Za-z_][A-Za-z0-9_]*$`), one a class:
   * a hyphen, a leading digit, a dot. A server must refuse them; one that does not keeps these, fixed, at most.
   */
  outsidePattern: [`${ENV_VAR_TAG}-HYPHEN`, `9${ENV_VAR_TAG}_DIGIT_FIRST`, `${ENV_VAR_TAG}.DOT`],
} as const;

/** Every name a run may set: what the plan line prints and a tenant holds at most. */
export const ENV_VAR_POOL: readonly string[] = [
  ENV_VARS.probe,
  ENV_VARS.listedSecret,
  ENV_VARS.listedPlain,
  ENV_VARS.listedEmpty,
  ...ENV_VARS.negative,
  ...ENV_VARS.outsidePattern,
  ...PROPERTY_ENV_VARS,
];

/**
 * The template variables (E6) a run may leave: a negative update a lenient server accepts merges
 * its keys into the deployment, and no request removes a key, so the generated bodies use these
 * names only (the negative data is in the values and types), as the environment variables do.
 */
export const TEMPLATE_VARIABLE_POOL: readonly string[] = ["A", "B", "C", "D"].map((x) => `${ENV_VAR_TAG}_TEMPLATE_${x}`);

/**
 * The user attribute of a type that a run creates where the API documents no delete of one
 * (--allow-unremovable-writes): one fixed name a type, so a tenant holds at most five however often the suite runs.
 */
export function fixedAttributeName(type: string): string {
  return `${ENV_VAR_TAG.toLowerCase()}_${type}`;
}

/** Whether a value is one of those names: what carries one stays, as the write plan announces. */
export const isFixedAttributeName = (value: unknown): boolean => typeof value === "string" && value.startsWith(fixedAttributeName(""));

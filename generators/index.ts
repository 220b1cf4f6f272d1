/** Seeded fast-check arbitraries: derived from the contract's JSON Schemas, and the domain's own. */
export { conforms, invalidCandidates, invalidValues, malformedJson, text, validValues } from "./schema.js";
export type { DeriveOptions, InvalidKind, InvalidOptions, InvalidValue, Schema } from "./schema.js";
export { acceptedVersionForm, anyPageSize, envVarName, envVarTag, holdsMarker, pageSize, rejectedVersionForm, SECRET_MARKERS, securityContext } from "./domain.js";
export type { ListedVersion, VersionForm } from "./domain.js";

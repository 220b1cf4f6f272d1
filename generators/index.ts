/** Seeded fast-check arbitraries: derived from the contract's JSON Schemas, and the domain's own. */
export { conforms, invalidCandidates, invalidValues, longText, malformedJson, NotGenerated, notJsonForms, text, validValues } from "./schema.js";
export type { DeriveOptions, InvalidKind, InvalidOptions, InvalidValue, Schema } from "./schema.js";
export {
  acceptedSpellings,
  nearMissesOf,
  nearMissVersionForm,
  anyPageSize,
  envVarName,
  holdsMarker,
  pageSize,
  rejectedVersionForm,
  secretValue,
  securityContext,
  smallestPageSize,
} from "./domain.js";
export type { ListedVersion } from "./domain.js";

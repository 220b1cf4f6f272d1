import { cleanBehaviour } from "../../behaviour.js";

export type AuditFilter = Parameters<typeof cleanBehaviour.auditRowMatches>[1];

/** The clean filter with one of its parts left out. */
export function ignoring(...keys: (keyof AuditFilter)[]): typeof cleanBehaviour.auditRowMatches {
  return (e, f) => cleanBehaviour.auditRowMatches(e, { ...f, ...Object.fromEntries(keys.map((k) => [k, undefined])) });
}

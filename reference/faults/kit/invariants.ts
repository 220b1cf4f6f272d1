/**
 * Faults of the rules that hold for every answer (suites/invariants). Each breaks its rule only
 * where no example check looks (a later page, the deprecated copy, the settings, the moved
 * records, cleanup), so that only the invariant, fed by the checks of `feeds`, catches it.
 */
export const laterPage = (query: URLSearchParams) => query.has("after");

/** A page of a walk at a small page size (the masking properties read the list at 100). */
export const smallLaterPage = (query: URLSearchParams) => laterPage(query) && Number(query.get("first")) < 20;

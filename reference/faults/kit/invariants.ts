/**
 * Where the faults of the rules over every answer break them: where no example check looks (a
 * later page), so that only the invariant, fed by the checks of `feeds`, catches them.
 */
export const laterPage = (query: URLSearchParams) => query.has("after");

/** A page of a walk at a small page size (the masking properties read the list at 100). */
export const smallLaterPage = (query: URLSearchParams) => laterPage(query) && Number(query.get("first")) < 20;

// How the tool names what it makes: at the bottom layer, so that the transport (a write's read-back)
// and the ledger both tell the run's names without one importing the other.

/** How the names of everything a run creates begin, whichever check made it (the runner names each check's scratch `<seed>-<check>`). */
export const runPrefixOf = (seed: number) => `cf-${seed.toString(36)}-`;
/** How every name this tool gives begins, whatever the run: what --sweep-older-than looks for. */
export const TOOL_PREFIX = "cf-";
/**
 * A name this tool gave in any run: `cf-<seed>-<check>-…`, or a clone's `Copy of cf-…`. Anchored:
 * "cf-" inside another value (a public id such as `5e41a2cf-…`) is no name of the tool's.
 */
export const TOOL_NAME = /^(Copy of )*cf-[0-9a-z]+-[0-9a-z]{6}-/;

// How the tool names what it makes: at the bottom layer, so that the transport (a write's read-back)
// and the ledger both tell the run's names without one importing the other.

/** How the names of everything a run creates begin, whichever check made it (the runner names each check's scratch `<seed>-<check>`). */
export const runPrefixOf = (seed: number) => `cf-${seed.toString(36)}-`;
/** How every name this tool gives begins, whatever the run: what --sweep-older-than looks for. */
export const TOOL_PREFIX = "cf-";

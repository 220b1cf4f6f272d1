import type { Exchange } from "./http.js";

/** The server broke the rule: a verdict. */
export class CheckFailure extends Error {
  expected?: string;
  got?: string;
  exchange?: Exchange;
  /** For properties: seed, path, the shrunk counterexample and its requests. */
  property?: PropertyFailure;
  constructor(message: string, detail: { expected?: unknown; got?: unknown; exchange?: Exchange } = {}) {
    super(message);
    if ("expected" in detail) this.expected = show(detail.expected);
    if ("got" in detail) this.got = show(detail.got);
    this.exchange = detail.exchange;
  }
}

export interface PropertyFailure {
  seed: number;
  path: string;
  runs: number;
  counterexample: string;
  shrunkExchanges: Exchange[];
  reproducible?: "reproducible" | "intermittent";
}

/** The check cannot run here; the reason is shown to the user. */
export class Skip extends Error {}

export function show(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined) return "undefined";
  try {
    const s = JSON.stringify(v);
    return s.length > 600 ? s.slice(0, 600) + "…" : s;
  } catch {
    return String(v);
  }
}

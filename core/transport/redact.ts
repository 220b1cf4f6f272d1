import { MASK, SECRET_MARKERS } from "../api/operations.js";

/**
 * Every string that reaches a report passes through a Redactor: configured tokens are replaced,
 * and so is anything shaped like a JWT (metadata tokens issued during a run are secrets too).
 */
// Also a JWT cut short by an excerpt: its header and payload alone still show the claims.
// A JWT has a dot; a base64 JSON cursor (also `eyJ…`) has none and stays readable in curl lines.
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?/g;
// A secret-named variable's value, should a server leak it unmasked (Resources / Environment variable).
const SECRET_PAIR = new RegExp(String.raw`("name"\s*:\s*"[^"]*(?:${SECRET_MARKERS.join("|")})[^"]*"\s*,\s*"value"\s*:\s*")((?:[^"\\]|\\.)*)"`, "gi");

/**
 * Keys one character from an issued one, which the auth checks send (a server that compares keys by
 * prefix takes them): the longer holds the key whole; the shorter is redacted as a secret of its own.
 */
export const nearMissKeys = (key: string) => ({ extended: `${key}0`, cut: key.slice(0, -1) });

export class Redactor {
  private readonly secrets: string[];
  constructor(secrets: Iterable<string | undefined>) {
    const given = [...secrets].filter((s): s is string => typeof s === "string" && s.length >= 4);
    this.secrets = [...new Set([...given, ...given.map((s) => nearMissKeys(s).cut)].filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  }
  text(s: string): string {
    let out = s;
    // Looked for before it is split out: most strings hold no secret, and splitting each anyway
    // was half the time of redacting a run's exchanges.
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join("[REDACTED]");
    return out.replace(JWT, "[JWT REDACTED]").replace(SECRET_PAIR, (_, head: string, value: string) => `${head}${value === MASK ? value : "[REDACTED]"}"`);
  }
  /** Whether a string holds a configured token or anything shaped like a JWT: what `text` would hide. */
  holdsSecret(s: string): boolean {
    return this.secrets.some((secret) => s.includes(secret)) || s.search(JWT) >= 0;
  }
  /** Each value of a flat record redacted (an answer's headers): no JSON written and read again for it. */
  values(record: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(record)) out[k] = this.text(v);
    return out;
  }
  value<T>(v: T): T {
    if (v === undefined) return v;
    return JSON.parse(this.text(JSON.stringify(v))) as T;
  }
}

/** JSON Pointer (RFC 6901) tokens: the one place that escapes and unescapes `~` and `/`. */

/** A key as one pointer token: `~` as `~0`, `/` as `~1`. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A pointer token as the key it names (`~1` before `~0`, as RFC 6901 section 4 orders it). */
export function pointerKey(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The value a pointer (`/a/b`, or `#/a/b`) names inside a value, or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  const tokens = pointer.replace(/^#/, "").split("/").slice(1);
  return tokens.reduce<unknown>((x, t) => (x && typeof x === "object" ? (x as Record<string, unknown>)[pointerKey(t)] : undefined), value);
}

/**
 * A stored string's other spellings of the same number, in pairs, each sent after the first: PHP's
 * loose comparison calls them equal ("10" == "1e1", "1" == "01"), so a server that writes a value
 * only when it "changed" keeps the first. Every stored text a write replaces is sent them (E6's
 * template variables, E14's environment variables and user attribute values; core/api/input-domain.ts
 * holds them as the class "numeric-respelling").
 */
export const LOOSELY_EQUAL_STRINGS = [
  ["10", "1e1"],
  ["1", "01"],
] as const;

/** Two spellings of one number (LOOSELY_EQUAL_STRINGS): what PHP's == calls equal, being numeric strings. */
export function spellSameNumber(a: string, b: string): boolean {
  const numeric = (s: string) => s.trim() !== "" && Number.isFinite(Number(s));
  return a !== b && numeric(a) && numeric(b) && Number(a) === Number(b);
}

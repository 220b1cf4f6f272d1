/**
 * ISO 8601 timestamps as servers send them (the spec says ISO 8601, or date or date-time; the
 * published document gives no format): a date, or a date-time with or without a UTC offset.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

export interface Timestamp {
  /** Milliseconds since the epoch, reading a time without offset as if it were UTC. */
  ms: number;
  /** Whether it names its offset (Z, +02:00): only then is it an instant. */
  hasOffset: boolean;
  dateOnly: boolean;
}

export function parseTimestamp(text: unknown): Timestamp | undefined {
  if (typeof text !== "string") return undefined;
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", offset] = m;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Math.round(Number(`0${frac || ".0"}`) * 1000));
  if (Number.isNaN(local)) return undefined;
  return { ms: local - offsetMs(offset), hasOffset: offset !== undefined, dateOnly: m[4] === undefined };
}

function offsetMs(offset: string | undefined): number {
  if (!offset || /^z$/i.test(offset)) return 0;
  const digits = offset.replace(":", "");
  const sign = digits.startsWith("-") ? -1 : 1;
  return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))) * 60_000;
}

/**
 * Seconds from `a` to `b` when the two can be compared: both name their offset, or neither does
 * (then both are read in the same unknown zone). Undefined when only one names it.
 */
export function secondsBetween(a: Timestamp, b: Timestamp): number | undefined {
  return a.hasOffset === b.hasOffset ? (b.ms - a.ms) / 1000 : undefined;
}

/**
 * Whether an instant (epoch seconds, e.g. a JWT's exp) is the time `t` names, within `slackS`:
 * exactly for a time with offset; for one without, up to the offset of some zone (a whole
 * quarter of an hour, at most 14 hours), which the server did not say.
 */
export function sameInstant(t: Timestamp, epochS: number, slackS: number): boolean {
  const diff = epochS - t.ms / 1000;
  if (t.hasOffset) return Math.abs(diff) <= slackS;
  const zone = Math.round(diff / 900) * 900;
  return Math.abs(zone) <= 14 * 3600 && Math.abs(diff - zone) <= slackS;
}

/**
 * Two timestamps of one field as values: workbook timestamps may be a `date` or a `date-time`,
 * with or without offset (both forms allowed for the same field): the same instant, or, where one
 * side is a date, the date of the other. A time with offset and one without are compared as written.
 */
export function sameTimestamp(a: string, b: string): boolean {
  const [ta, tb] = [parseTimestamp(a), parseTimestamp(b)];
  if (a === b || (ta && tb && secondsBetween(ta, tb) === 0)) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return /^\d{4}-\d{2}-\d{2}$/.test(short) && long.startsWith(short);
}

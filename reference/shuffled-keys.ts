import type { Variant } from "./variant.js";

/** Per reference app, how many answers the variant shuffled-keys rotated: each answer turns its keys once more. */
const keyTurns = new WeakMap<object, number>();

/** A value whose objects list their keys rotated by `turn` places (their values unchanged). */
function rotatedKeys(v: unknown, turn: number): unknown {
  if (Array.isArray(v)) return v.map((x) => rotatedKeys(x, turn));
  if (!v || typeof v !== "object") return v;
  const entries = Object.entries(v as Record<string, unknown>);
  const by = entries.length ? turn % entries.length : 0;
  return Object.fromEntries([...entries.slice(by), ...entries.slice(0, by)].map(([k, x]) => [k, rotatedKeys(x, turn + 1)]));
}

/** A hash map's key order, as a server written in Perl gives it: no comparison of the suite's may depend on the order of keys. */
export const shuffledKeys: Variant = {
  name: "shuffled-keys",
  description:
    "Every object of every answer writes its keys in another order each time (a hash map's order, as Perl's randomized hashes give): the same record read twice is never spelled alike",
  routes: ["E1", "E2", "E3", "E4", "E5", "E6", "E8", "E9", "E10", "E11", "E12", "E13", "E14"],
  respond: (body, _req, app) => {
    const turn = (keyTurns.get(app) ?? 0) + 1;
    keyTurns.set(app, turn);
    return rotatedKeys(body, turn);
  },
};

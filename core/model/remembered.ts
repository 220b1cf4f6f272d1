/**
 * `tell(key)`, remembered in `memo`: the observers of every exchange ask the same question of the
 * same few keys (an answer's field names, its `type` values, a write's row of the table) over
 * thousands of records. An answer may be `undefined` and is remembered all the same. Bounded: a
 * server may answer any number of distinct keys, past the bound each is told anew.
 */
export function remembered<K, T>(memo: Map<K, T>, key: K, tell: (key: K) => T): T {
  if (memo.has(key)) return memo.get(key) as T;
  const found = tell(key);
  if (memo.size < MAX_REMEMBERED) memo.set(key, found);
  return found;
}
const MAX_REMEMBERED = 10_000;

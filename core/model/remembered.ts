/**
 * `tell(key)`, remembered in `memo`: the observers of every exchange ask the same question of the
 * same few keys (an answer's field names, its `type` values) over thousands of records. Bounded:
 * a server may answer any number of distinct keys, past the bound each is told anew.
 */
export function remembered<T>(memo: Map<string, T>, key: string, tell: (key: string) => T): T {
  let found = memo.get(key);
  if (found === undefined) {
    found = tell(key);
    if (memo.size < MAX_REMEMBERED) memo.set(key, found);
  }
  return found;
}
const MAX_REMEMBERED = 10_000;

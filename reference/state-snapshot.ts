import type { Store } from "./store.js";

/**
 * What a run may create or change in a reference store, as plain JSON with a fixed key order, so
 * that a picture taken before a run compares with one taken after. The audit log is left out: a
 * run is expected to add to it (its logins are recorded).
 */
export interface StateSnapshot {
  /** Every workspace item (folders, workbooks, reports), by id. */
  items: Record<string, unknown>[];
  /** Per deployment: its settings, its branches (staging flags among them) and its env vars. */
  deployments: { id: number; settings: unknown; branches: unknown; envVars: unknown }[];
}

export function snapshotOf(store: Store): StateSnapshot {
  return canonical({
    items: [...store.items.values()].sort((a, b) => a.id - b.id),
    deployments: store.deployments.map((d) => ({ id: d.id, settings: d.settings, branches: d.branches, envVars: d.envVars })),
  }) as StateSnapshot;
}

/** Sorted keys, Maps as sorted [key, value] pairs, Sets as sorted arrays, undefined dropped. */
function canonical(v: unknown): unknown {
  if (v instanceof Map) return [...v.entries()].map(([k, x]) => [k, canonical(x)]).sort((a, b) => compare(a[0], b[0]));
  if (v instanceof Set) return [...v].map(canonical).sort(compare);
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = canonical(x);
    }
    return out;
  }
  return v;
}

function compare(a: unknown, b: unknown): number {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

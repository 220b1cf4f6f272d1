import { e14 } from "./e14/state.js";
import type { Store } from "./store.js";

/**
 * What a run may create or change in a reference store, as plain JSON with a fixed key order, so
 * that a picture taken before a run compares with one taken after: every collection the suite
 * knows (the workspace, the deployments' settings, branches and variables, and the E14 families).
 * The audit log is left out: a run is expected to add to it (its logins are recorded).
 */
export interface StateSnapshot {
  /** Every workspace item (folders, workbooks, reports), by id. */
  items: Record<string, unknown>[];
  /** Per deployment: its settings, its branches (staging flags among them) and its env vars. */
  deployments: { id: number; settings: unknown; branches: unknown; envVars: unknown }[];
  /** Users and the E14 families: generic resources (embed tenants, notifications, attributes, …), data-model files, dbt jobs, placements, access, tenant settings. */
  users: unknown;
  e14: unknown;
}

export function snapshotOf(store: Store): StateSnapshot {
  return canonical({
    items: [...store.items.values()].sort((a, b) => a.id - b.id),
    deployments: store.deployments.map((d) => ({ id: d.id, settings: d.settings, branches: d.branches, envVars: d.envVars })),
    users: store.users.filter((u) => !e14(store).users.get(u.id)?.deleted).map((u) => ({ ...u })),
    e14: e14Part(store),
  }) as StateSnapshot;
}

/**
 * The E14 state as a client could tell it: without its id counter, deleted users (kept as a flag),
 * the extras of items no longer there, and the empty scopes a read creates on the way.
 */
function e14Part(store: Store): unknown {
  const { nextId, users, embedAccess, reportExtras, attributeValues, resources, ...rest } = e14(store);
  const live = <V>(m: Map<number, V>, alive: (id: number) => boolean) => new Map([...m].filter(([id]) => alive(id)));
  const userAlive = (id: number) => !users.get(id)?.deleted;
  const nonEmpty = new Map(
    [...resources]
      .map(
        ([name, scopes]) =>
          [
            name,
            new Map(
              [...scopes]
                .map(([scope, records]) => [scope, new Map([...records].filter(([, r]) => !lazySeed(r)))] as const)
                .filter(([, records]) => records.size > 0),
            ),
          ] as const,
      )
      .filter(([, scopes]) => scopes.size > 0),
  );
  return {
    ...rest,
    users: live(users, userAlive),
    attributeValues: live(attributeValues, userAlive),
    embedAccess: live(embedAccess, (id) => store.items.has(id)),
    reportExtras: new Map([...live(reportExtras, (id) => store.items.has(id))].filter(([id, x]) => !lazyExtras(store, id, x))),
    resources: nonEmpty,
  };
}

/** The engine seeds a generic resource's scope on its first use (reference/routes/e14/engine.ts), at this instant: a record as seeded is no one's change. */
const SEEDED_AT = "2026-01-05T09:00:00.000Z";
const lazySeed = (r: Record<string, unknown>) => r.createdAt === SEEDED_AT && r.updatedAt === SEEDED_AT;

/** A report's extras as a read creates them when missing (reference/routes/e14/reports.ts): no one's change. */
const lazyExtras = (store: Store, id: number, x: { publicId: string; lastViewedAt: string | null; externalWorkbookId: string | null }) =>
  x.publicId === `rpt-${store.items.get(id)?.deploymentId}-${id}` && x.lastViewedAt === null && x.externalWorkbookId === null;

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

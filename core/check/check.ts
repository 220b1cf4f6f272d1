import type { CheckContext } from "./context.js";
import type { Level, Need, Share } from "../model/needs.js";
import type { CheckId } from "../model/ids.js";
import type { GroupReason } from "../model/reasons.js";
import type { Watcher } from "./watcher.js";

export type { Feature, FixtureName, Level, Need, Share, TokenRole } from "../model/needs.js";

export interface Check {
  /** Stable, dotted: `<group>.<rule family>.<rule>`; also the filter key of --check. */
  id: string;
  group: string;
  /** The rule, phrased as the rule. */
  title: string;
  /** Where the rule stands in the spec, e.g. `E11 rule 3` or `Authentication 1`. */
  spec: string;
  /** MUST where the spec states the rule, SHOULD where it only implies it. */
  level: Level;
  needs: Need[];
  /** "invariant": watches every exchange of the run instead of running (core/run/invariants.ts). */
  kind: "example" | "property" | "model" | "invariant";
  /** For an invariant: its observer of the run's exchanges. */
  watch?: Watcher;
  /** For an invariant: what an exchange must carry for the rule to apply ("not exercised: no answer carried ..."). */
  applicable?: string;
  /** Undeclared: nothing for a read-only check, "exclusive" for one that writes (see Share). */
  shares?: Share[];
  /** The failure reasons this check alone names (its `reason` keys), beside it; those its group shares are in the group's reasons.ts. */
  reasons?: Record<string, GroupReason>;
  run(ctx: CheckContext): Promise<void>;
}

/**
 * What one folder's checks share (`suites/<folder>/shares.ts`, assembled by suites/shares.ts): its
 * groups' by group name, and the checks that differ from their group by id (a key ending in `*`
 * names every id that starts with what precedes it).
 */
export interface GroupShares {
  byGroup?: Record<string, Share[]>;
  byId?: Partial<Record<CheckId | `${string}.*`, Share[]>>;
}

export type CheckSpec = Omit<Check, "group" | "needs" | "kind"> & { needs?: Need[]; kind?: Check["kind"] };

/** Declares the checks of one endpoint group; `shared.needs` are added to every check's own. */
export function group(name: string, checks: CheckSpec[], shared: { needs?: Need[] } = {}): Check[] {
  return checks.map((c) => ({ kind: "example", ...c, needs: [...(shared.needs ?? []), ...(c.needs ?? [])], group: name }));
}

/**
 * Declares checks written by technique (properties) for several endpoint groups: each belongs to
 * the group its id starts with, beside that endpoint's examples, so `--group upsert` runs them too.
 */
export function groupedById(checks: CheckSpec[], shared: { needs?: Need[] } = {}): Check[] {
  return checks.flatMap((c) => group(c.id.slice(0, c.id.indexOf(".")), [c], shared));
}

import type { Behaviour } from "./behaviour.js";
import type { App, Reply, Req } from "./http.js";
import { readSideFaults } from "./faults/read-side.js";
import { cloneFaults } from "./faults/clone.js";
import { upsertFaults } from "./faults/upsert.js";
import { bulkMoveFaults } from "./faults/bulk-move.js";
import { workbooksReadFaults } from "./faults/workbooks-read.js";
import { auditFaults } from "./faults/audit.js";
import { controlPlaneFaults } from "./faults/control-plane.js";
import { workspacePropertyFaults } from "./faults/properties-workspace.js";
import { propertyFaults } from "./faults/properties.js";
import { missingEndpointFaults } from "./faults/missing-endpoints.js";
import { writeAnswerFaults } from "./faults/write-answers.js";
import { authRangeFaults, levelFaults, limitFaults, omittedFieldFaults, rangeFaults } from "./faults/ranges.js";
import { e14Faults } from "./faults/e14.js";
import { e14ParameterFaults } from "./faults/e14-parameters.js";
import { documentedFaults, driftFaults } from "./faults/documented.js";
import { invariantFaults } from "./faults/invariants.js";

/**
 * A named way for the reference server to break one rule of the spec. A fault replaces one seam
 * of the server's behaviour (behaviour.ts) or rewrites the JSON answer of the routes of one spec
 * section; `catches` lists the checks proven (by test/faults.test.ts) to fail against it.
 */
export interface Fault {
  name: string;
  /** The rule it breaks, e.g. "E11 rule 1". */
  breaks: string;
  description: string;
  catches: string[];
  /**
   * Checks run beside the caught ones only for their traffic: an invariant judges what the others
   * send (core/invariants.ts), so its proof runs the checks that walk where the fault is. They need
   * not fail (the fault breaks the rule where none of them looks).
   */
  feeds?: string[];
  /**
   * Checks that must still pass under it: a fault that makes a choice the spec leaves open fails
   * only the SHOULD checks that prefer the other choice, never the MUST beside them.
   */
  spares?: string[];
  /**
   * Why each failure it causes must happen, so that a check failing for another reason proves
   * nothing: per check id, the reason key of the assertion that must fail (CheckFailure.reason,
   * typed, not prose). Required for every caught check but a "no 5xx" one (test/fault-proof.ts);
   * and each caught check's `spec` must cite a section that `breaks` names.
   */
  because?: Record<string, string>;
  behaviour?: Partial<Behaviour>;
  /** Spec sections (Route.spec) whose answers `respond` rewrites. */
  routes?: string[];
  respond?: (r: { status: number; body: any; req: Req; app: App }) => any;
  /**
   * A policy around the handler of the routes of `routes`: it may refuse the request, change it
   * before `next()` runs the handler, or apply only part of it (a rule the answer alone cannot break).
   */
  handle?: (r: { req: Req; app: App; next: () => Promise<Reply> }) => Reply | Promise<Reply>;
}

/** The registry: every fault of the reference server. */
export const faults: Fault[] = [...readSideFaults, ...bulkMoveFaults, ...workbooksReadFaults, ...auditFaults, ...controlPlaneFaults, ...upsertFaults, ...cloneFaults, ...workspacePropertyFaults, ...propertyFaults, ...missingEndpointFaults, ...writeAnswerFaults, ...rangeFaults, ...omittedFieldFaults, ...authRangeFaults, ...levelFaults, ...limitFaults, ...e14Faults, ...e14ParameterFaults, ...documentedFaults, ...driftFaults, ...invariantFaults];

export function faultNamed(name: string): Fault {
  const f = faults.find((x) => x.name === name);
  if (!f) throw new Error(`unknown fault '${name}' (conformance reference --list-faults shows them)`);
  return f;
}

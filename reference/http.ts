import type { IncomingMessage } from "node:http";
import type { Behaviour } from "./behaviour.js";
import type { Reply } from "./reply.js";
import type { Store, User } from "./store.js";
import type { OperationName } from "../core/api/operations.js";
import type { Template } from "../core/api/match.js";
import type { CheckId } from "../core/model/ids.js";
import type { ReasonKey } from "../core/model/reasons.js";

export { HttpError } from "./http-error.js";
export type { Reply } from "./reply.js";

export interface Req {
  method: string;
  path: string;
  params: Record<string, string>;
  /** The operation of the table the request went to (undefined for an unlisted one): what faults and variants target. */
  operation?: OperationName;
  query: URLSearchParams;
  body: any;
  user: User;
  raw: IncomingMessage;
}

export interface ReferenceOptions {
  /** The decide-then-apply window of E11 upsert, so that concurrent writers really race. */
  upsertDelayMs: number;
  /** Milliseconds every request waits before it is handled: a remote server's round trip. */
  latencyMs: number;
  /** Documented response variants the suite must accept (see variants.ts). */
  variants: Set<string>;
}

export interface App {
  store: Store;
  b: Behaviour;
  faults: Fault[];
  options: ReferenceOptions;
}

export type Handler = (req: Req, app: App) => Reply | Promise<Reply>;

/**
 * A route serves one operation of the table (core/api/operations.ts), by its name: its method and
 * path are the row's, and faults and variants find it by that name. Only an operation the spec does
 * not name, which this server serves as a server may (routes/own-operations.ts), is `unlisted`.
 */
export type Route = ({ operation: OperationName; unlisted?: undefined } | { unlisted: Template; operation?: undefined }) & { handler: Handler };

export const ok = (body: unknown): Reply => ({ status: 200, body });

/**
 * A named way for the reference server to break one rule of the spec. A fault replaces one seam
 * of the server's behaviour (behaviour.ts), rewrites the JSON answer of the routes of one spec
 * section (`respond`) or replaces a policy of its endpoint (`handle`); the keys of `because` are the
 * checks proven (by test/faults.test.ts) to fail against it.
 */
export interface Fault {
  name: string;
  /** The rule it breaks, e.g. "E11 rule 1". */
  breaks: string;
  description: string;
  /**
   * Checks run beside the caught ones only for their traffic: an invariant judges what the others
   * send (core/run/invariants.ts), so its proof runs the checks that walk where the fault is. They need
   * not fail (the fault breaks the rule where none of them looks).
   */
  feeds?: CheckId[];
  /**
   * Checks that must still pass under it: a fault that makes a choice the spec leaves open fails
   * only the SHOULD checks that prefer the other choice, never the MUST beside them.
   */
  spares?: CheckId[];
  /**
   * The checks it catches and why each must fail, so that a check failing for another reason proves
   * nothing: per check id, the reason key of the assertion that must fail (CheckFailure.reason,
   * typed, not prose; a key of core/model/reasons.ts). Each caught check's `spec` must cite a
   * section that `breaks` names. A renamed check or reason is a compile error here.
   */
  because: Partial<Record<CheckId, ReasonKey>>;
  behaviour?: Partial<Behaviour>;
  /** Spec sections whose answers `respond` rewrites (and whose handlers `handle` wraps). */
  routes?: string[];
  /** Operations of the table, by name, whose answers `respond` rewrites (and whose handlers `handle` wraps). */
  operations?: OperationName[];
  respond?: (r: { status: number; body: any; req: Req; app: App }) => any;
  /**
   * A policy around the handler of the routes of `routes`: it may refuse the request, change it
   * before `next()` runs the handler, or apply only part of it (a rule the answer alone cannot break).
   */
  handle?: (r: { req: Req; app: App; next: () => Promise<Reply> }) => Reply | Promise<Reply>;
}

/** The checks a fault catches: the keys of its `because`. */
export const caughtBy = (fault: Fault): CheckId[] => Object.keys(fault.because) as CheckId[];

/** Whether the fault catches the check of this id (a result's or a catalogue entry's). */
export const catches = (fault: Fault, id: string): boolean => Object.hasOwn(fault.because, id);

/** Whether a fault (or a variant) applies to a request: its section is one of `routes`, or its operation one of `operations`. */
export const targets = (x: { routes?: readonly string[]; operations?: readonly OperationName[] }, section: string, req: Req): boolean =>
  (x.routes?.includes(section) ?? false) || (req.operation !== undefined && (x.operations?.includes(req.operation) ?? false));

/** Whether a request went to one of these operations of the table. */
export const isOperation = (req: Req, ...names: OperationName[]): boolean => req.operation !== undefined && names.includes(req.operation);

import type { Behaviour } from "./behaviour.js";
import type { App, Req } from "./http.js";
import type { Reply } from "./reply.js";

/**
 * Documented shapes a conforming server may answer with. The clean reference uses one of each
 * choice; a variant switches to the other, and the suite must pass either way (no false alarms).
 */
export interface Variant {
  name: string;
  description: string;
  /** Spec sections (Route.spec) whose requests and 2xx answers it changes. */
  routes: string[];
  /** Spec sections whose checks the variant exercises beyond its routes (a check reading E2 to judge E4, say). */
  exercises?: string[];
  /** Rewrites a 2xx answer of those routes. */
  /** Rewrites a 2xx answer of those routes (`app`: the server's state, for a defect that names another object). */
  respond?: (body: any, req: Req, app: App) => any;
  /** Runs before the handler of those routes: may rewrite the query, or refuse with an HttpError (`app`: the server's state, for a choice that keeps its own). */
  request?: (req: Req, app: App) => void;
  /** Rewrites every JSON error body (status 400 and above), whatever the route. */
  error?: (status: number, body: any) => any;
  /** Decisions of behaviour.ts it makes otherwise (applied before any fault's). */
  behaviour?: Partial<Behaviour>;
  /** SHOULD checks this choice fails by design: a finding to show a user, never a MUST failure. */
  shouldFindings?: string[];
  /** Rewrites the parsed request body before the route handles it: a choice of how to read requests. */
  readRequestBody?: (body: any, req: Req) => any;
  /** Rewrites a 2xx answer of those routes whole, its status and headers too (a 202 where the spec names no status). */
  reply?: (reply: Reply, req: Req, app: App) => Reply;
  /** An answer given before any route is matched or the request read (a gateway's 429 or 503); undefined lets the request through. */
  transient?: (app: App) => Reply | undefined;
  /** Answers carry no Date header (RFC 9110 asks one of an origin server with a clock; a hand-written server may leave it out). */
  dateless?: true;
}

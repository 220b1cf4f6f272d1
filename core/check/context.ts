import type { Api } from "../transport/api.js";
import type { FixtureName, TokenRole } from "../model/needs.js";
import type { Expect } from "../api/expect.js";
import type { Endpoint } from "../api/endpoints.js";
import type { FixtureValues } from "./fixtures.js";
import type { Exchange, Response } from "../model/exchange.js";
import type { Scratch } from "../ledger/scratch.js";
import type { ServedRead } from "../served/read.js";
import type { Schemas } from "../api/schemas.js";
import type { OptIn, RunSettings } from "../api/settings.js";

/** What a check's `run` receives. */
export interface CheckContext {
  checkId: string;
  /** The server with the main token. */
  api: Api;
  /** The server with another configured token (declared in `needs` as `token:<role>`). */
  as(role: TokenRole): Api;
  /** The server with each extra token the user configured, whatever the check declared: for a rule that holds for every caller. */
  callers(): { role: TokenRole; api: Api }[];
  /** The server with no Authorization header. */
  anonymous: Api;
  expect: Expect;
  schemas: Schemas;
  /** A fixture declared in `needs` as `fixture:<name>`, already resolved. */
  fixture<K extends FixtureName>(name: K): FixtureValues[K];
  scratch: Scratch;
  settings: RunSettings;
  /**
   * A need that holds only on some servers (a create the server's document shows no delete of makes
   * what stays): declared where the check learns it, decided as a declared need is (OPT_INS). Without
   * the opt-in the check ends skipped, in the opt-in's own words after `because`.
   */
  needHere(need: OptIn, because: string): void;
  /** The server's OpenAPI document, read once a run and shared (core/served/read.ts; modelOf for the model or the verdict). */
  servedDocument(): Promise<ServedRead>;
  /**
   * An answer the check builds its scenario on (not the one its rule is about): its body when
   * usable (default: a 2xx JSON answer), else the check ends skipped, not verifiable or blocked
   * as core/api/preconditions.ts decides from the endpoint and the status.
   */
  require<T>(res: Response<T>, endpoint: Endpoint, what: string, usable?: (res: Response) => boolean): T;
  /** For a refusal the rule expects: a 404 or 405 (the route is missing) is judged as `require` judges it. */
  requireRoute(res: Response, endpoint: Endpoint, what: string): void;
  /** The check's exchanges so far, in order. */
  log: Exchange[];
}

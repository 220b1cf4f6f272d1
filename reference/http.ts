import type { IncomingMessage } from "node:http";
import type { Behaviour } from "./behaviour.js";
import type { Fault } from "./fault.js";
import type { Reply } from "./reply.js";
import type { Store, User } from "./store.js";

export { HttpError } from "./http-error.js";
export type { Reply } from "./reply.js";

export interface Req {
  method: string;
  path: string;
  params: Record<string, string>;
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

export interface Route {
  /** The spec section it serves, e.g. "E8"; fault response transforms key on it. */
  spec: string;
  method: string;
  pattern: string;
  handler: Handler;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });

/** Compiles `/api/v1/deployments/:deploymentId/...` into a matcher. */
export function matcher(pattern: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const re = new RegExp(
    "^" +
      pattern.replace(/\/:([A-Za-z]+)/g, (_, name) => {
        names.push(name);
        return "/([^/]+)";
      }) +
      "/?$",
  );
  return (path) => {
    const m = re.exec(path);
    if (!m) return undefined;
    const params: Record<string, string> = {};
    names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1])));
    return params;
  };
}

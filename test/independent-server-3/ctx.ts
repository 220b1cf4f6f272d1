// Per-request context passed to every route handler.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Principal } from "./auth.js";
import type { Router } from "./http.js";
import type { Store } from "./store.js";

export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  store: Store;
  p: Principal;
  params: Record<string, string>;
  q: URLSearchParams;
  body: unknown;
  path: string;
}

export type AppRouter = Router<Call>;

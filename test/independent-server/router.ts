// Route table types and path matching.
import type { IncomingMessage } from "node:http";
import type { AuthConfig, Principal } from "./auth.js";
import type { ErrorStyle, Reply } from "./http-util.js";
import type { State } from "./store.js";

export interface Ctx {
  st: State;
  auth: AuthConfig;
  req: IncomingMessage;
  params: Record<string, string>;
  query: URLSearchParams;
  principal: Principal;
  /** Parsed JSON body (undefined when empty). */
  body: unknown;
  locks: Map<string, Promise<void>>;
}

export interface Route {
  method: string;
  path: string;
  style: ErrorStyle;
  /** Metadata endpoint: accepts E3 tokens. */
  meta?: boolean;
  handler: (c: Ctx) => Reply | Promise<Reply>;
}

interface Compiled extends Route {
  segs: string[];
}

export class Router {
  private compiled: Compiled[] = [];

  add(routes: Route[]): void {
    for (const r of routes) this.compiled.push({ ...r, segs: split(r.path) });
  }

  /** Returns the matching route, or the list of allowed methods when only the path matched. */
  match(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | null {
    const segs = split(path);
    const allowed: string[] = [];
    for (const r of this.compiled) {
      const params = matchSegs(r.segs, segs);
      if (!params) continue;
      if (r.method === method) return { route: r, params };
      allowed.push(r.method);
    }
    return allowed.length > 0 ? { allowed } : null;
  }
}

function split(p: string): string[] {
  return p.split("/").filter((s) => s !== "");
}

function matchSegs(pattern: string[], segs: string[]): Record<string, string> | null {
  if (pattern.length !== segs.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p.startsWith(":")) {
      let v: string;
      try {
        v = decodeURIComponent(segs[i]);
      } catch {
        return null;
      }
      params[p.slice(1)] = v;
    } else if (p !== segs[i]) {
      return null;
    }
  }
  return params;
}

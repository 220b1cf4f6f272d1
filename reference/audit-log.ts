import type { App, Reply, Req } from "./http.js";
import type { Store, User } from "./store.js";

/** What the audit log calls a successful write, by the spec section of its route. */
const WRITE_EVENTS: Record<string, string> = {
  E3: "Metadata token created",
  E4: "Staging environment changed",
  E6: "Deployment updated",
  E10: "Workbook duplicated",
  E11: "Workbook saved",
  E12: "Workspace items moved",
  E14: "Workspace changed",
};

const HIDDEN = "[HIDDEN]";

/** Callers whose token has been used, per server (each store is one server's); one token per user here. */
const loggedIn = new WeakMap<Store, WeakSet<User>>();

/**
 * Events (audit log) as they happen: the first answered request of each token is a "Logged in",
 * and every write that succeeded is recorded under its section's event name. server.ts calls
 * this once per answered request, after the handler.
 */
export function recordAudit(app: App, spec: string, req: Req, reply: Reply): void {
  let seen = loggedIn.get(app.store);
  if (!seen) loggedIn.set(app.store, (seen = new WeakSet()));
  const deploymentName = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId)?.name ?? "";
  const record = (eventName: string, details: string) =>
    app.store.audit.push({
      timestamp: new Date().toISOString(),
      userEmail: req.user.email,
      eventName,
      deploymentName,
      ipAddress: req.raw.socket.remoteAddress ?? "",
      details,
    });
  if (!seen.has(req.user)) {
    seen.add(req.user);
    record("Logged in", "API key");
  }
  if (req.method !== "GET" && reply.status < 300) record(WRITE_EVENTS[spec] ?? `API write (${spec})`, details(app, req));
}

/** The request line and the body's top-level fields; secret-named ones show as [HIDDEN] (published docs). */
function details(app: App, req: Req): string {
  const body = req.body && typeof req.body === "object" && !Array.isArray(req.body) ? Object.entries(req.body) : [];
  const fields = body.map(([k, v]) => `${k}=${app.b.isSecretName(k) ? HIDDEN : summary(v)}`);
  return [`${req.method} ${req.path}`, ...fields].join(", ");
}

function summary(v: unknown): string {
  if (v === null || typeof v !== "object") return String(v);
  return Array.isArray(v) ? `[${v.length} items]` : "{…}";
}

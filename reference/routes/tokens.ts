import { LIMITS } from "../../core/api/operations.js";
import { SignJWT } from "jose";
import { HttpError, ok, type App, type Route } from "../http.js";
import { deploymentOf } from "./common.js";

/** Each server signs with its own random key, so its tokens mean nothing to any other server. */
const signingKeys = new WeakMap<App, Uint8Array>();

function signingKey(app: App): Uint8Array {
  let key = signingKeys.get(app);
  if (!key) {
    key = crypto.getRandomValues(new Uint8Array(32));
    signingKeys.set(app, key);
  }
  return key;
}

const dateAt = (epochSeconds: number) => new Date(epochSeconds * 1000);

export const tokenRoutes: Route[] = [
  {
    operation: "createMetadataToken",
    handler: async (req, app) => {
      const dep = deploymentOf(app, req);
      const envId = req.params.environmentId;
      if (!app.b.environmentsOf(dep).some((e) => e.id === envId)) throw new HttpError(404, `environment ${envId} not found`);
      const body = req.body ?? {};
      if (typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "the body must be a JSON object");
      if (!app.b.validSecurityContext(body.security_context)) throw new HttpError(400, "security_context is required and must be a JSON object");
      const problem = app.b.expiresInProblem(body.expires_in);
      if (problem) throw new HttpError(400, problem);
      const securityContext = body.security_context ?? {};
      const lifetime = typeof body.expires_in === "number" ? body.expires_in : LIMITS.tokenLifetimeSeconds;
      const issuedAt = Math.floor(Date.now() / 1000);
      const expiresAt = dateAt(issuedAt + lifetime);
      // Any positive lifetime is taken, but one past the last representable date gives no expires_at.
      if (Number.isNaN(expiresAt.getTime())) throw new HttpError(400, "expires_in is too large");
      const token = await new SignJWT(app.b.tokenClaims(securityContext, issuedAt, lifetime))
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .sign(signingKey(app));
      return ok({ data: { token, created_at: dateAt(issuedAt).toISOString(), expires_at: expiresAt.toISOString(), security_context: securityContext } });
    },
  },
];

// Bearer API key and metadata-token (HS256 JWT) handling.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { HttpError, isObject } from "./http-util.js";

export interface AuthConfig {
  apiKey: string;
  jwtSecret: Buffer;
}

export type Principal = { kind: "apiKey" } | { kind: "meta"; deploymentId: string; environmentId: string; securityContext: unknown };

export function newAuthConfig(): AuthConfig {
  return { apiKey: `apk_live_${randomBytes(18).toString("hex")}`, jwtSecret: randomBytes(32) };
}

const b64 = (s: string | Buffer): string => Buffer.from(s).toString("base64url");

export function signMetaToken(cfg: AuthConfig, claims: Record<string, unknown>): string {
  const head = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64(JSON.stringify(claims));
  const sig = createHmac("sha256", cfg.jwtSecret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

function verifyMetaToken(cfg: AuthConfig, token: string): Principal | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts;
  const expected = Buffer.from(createHmac("sha256", cfg.jwtSecret).update(`${head}.${body}`).digest("base64url"));
  const got = Buffer.from(sig);
  if (expected.length !== got.length || !timingSafeEqual(expected, got)) return null;
  try {
    const h: unknown = JSON.parse(Buffer.from(head, "base64url").toString("utf8"));
    const c: unknown = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    if (!isObject(h) || h.alg !== "HS256" || !isObject(c)) return null;
    if (c.scope !== "meta" || typeof c.exp !== "number" || c.exp * 1000 <= Date.now()) return null;
    if (typeof c.deploymentId !== "string" || typeof c.environmentId !== "string") return null;
    return { kind: "meta", deploymentId: c.deploymentId, environmentId: c.environmentId, securityContext: c.securityContext };
  } catch {
    return null;
  }
}

/**
 * Authenticates a request. Missing/malformed header: 401. Unknown credential: 403.
 * Metadata tokens are only accepted when `allowMeta` is set.
 */
export function authenticate(cfg: AuthConfig, header: string | undefined, allowMeta: boolean): Principal {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m) throw new HttpError(401, "missing or malformed Authorization header", "unauthenticated", undefined);
  const token = m[1];
  const a = Buffer.from(token);
  const b = Buffer.from(cfg.apiKey);
  if (a.length === b.length && timingSafeEqual(a, b)) return { kind: "apiKey" };
  const meta = verifyMetaToken(cfg, token);
  if (meta) {
    if (!allowMeta) throw new HttpError(403, "metadata tokens are limited to metadata endpoints", "token_scope");
    return meta;
  }
  throw new HttpError(403, "invalid or expired credential", "invalid_token");
}

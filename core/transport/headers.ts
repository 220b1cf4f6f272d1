import { UsageError } from "../model/usage-error.js";

/**
 * Headers the user adds to every request (`--header 'X-Tenant: acme'`, the config's `headers`):
 * a tenant header, a proxy's or gateway's credential. Checks choose the API key themselves (none,
 * another role's, a malformed one), so Authorization stays theirs: it is refused here.
 */
export function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(":");
    const name = at > 0 ? line.slice(0, at).trim() : "";
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`--header must be 'Name: value': ${JSON.stringify(line.length > 40 ? line.slice(0, 40) + "…" : line)}`);
    if (name.toLowerCase() === "authorization")
      throw new UsageError("--header Authorization: the API key goes in --token, --token-file or CONFORMANCE_TOKEN (checks send other credentials on purpose)");
    const value = line.slice(at + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header ${name}: the value holds a line break`);
    headers[name] = value;
  }
  return headers;
}

const CREDENTIAL_NAME = /auth|token|key|secret|pass|cookie|session|signature|credential|jwt/i;
const CREDENTIAL_SCHEME = /^(bearer|basic|token|digest|negotiate|aws4-hmac-sha256)\s/i;

/**
 * Whether a header's value is to be kept out of every output: by its name (Proxy-Authorization,
 * X-Api-Key, Cookie), by an auth scheme, or by its look (a long run of letters and digits, as a
 * generated key is). A tenant name or a trace flag stays readable.
 */
export function looksLikeCredential(name: string, value: string): boolean {
  if (CREDENTIAL_NAME.test(name) || CREDENTIAL_SCHEME.test(value)) return true;
  return /^[A-Za-z0-9+/=_.~-]{20,}$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
}

/** The values of the user's headers that are secrets, for the run's Redactor. */
export function secretHeaderValues(headers: Record<string, string> | undefined): string[] {
  return Object.entries(headers ?? {})
    .filter(([name, value]) => looksLikeCredential(name, value))
    .map(([, value]) => value);
}

/** The curl line of a request: how every report lets a reader replay what the suite sent. */

/** A credential as the client holds it: the value, and the env var a curl line names instead. */
export interface Credential {
  role: string;
  value: string;
  envVar: string;
}

/**
 * A shell line that replays the request; the credential appears only as its env var. Other
 * header values pass through `redact` (another configured token, a JWT); a made-up credential
 * stays as sent, so that the line reproduces what the check tested.
 */
export function curlLine(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  credential?: Credential,
  redact: (s: string) => string = (s) => s,
): string {
  const parts = ["curl -sS -i", "-X", method, shq(url)];
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === "accept") continue;
    if (credential && v.includes(credential.value)) {
      parts.push(
        "-H",
        `"${k}: ${v
          .split(credential.value)
          .join("$" + credential.envVar)
          .replace(/"/g, '\\"')}"`,
      );
      continue;
    }
    parts.push("-H", shq(`${k}: ${redact(v)}`));
  }
  if (body !== undefined) parts.push("--data-raw", shq(body));
  return parts.join(" ");
}

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

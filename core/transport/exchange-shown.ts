import { type Credential, curlLine } from "./curl.js";
import type { Exchange } from "./exchange.js";
import type { Redactor } from "./redact.js";

const EXCERPT = 2000;
/**
 * The first EXCERPT characters as a string of their own. A slice of a longer string shares it in
 * V8: every exchange a check logged kept its whole body alive (hundreds of kilobytes for a list)
 * until the check ended, which was most of the old generation a run grows.
 */
export function excerpt(s: string): string {
  return s.length <= EXCERPT ? s : (" " + s.slice(0, EXCERPT)).slice(1);
}

/** A request as a report shows it: redacted once, its body cut to an excerpt, its curl line built when first read. */
export function describeExchange(
  redactor: Redactor,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  credential: Credential | null | undefined,
): Exchange {
  const r = redactor;
  // Each header value redacted once: the curl line shows them too.
  const redacted = new Map<string, string>();
  const redact = (s: string) => {
    let out = redacted.get(s);
    if (out === undefined) redacted.set(s, (out = r.text(s)));
    return out;
  };
  // Real keys (configured tokens, JWTs) are redacted; a credential the suite made up to be
  // refused (empty, `Basic`, an unknown key) is what the check tested, and is shown.
  const shownHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    shownHeaders[k] = redact(credential && v.includes(credential.value) ? v.split(credential.value).join("[REDACTED]") : v);
  const shownUrl = r.text(url);
  const shownBody = body === undefined ? undefined : r.text(body);
  const exchange: Exchange = {
    method,
    url: shownUrl,
    requestHeaders: shownHeaders,
    requestBody: shownBody === undefined ? undefined : excerpt(shownBody),
    durationMs: 0,
    curl: "",
  };
  // The curl line is built from the redacted parts when first read (a failure's report, the
  // ledger of what a check made): most exchanges of a run never need one.
  let curl: string | undefined;
  Object.defineProperty(exchange, "curl", {
    enumerable: true,
    get: () => (curl ??= curlLine(method, shownUrl, headers, shownBody, credential ?? undefined, redact)),
    set: (line: string) => (curl = line),
  });
  return exchange;
}

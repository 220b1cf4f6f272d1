/**
 * What the user can do about a server that cannot be reached, added to preflight's one line:
 * the usual mistakes of TLS (a private CA, the wrong scheme for the port).
 */
export function networkHint(error: string, baseUrl: string): string {
  if (error.startsWith("TLS: the server's certificate is not trusted"))
    return "; a private or self-signed CA is trusted with NODE_EXTRA_CA_CERTS=/path/to/ca.pem (never by turning verification off)";
  if (error.startsWith("TLS: the server does not speak TLS")) return `; it may speak plain HTTP: try ${baseUrl.replace(/^https:/, "http:")}`;
  if (baseUrl.startsWith("http:") && /closed without an answer|reset|parse error|HPE_/i.test(error))
    return `; if the port speaks HTTPS, use ${baseUrl.replace(/^http:/, "https:")}`;
  return "";
}

/** A front server's plain answer to plain HTTP on its TLS port (nginx: 400, "The plain HTTP request was sent to HTTPS port"). */
export function answerHint(status: number, text: string, baseUrl: string): string | undefined {
  if (baseUrl.startsWith("http:") && status === 400 && /plain HTTP request was sent to HTTPS port/i.test(text))
    return `${baseUrl} speaks HTTPS on this port (400: plain HTTP sent to an HTTPS port): use ${baseUrl.replace(/^http:/, "https:")}`;
  return undefined;
}

import type { GroupReason } from "../../core/model/reasons.js";

/** What the tokens checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const tokensReasons = {
  "default-lifetime": { title: "Without expires_in, expires_at is created_at plus 86400 s", expected: "… s (±…)" },
  exp: { title: "The JWT's exp is expires_at", expected: "exp … (±…)…" },
  iat: { title: "The JWT's iat is created_at (in the same zone as exp and expires_at)", expected: "iat at created_at" },
  "jwt-lifetime": { title: "With expires_in …, the JWT's exp is … s after …", expected: "… s" },
  lifetime: { title: "With expires_in …, expires_at is created_at plus … s", expected: "… s" },
  "lifetime-spelled": { title: "Expires_in …, taken, gives the lifetime it spells", expected: "expires_at … s after created_at" },
  "metadata-token-refused": { title: "… (GET …) with a metadata token instead of an API key is refused", expected: "the value the rule names" },
  "no-token": { title: "No token is issued", expected: "a status below 500" },
  "not-jwt": { title: "The token is not a JWT", expected: "a JWT: base64url header.payload.signature, the payload a JSON object" },
  "security-context": { title: "The token's claims hold the security context sent", expected: "a claim deep-equal to …" },
} as const satisfies Record<string, GroupReason>;

import { randomBytes } from "node:crypto";
import type { Api } from "../core/api.js";
import { group, type CheckSpec } from "../core/check.js";
import type { Response } from "../core/http.js";

/** One endpoint of each prefix (Authentication 1): the same token must behave alike on both. */
const endpoints = (dep: string) => ["/api/v1/deployments", `/build/api/v1/deployments/${dep}/branches`];

/** 256 random bits: no key a server issued can equal it. */
const unknownKey = () => `conformance-unknown-${randomBytes(32).toString("base64url")}`;

/** Credentials a server must refuse; `Api-Key <key>` is not among them (published docs: older servers accept it). */
const REFUSED: { rule: string; what: string; header: () => string | undefined }[] = [
  { rule: "no-header", what: "no Authorization header", header: () => undefined },
  { rule: "malformed", what: "`Bearer` with no key after it", header: () => "Bearer" },
  { rule: "wrong-scheme", what: "a Basic credential instead of a Bearer one", header: () => `Basic ${Buffer.from(`conformance:${unknownKey()}`).toString("base64")}` },
  { rule: "unknown-key", what: "a Bearer key the server never issued", header: () => `Bearer ${unknownKey()}` },
];

interface Refusal {
  what: string;
  path: string;
  res: Response;
}

async function refusals(anonymous: Api, dep: string, kinds = REFUSED): Promise<Refusal[]> {
  const out: Refusal[] = [];
  for (const kind of kinds)
    for (const path of endpoints(dep)) {
      const header = kind.header();
      out.push({ what: kind.what, path, res: await anonymous.send({ method: "GET", path, headers: header === undefined ? undefined : { authorization: header } }) });
    }
  return out;
}

const rejectChecks = REFUSED.map((kind): CheckSpec => ({
  id: `auth.reject.${kind.rule}`,
  spec: "Authentication 1",
  level: "MUST",
  // The status is not shown (Errors 6): a 4xx, or a redirect to a login page, both refuse; the
  // 401 is judged at SHOULD by auth.reject.status-401.
  title: `A request with ${kind.what} is refused (a 4xx, or a redirect to a login page), never served`,
  needs: ["fixture:deployment"],
  async run({ anonymous, expect, fixture }) {
    for (const r of await refusals(anonymous, fixture("deployment").id, [kind]))
      expect.that(r.res.status >= 300 && r.res.status < 500, `${r.what} on ${r.path} is refused, not served`, { reason: "refused", expected: "a 4xx, or a 3xx redirect", got: `${r.res.status}`, res: r.res });
  },
}));

export const authChecks = group("auth", [
  ...rejectChecks,
  {
    id: "auth.reject.status-401",
    spec: "Errors 6 (status not shown; published docs: 401)",
    level: "SHOULD",
    title: "A missing, malformed or unknown credential is answered 401",
    needs: ["fixture:deployment"],
    async run({ anonymous, expect, fixture }) {
      for (const r of await refusals(anonymous, fixture("deployment").id)) expect.status(r.res, 401, `${r.what} on ${r.path}`);
    },
  },
  {
    id: "auth.reject.json-body",
    spec: "Errors 1 and 6",
    level: "SHOULD",
    title: "A refused credential is answered with a JSON error body ({error} or {message})",
    needs: ["fixture:deployment"],
    async run({ anonymous, expect, fixture }) {
      for (const r of await refusals(anonymous, fixture("deployment").id)) expect.schema(expect.json(r.res), "ErrorBody", r.res, `the answer to ${r.what} on ${r.path}`);
    },
  },
  {
    id: "auth.key.both-prefixes",
    spec: "Authentication 1",
    level: "MUST",
    title: "The same API key is accepted on /api/v1 and on /build/api/v1",
    needs: ["fixture:deployment"],
    async run({ api, expect, fixture }) {
      for (const path of endpoints(fixture("deployment").id)) expect.status(await api.get(path), 200, `the key on ${path}`);
    },
  },
]);

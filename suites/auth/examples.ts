import type { Api } from "../../core/transport/api.js";
import { group } from "../../core/check/check.js";
import type { Response } from "../../core/transport/http.js";
import { everyOperation, REFUSED } from "./every-operation.js";
import { pathTo } from "../../core/transport/client.js";

/** One endpoint of each prefix (Authentication 1): the same token must behave alike on both. */
/** E1 and the branches list: one read on each prefix. */
const endpoints = (dep: string) => [pathTo("listDeployments"), pathTo("listBranches", { deploymentId: dep })];

interface Refusal {
  what: string;
  path: string;
  res: Response;
}

async function refusals(anonymous: Api, key: string | undefined, dep: string, kinds = REFUSED): Promise<Refusal[]> {
  const out: Refusal[] = [];
  for (const kind of kinds)
    for (const path of endpoints(dep)) {
      const header = kind.header(key);
      out.push({
        what: kind.what,
        path,
        res: await anonymous.send({ method: "GET", path, headers: header === undefined ? undefined : { authorization: header } }),
      });
    }
  return out;
}

export const authChecks = group("auth", [
  everyOperation,
  {
    id: "auth.reject.status-401",
    spec: "Errors 6 (status not shown; published docs: 401)",
    level: "SHOULD",
    title: "A missing, malformed or unknown credential is answered 401",
    needs: ["fixture:deployment"],
    async run({ anonymous, expect, fixture, settings }) {
      for (const r of await refusals(anonymous, settings.token, fixture("deployment").id)) expect.status(r.res, 401, `${r.what} on ${r.path}`);
    },
  },
  {
    id: "auth.reject.json-body",
    spec: "Errors 1 and 6",
    level: "SHOULD",
    title: "A refused credential is answered with a JSON error body ({error} or {message})",
    needs: ["fixture:deployment"],
    async run({ anonymous, expect, fixture, settings }) {
      for (const r of await refusals(anonymous, settings.token, fixture("deployment").id))
        expect.schema(expect.json(r.res), "ErrorBody", r.res, `the answer to ${r.what} on ${r.path}`);
    },
  },
  {
    id: "auth.key.both-prefixes",
    spec: "Authentication 1",
    level: "MUST",
    title: "The same API key is accepted on /api/v1 and on /build/api/v1: the main key, and every other key the run has on both prefixes alike",
    needs: ["fixture:deployment"],
    reasons: {
      "prefix-401": { title: "A key is refused as unauthenticated (401) on one prefix only", expected: "401 on both prefixes or on neither" },
    },
    async run({ api, callers, expect, fixture }) {
      const [plain, build] = endpoints(fixture("deployment").id);
      for (const path of [plain, build]) expect.status(await api.get(path), 200, `the key on ${path}`);
      // A key of lesser rights may be refused the branches (403), never taken for no key at all (401) on one prefix only.
      for (const { role, api: other } of callers()) {
        const [onPlain, onBuild] = [await other.get(plain), await other.get(build)];
        if ((onPlain.status === 401) === (onBuild.status === 401)) continue;
        expect.that(false, `the ${role} key is taken as a valid key on one prefix and refused as unauthenticated (401) on the other`, {
          reason: "prefix-401",
          expected: `the ${role} key answered alike on ${plain} and ${build}: 401 on both or on neither`,
          got: `${onPlain.status} on ${plain}, ${onBuild.status} on ${build}`,
          res: onBuild.status === 401 ? onBuild : onPlain,
        });
      }
    },
  },
]);

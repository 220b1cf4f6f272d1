import type { Store, User } from "../store.js";
import { cleanBehaviour } from "../behaviour.js";
import { HttpError, type Fault } from "../http.js";
import { operation, BUILD_PREFIX } from "../../core/api/operations.js";
import { servedSpec } from "./kit/spec-document.js";
import { CLONE_PATH } from "./kit/documented.js";

/** The owner of the first issued key that `fits` the Bearer key given: a comparison a faulty server makes instead of equality. */
function userOfIssuedKey(header: string | undefined, store: Store, fits: (given: string, issued: string) => boolean): User | undefined {
  const given = /^Bearer\s+(\S+)\s*$/.exec(header ?? "")?.[1];
  const issued = given === undefined ? undefined : [...store.tokens.keys()].find((k) => fits(given, k));
  return issued === undefined ? undefined : store.tokens.get(issued);
}

/** The faults of the group auth (suites/auth/): each makes a check of it fail, for the reason its `because` names. */
export const authFaults: Fault[] = [
  {
    name: "auth-viewer-key-unknown-on-build",
    breaks: "Authentication 1",
    description: "a key below the AI BI User role is taken for no key (401) on /build/api/v1, though /api/v1 accepts it",
    because: { "auth.key.both-prefixes": "prefix-401" },
    behaviour: {
      authenticate: (header, store, request) => {
        const user = cleanBehaviour.authenticate(header, store, request);
        const build = request?.operation !== undefined && operation(request.operation).path.startsWith(BUILD_PREFIX);
        return user && !user.aiBiUser && build ? undefined : user;
      },
    },
  },
  {
    name: "auth-no-header-accepted",
    breaks: "Authentication 1",
    description: "a request without an Authorization header runs as the account's first user",
    because: { "auth.reject.every-operation": "served" },
    behaviour: { authenticate: (header, store) => (header === undefined ? store.users[0] : cleanBehaviour.authenticate(header, store)) },
  },
  {
    name: "auth-empty-bearer-crashes",
    breaks: "Authentication 1",
    description: "`Bearer` with no key makes the server fail with a 500",
    because: { "auth.reject.every-operation": "server-error" },
    behaviour: {
      authenticate: (header, store) => {
        if (header?.trim() === "Bearer") throw new Error("cannot read the key of an empty Bearer header");
        return cleanBehaviour.authenticate(header, store);
      },
    },
  },
  {
    name: "auth-empty-bearer-accepted",
    breaks: "Authentication 1",
    description: "`Bearer` with no key is taken as the first user's credential",
    because: { "auth.reject.every-operation": "served" },
    behaviour: { authenticate: (header, store) => (header?.trim() === "Bearer" ? store.users[0] : cleanBehaviour.authenticate(header, store)) },
  },
  {
    name: "auth-other-schemes-pass",
    breaks: "Authentication 1",
    description: "only Bearer credentials are checked: any other scheme runs as the account's first user",
    because: { "auth.reject.every-operation": "served" },
    behaviour: {
      authenticate: (header, store) => (header !== undefined && !/^Bearer\b/i.test(header) ? store.users[0] : cleanBehaviour.authenticate(header, store)),
    },
  },
  {
    name: "auth-any-bearer-accepted",
    breaks: "Authentication 1 and 2",
    description: "any Bearer key is accepted, as the account's first user when unknown",
    because: { "auth.reject.every-operation": "served" },
    behaviour: {
      authenticate: (header, store) => cleanBehaviour.authenticate(header, store) ?? (/^Bearer\s+\S+/.test(header ?? "") ? store.users[0] : undefined),
    },
  },
  {
    name: "auth-key-matched-by-prefix",
    breaks: "Authentication 2",
    description: "an issued key is compared by prefix: the key with characters added after it runs as its owner",
    because: { "auth.reject.every-operation": "served" },
    behaviour: {
      authenticate: (header, store) => userOfIssuedKey(header, store, (given, issued) => given.startsWith(issued)),
    },
  },
  {
    name: "auth-key-prefix-accepted",
    breaks: "Authentication 2",
    description: "a key is found by the first issued key it starts: an issued key cut short by a character runs as its owner",
    because: { "auth.reject.every-operation": "served" },
    behaviour: {
      authenticate: (header, store) => userOfIssuedKey(header, store, (given, issued) => given.length >= 8 && issued.startsWith(given)),
    },
  },
  {
    name: "auth-refused-with-403",
    breaks: "Errors 6 (published docs: 401)",
    description: "a missing or invalid credential is answered 403 instead of 401",
    because: { "auth.reject.status-401": "status" },
    behaviour: {
      authenticate: (header, store) => {
        const user = cleanBehaviour.authenticate(header, store);
        if (!user) throw new HttpError(403, "forbidden");
        return user;
      },
    },
  },
  {
    name: "auth-malformed-refused-with-400",
    breaks: "Errors 6 (published docs: 401)",
    description: "an Authorization header that is not `Bearer <key>` is answered 400 instead of 401",
    because: { "auth.reject.status-401": "status" },
    behaviour: {
      authenticate: (header, store) => {
        if (header !== undefined && !/^Bearer\s+\S+\s*$/.test(header)) throw new HttpError(400, "malformed Authorization header");
        return cleanBehaviour.authenticate(header, store);
      },
    },
  },
  {
    name: "auth-error-body-nested",
    breaks: "Errors 1",
    description: "a refused credential is answered {error: {code, message}} instead of an error message",
    because: { "auth.reject.json-body": "schema:ErrorBody" },
    behaviour: {
      authenticate: (header, store) => {
        const user = cleanBehaviour.authenticate(header, store);
        if (!user) throw new HttpError(401, "unauthorized", { error: { code: "unauthorized", message: "missing or invalid API key" } });
        return user;
      },
    },
  },
  {
    name: "auth-missing-key-serves-web-app",
    breaks: "Authentication 1; Errors 1",
    description: "a request without a valid API key is answered 200 with the web app's HTML page (published docs: hosted tenants do this on unknown routes)",
    because: { "auth.reject.every-operation": "served", "auth.reject.json-body": "not-json" },
    behaviour: {
      unauthenticated: () => ({
        status: 200,
        headers: { "content-type": "text/html; charset=utf-8" },
        text: "<!doctype html><html><body><div id=app></div></body></html>",
      }),
    },
  },
  {
    name: "auth-missing-key-redirects-to-login",
    breaks: "Errors 6 (status not shown; published docs: 401)",
    description: "a request without a valid API key is redirected (302) to the web app's login page: refused, not served, but no 401 and no JSON error",
    because: { "auth.reject.status-401": "status", "auth.reject.json-body": "not-json" },
    spares: ["auth.reject.every-operation"],
    behaviour: { unauthenticated: () => ({ status: 302, headers: { location: "/login", "content-type": "text/html; charset=utf-8" }, text: "" }) },
  },
  {
    name: "auth-build-prefix-rejects-key",
    breaks: "Authentication 1",
    description: "the /build/api/v1 prefix refuses the account's API key with a 401",
    because: { "auth.key.both-prefixes": "status" },
    routes: ["E4", "E14"],
    respond: ({ body, req }) => {
      if (req.operation && operation(req.operation).prefix === BUILD_PREFIX) throw new HttpError(401, "missing or invalid API key");
      return body;
    },
  },
  {
    name: "auth-writes-unchecked",
    breaks: "Authentication 1",
    description: "only reads check the key: a write without a valid key runs as the account's first user",
    because: { "auth.reject.every-operation": "served" },
    behaviour: {
      authenticate: (header, store, request) =>
        cleanBehaviour.authenticate(header, store) ?? (request && request.method !== "GET" ? store.users[0] : undefined),
    },
  },
  {
    name: "auth-undocumented-clone-unchecked",
    breaks: "Authentication 1; E10",
    description: "the served document leaves out E10, and E10 serves a request without a valid key",
    because: { "auth.reject.every-operation": "served" },
    routes: ["E14"],
    respond: servedSpec((doc) => delete doc.paths[CLONE_PATH]),
    behaviour: {
      authenticate: (header, store, request) =>
        cleanBehaviour.authenticate(header, store) ?? (request?.operation === "duplicateWorkbook" ? store.users[0] : undefined),
    },
  },
];

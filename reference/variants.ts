import type { Behaviour } from "./behaviour.js";
import { HttpError, type Req } from "./http.js";
import { shapeVariants } from "./shape-variants.js";

/**
 * Documented shapes a conforming server may answer with. The clean reference uses one of each
 * choice; a variant switches to the other, and the suite must pass either way (no false alarms).
 */
export interface Variant {
  name: string;
  description: string;
  /** Spec sections (Route.spec) whose requests and 2xx answers it changes. */
  routes: string[];
  /** Rewrites a 2xx answer of those routes. */
  respond?: (body: any, req: Req) => any;
  /** Runs before the handler of those routes: may rewrite the query, or refuse with an HttpError. */
  request?: (req: Req) => void;
  /** Rewrites every JSON error body (status 400 and above), whatever the route. */
  error?: (status: number, body: any) => any;
  /** Decisions of behaviour.ts it makes otherwise (applied before any fault's). */
  behaviour?: Partial<Behaviour>;
  /** SHOULD checks this choice fails by design: a finding to show a user, never a MUST failure. */
  shouldFindings?: string[];
}

const dateOnly = (v: unknown) => (typeof v === "string" ? v.slice(0, 10) : v);

function mapWorkbooks(body: any, f: (w: any) => any): any {
  if (Array.isArray(body?.items)) return { ...body, items: body.items.map(f), data: Array.isArray(body.data) ? body.data.map(f) : body.data };
  if (Array.isArray(body?.moved)) return { ...body, moved: body.moved.map(f) };
  return body && typeof body === "object" && "type" in body ? f(body) : body;
}

export const variants: Variant[] = [
  {
    name: "env-control-plane",
    description: "E2 in the control-plane shape: data.environments with a name and api_credentials keyed by kind; pagination null",
    routes: ["E2"],
    respond: (body) => ({
      data: {
        environments: (body.items as any[]).map((e) => ({
          id: e.id,
          name: `${e.type}: ${e.branch}`,
          type: e.type,
          branch: e.branch,
          user: e.user,
          api_credentials: { rest: { url: e.api_credentials[0].url }, sql: { host: e.api_credentials[1].host, port: e.api_credentials[1].port } },
        })),
      },
      pagination: null,
    }),
  },
  {
    name: "pagination-null",
    description: "E2 keeps items/pageInfo but answers pagination: null",
    routes: ["E2"],
    respond: (body) => ({ ...body, pagination: null }),
  },
  {
    name: "date-only",
    description: "Workbook timestamps as `date` strings instead of `date-time`",
    routes: ["E8", "E9", "E10", "E11", "E12"],
    respond: (body) => mapWorkbooks(body, (w) => ({ ...w, createdAt: dateOnly(w.createdAt), updatedAt: dateOnly(w.updatedAt) })),
  },
  {
    name: "extra-fields",
    description: "Unknown extra fields on every record and list (newer servers add some)",
    routes: ["E1", "E2", "E5", "E8", "E9", "E13"],
    respond: (body) => {
      const extra = (o: any) => (o && typeof o === "object" && !Array.isArray(o) ? { ...o, promotion: null, x_newer_field: { nested: true } } : o);
      const out = extra(body);
      for (const k of ["items", "data"]) if (Array.isArray(out[k])) out[k] = out[k].map(extra);
      if (out.data?.deployments) out.data = { ...out.data, deployments: out.data.deployments.map(extra) };
      return out;
    },
  },
  {
    name: "versions-items",
    description: "E5 as {items, pageInfo} instead of {data}",
    routes: ["E5"],
    respond: (body) => ({ items: body.data, pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } }),
  },
  ...shapeVariants,
  {
    name: "without-settings-read",
    description: "GET deployment settings (E14, shape not shown) is not served: the checks that compare or restore settings are not verifiable, never failed",
    routes: ["E14"],
    respond: (body, req) => notServed(req, "GET", /\/settings\/?$/, body),
  },
  {
    name: "without-folder-creation",
    description: "POST folders (E14, shape not shown) is not served: the checks that need folders of their own are not verifiable, never failed",
    routes: ["E14"],
    respond: (body, req) => notServed(req, "POST", /\/folders\/?$/, body),
  },
];

/** An E14 route a server may lack: it answers 404, as an unknown route does. */
function notServed(req: Req, method: string, path: RegExp, body: unknown): unknown {
  if (req.method === method && path.test(req.path)) throw new HttpError(404, `no route ${req.path}`);
  return body;
}

export function variantNamed(name: string): Variant {
  const v = variants.find((x) => x.name === name);
  if (!v) throw new Error(`unknown variant '${name}' (known: ${variants.map((x) => x.name).join(", ")})`);
  return v;
}

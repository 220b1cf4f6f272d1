import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Store } from "./store.js";
import type { Job, Role } from "./types.js";
import { caller, requireRole } from "./access.js";
import { cursorEnvelope, paginate } from "./pagination.js";
import { STD_ERRORS, cursorListResponse, cursorQuery as cq, dataOf, errorResponses } from "./schemas.js";
import { iso, notFound, uuid } from "./util.js";

export interface CrudSpec {
  base: string; // e.g. /api/v1/embed-tenants/:tenantId/users
  idParam: string; // e.g. userId
  coll: string;
  tag: string;
  noun: string;
  props: Record<string, unknown>;
  required: string[];
  readRole?: Role;
  writeRole?: Role;
  updateMethod?: "PATCH" | "PUT";
  /** Parent path params copied into stored records (and used to filter lists). */
  parents?: Record<string, string>;
  /** Extra path params validated as integers (e.g. deploymentId). */
  intParents?: string[];
  check?: (s: Store, req: FastifyRequest) => void;
  searchFields?: string[];
  onCreate?: (rec: Job, req: FastifyRequest) => void;
  asyncCreate?: boolean; // 202 Accepted + Location instead of 201
}

export function crud(app: FastifyInstance, s: Store, spec: CrudSpec): void {
  const parents = spec.parents ?? {};
  const intParents = spec.intParents ?? [];
  const pSchema = (withId: boolean) => ({
    type: "object",
    required: [...Object.keys(parents), ...intParents, ...(withId ? [spec.idParam] : [])],
    properties: Object.fromEntries([
      ...Object.keys(parents).map((k) => [k, { type: "string", minLength: 1 }]),
      ...intParents.map((k) => [k, { type: "integer", minimum: 1 }]),
      ...(withId ? [[spec.idParam, { type: "string", minLength: 1 }]] : []),
    ]),
  });
  const item = {
    type: "object",
    additionalProperties: true,
    properties: {
      id: { type: "string" },
      ...spec.props,
      createdAt: { type: "string", format: "date-time" },
      updatedAt: { type: "string", format: "date-time" },
    },
  };
  const coll = () => s.collection(spec.coll);
  const scope = (req: FastifyRequest) => {
    const p = req.params as Record<string, string | number>;
    spec.check?.(s, req);
    return Object.fromEntries([...Object.entries(parents).map(([param, field]) => [field, p[param]]), ...intParents.map((k) => [k, p[k]])]);
  };
  const matches = (rec: Job, sc: Record<string, unknown>) => Object.entries(sc).every(([k, v]) => rec[k] === v);
  const get = (req: FastifyRequest) => {
    const sc = scope(req);
    const id = (req.params as Record<string, string>)[spec.idParam]!;
    const rec = coll().get(id);
    if (!rec || !matches(rec, sc)) throw notFound(`${spec.noun} ${id}`);
    return rec;
  };
  const guard = (req: FastifyRequest, write: boolean) =>
    requireRole(caller(req), (write ? spec.writeRole : spec.readRole) ?? (write ? "admin" : "viewer"), `${write ? "Changing" : "Reading"} ${spec.noun}s`);
  const errs = errorResponses(400, 404, ...STD_ERRORS);

  app.get(
    spec.base,
    {
      schema: {
        tags: [spec.tag],
        summary: `List ${spec.noun}s`,
        params: pSchema(false),
        querystring: { type: "object", properties: { ...(spec.searchFields ? { search: { type: "string" } } : {}), ...cq } },
        response: { 200: cursorListResponse(item), ...errs },
      },
    },
    async (req) => {
      guard(req, false);
      const sc = scope(req);
      const q = req.query as { search?: string; first?: number; after?: string };
      const list = [...coll().values()]
        .filter((r) => matches(r, sc))
        .filter(
          (r) =>
            !q.search ||
            (spec.searchFields ?? []).some((f) =>
              String(r[f] ?? "")
                .toLowerCase()
                .includes(q.search!.toLowerCase()),
            ),
        );
      return cursorEnvelope(paginate(list, q, `${spec.coll}:${JSON.stringify(sc)}:${q.search ?? ""}`, true));
    },
  );

  app.post(
    spec.base,
    {
      schema: {
        tags: [spec.tag],
        summary: `Create a ${spec.noun}${spec.asyncCreate ? " (asynchronous: 202 + Location)" : ""}`,
        params: pSchema(false),
        body: { type: "object", required: spec.required, properties: spec.props, additionalProperties: false },
        response: { [spec.asyncCreate ? 202 : 201]: dataOf(item), ...errs },
      },
    },
    async (req, reply) => {
      guard(req, true);
      const sc = scope(req);
      const now = iso();
      const rec: Job = { id: uuid(), ...sc, ...(req.body as Record<string, unknown>), createdAt: now, updatedAt: now };
      spec.onCreate?.(rec, req);
      coll().set(rec.id, rec);
      const path = req.url.split("?")[0]!.replace(/\/+$/, "");
      return reply
        .code(spec.asyncCreate ? 202 : 201)
        .header("location", `${path}/${rec.id}`)
        .send({ data: rec });
    },
  );

  app.get(
    `${spec.base}/:${spec.idParam}`,
    {
      schema: { tags: [spec.tag], summary: `Get a ${spec.noun}`, params: pSchema(true), response: { 200: dataOf(item), ...errs } },
    },
    async (req) => {
      guard(req, false);
      return { data: get(req) };
    },
  );

  app.route({
    method: spec.updateMethod ?? "PATCH",
    url: `${spec.base}/:${spec.idParam}`,
    schema: {
      tags: [spec.tag],
      summary: `Update a ${spec.noun} (partial)`,
      params: pSchema(true),
      body: { type: "object", properties: spec.props, additionalProperties: false, minProperties: 1 },
      response: { 200: dataOf(item), ...errs },
    },
    handler: async (req) => {
      guard(req, true);
      const rec = get(req);
      Object.assign(rec, req.body as Record<string, unknown>, { updatedAt: iso() });
      return { data: rec };
    },
  });

  app.delete(
    `${spec.base}/:${spec.idParam}`,
    {
      schema: {
        tags: [spec.tag],
        summary: `Delete a ${spec.noun}`,
        params: pSchema(true),
        response: { 204: { type: "null", description: "Deleted" }, ...errs },
      },
    },
    async (req, reply) => {
      guard(req, true);
      const rec = get(req);
      coll().delete(rec.id);
      return reply.code(204).send();
    },
  );
}

import { operation } from "../../core/api/operations.js";
import { HttpError, ok, type Route } from "../http.js";
import { deploymentOf } from "./common.js";

/**
 * An operation this server serves beyond the spec, as a server may (the spec names what a server
 * must serve, not all it may): a data query on an environment's REST API. Its own document lists
 * it (ownOperationsDocumented), so that the suite's use of operations the spec does not name
 * (documented.operations.unnamed) meets one here. The query itself reads nothing: no data source.
 * Its path is an environment's (E3's path without its last segment), with `/query`.
 */
export const QUERY_PATH = [...operation("createMetadataToken").path.split("/").slice(0, -1), "query"].join("/");

export const ownOperationRoutes: Route[] = [
  {
    unlisted: { method: "POST", path: QUERY_PATH },
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      if (!app.b.environmentsOf(dep).some((e) => e.id === req.params.environmentId))
        throw new HttpError(404, `environment ${req.params.environmentId} not found`);
      const query = req.body?.query;
      if (!query || typeof query !== "object" || Array.isArray(query)) throw new HttpError(400, "query is required and must be a JSON object");
      return ok({ data: [], query });
    },
  },
];

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const error = { $ref: "#/components/schemas/ErrorBody" };

const METHODS = ["get", "put", "post", "delete", "patch"];

/**
 * Every refusal this server answers, declared on every operation that may meet it (a peer tool
 * holds a server to its own document): 400 a request it cannot take, 401 no valid key, 403 not
 * allowed, 404 an object of the path that is not there, 413 a body past the size it reads. Statuses
 * an operation already declares keep their own description.
 */
function refusalsDeclared(paths: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [path, item] of Object.entries(paths)) {
    out[path] = { ...item };
    for (const m of METHODS.filter((x) => item?.[x])) {
      const op = item[m];
      const refusals: Record<string, string> = { "400": "The request cannot be taken.", "401": "No valid API key.", "403": "The caller may not do this." };
      if (path.includes("{")) refusals["404"] = "An object the path names is not there.";
      if (op.requestBody) refusals["413"] = "The request body is too large.";
      const declared = Object.fromEntries(Object.entries(refusals).map(([status, description]) => [status, { description, ...json(error) }]));
      out[path][m] = { ...op, responses: { ...declared, ...op.responses } };
    }
  }
  return out;
}

/**
 * A path parameter is one non-empty segment: this server reads `/groups/` as `/groups`, so an
 * empty value names another path, whose answer (405, a list) is not this operation's. The
 * document says so with minLength 1 on every path parameter a string may fill.
 */
function pathParametersNonEmpty(paths: Record<string, any>): Record<string, any> {
  const nonEmpty = (p: any) => {
    const types = [p?.schema?.type].flat();
    return p?.in === "path" && types.includes("string") ? { ...p, schema: { minLength: 1, ...p.schema } } : p;
  };
  const out: Record<string, any> = {};
  for (const [path, item] of Object.entries(paths)) {
    out[path] = { ...item, ...(item.parameters ? { parameters: item.parameters.map(nonEmpty) } : {}) };
    for (const m of METHODS.filter((x) => item?.[x]?.parameters)) out[path][m] = { ...item[m], parameters: item[m].parameters.map(nonEmpty) };
  }
  return out;
}

/**
 * A create body written `{ allOf: [<the Write schema>], required: [...] }` is served as the Write
 * schema with those fields required, one object schema saying the same: a peer tool
 * (Schemathesis 4.9.5, coverage phase) drops the sibling `required` and sends `{}` as valid.
 */
function createBodiesInline(paths: Record<string, any>, schemas: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [path, item] of Object.entries(paths)) {
    out[path] = { ...item };
    for (const m of METHODS.filter((x) => item?.[x]?.requestBody?.content?.["application/json"]?.schema)) {
      const media = item[m].requestBody.content["application/json"];
      const { allOf, required, ...rest } = media.schema;
      const ref = allOf?.length === 1 ? allOf[0]?.$ref : undefined;
      const named = typeof ref === "string" && ref.startsWith("#/components/schemas/") ? schemas[ref.slice(21)] : undefined;
      if (!named || Object.keys(rest).length || !Array.isArray(required) || named.allOf || named.$ref) continue;
      const schema = { ...named, required: [...new Set([...(named.required ?? []), ...required])] };
      const content = { ...item[m].requestBody.content, "application/json": { ...media, schema } };
      out[path][m] = { ...item[m], requestBody: { ...item[m].requestBody, content } };
    }
  }
  return out;
}

/** The served document with this server's own operations in it, and the refusals it answers declared. */
export function ownOperationsDocumented(doc: any): any {
  const id = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
  const paths = (p: Record<string, any>) => pathParametersNonEmpty(createBodiesInline(refusalsDeclared(p), doc.components?.schemas ?? {}));
  return {
    ...doc,
    // Authentication 1: every endpoint takes the key as a bearer token.
    components: { ...doc.components, securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API_KEY>" } } },
    security: [{ bearerAuth: [] }],
    paths: paths({
      ...doc.paths,
      [QUERY_PATH]: {
        post: {
          operationId: "queryEnvironment",
          summary: "Query an environment's data through its REST API (this server's own operation; not in the spec)",
          parameters: [id("deploymentId"), id("environmentId")],
          requestBody: { required: true, ...json({ type: "object", required: ["query"], properties: { query: { type: "object" } } }) },
          responses: {
            "200": {
              description: "The query's rows.",
              ...json({
                type: "object",
                required: ["data", "query"],
                properties: { data: { type: "array", items: { type: "object" } }, query: { type: "object" } },
              }),
            },
            "400": { description: "No query object.", ...json(error) },
            "401": { description: "No valid key.", ...json(error) },
            "404": { description: "No such deployment or environment.", ...json(error) },
          },
        },
      },
    }),
  };
}

// The OpenAPI 3.1 document served at GET /api/v1/spec.
import { corePaths } from "./openapi-paths.js";
import { extraPaths } from "./openapi-paths2.js";
import { schemas } from "./openapi-schemas.js";
import { schemas2 } from "./openapi-schemas2.js";
import { ref } from "./openapi-util.js";
import type { S } from "./openapi-util.js";

const ERRORS: Record<number, string> = {
  400: "Bad request: malformed JSON, invalid query parameter (including page sizes above 50), or a rule of the endpoint that answers 400.",
  401: "Missing, malformed or unknown credential (Authorization: Bearer <API_KEY>; Api-Key <key> also accepted).",
  403: "Valid credential without permission for this target (role, permission, deployment scope, embed session, metadata token).",
  404: "Deployment or resource not found.",
  409: "Conflict. On the slug upsert, code = upsert_branch_changed: the create/update decision changed concurrently; retry.",
  413: "Request body larger than 1 MiB.",
  422: "Body failed validation (wrong type, missing required field, value out of range).",
};

let cached: S | undefined;

export function buildOpenApi(): S {
  if (cached) return cached;
  const responses: S = {};
  for (const [code, description] of Object.entries(ERRORS)) {
    responses[`Error${code}`] = { description, content: { "application/json": { schema: ref("Error") } } };
  }
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Analytics Platform API",
      version: "1.0.0",
      description:
        "Independent implementation. Lists are newest-first unless stated; optional fields are left out rather than null; single objects of the additional endpoints are wrapped in data; creates answer 201 with Location.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    paths: { ...corePaths(), ...extraPaths() },
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "Account API key." } },
      responses,
      schemas: { ...schemas(), ...schemas2() },
    },
  };
  return cached;
}

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A server of a few E14-like operations with its own OpenAPI 3.1 document (notification CRUD
 * joined by links, a regions list, user administration), written apart from the reference: the
 * document-driven checks must judge a document they were not written against. `faults` break it.
 */
export type DocumentServerFault = "delete-keeps-object" | "accepts-bad-body" | "writes-unauthenticated" | "list-off-schema";

const TOKEN = "doc-server-token";
const D = "/api/v1/deployments/{deploymentId}";
const notification = {
  type: "object",
  required: ["id", "name", "channel"],
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    channel: { type: "string", enum: ["email", "slack"] },
    grain: { type: ["string", "null"], enum: ["day", "week", null] },
  },
};
const notificationInput = {
  type: "object",
  required: ["name", "channel"],
  additionalProperties: false,
  properties: {
    name: { type: "string", minLength: 1, maxLength: 60 },
    channel: { type: "string", enum: ["email", "slack"] },
    grain: { type: ["string", "null"], enum: ["day", "week", null] },
  },
};
const json = (schema: unknown) => ({ "application/json": { schema } });
const error = { description: "refused", content: json({ type: "object", required: ["error"], properties: { error: { type: "string" } } }) };
const idParam = { name: "notificationId", in: "path", required: true, schema: { type: "string" } };

/** A create of a notification's shape, 201 with what it made, linked to the operations that read and remove it. */
const createOf = (operationId: string, links: Record<string, unknown>) => ({
  operationId,
  requestBody: { required: true, content: json({ $ref: "#/components/schemas/NotificationInput" }) },
  responses: { "201": { description: "made", content: json({ $ref: "#/components/schemas/Notification" }), links }, "400": error },
});

export const documentServerDocument = {
  openapi: "3.1.0",
  info: { title: "Test Platform API", version: "1.0.0" },
  servers: [{ url: "https://tenant.example.com/api/v1" }],
  components: {
    schemas: { Notification: notification, NotificationInput: notificationInput },
    securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
  },
  security: [{ bearer: [] }],
  paths: {
    "/deployments": {
      get: {
        operationId: "listDeployments",
        responses: {
          "200": {
            description: "deployments",
            content: json({ type: "object", required: ["data"], properties: { data: { type: "object", properties: { deployments: { type: "array" } } } } }),
          },
        },
      },
    },
    "/regions/": {
      get: {
        operationId: "listRegions",
        parameters: [{ name: "first", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } }],
        responses: {
          "200": {
            description: "regions",
            content: json({
              type: "object",
              required: ["items"],
              properties: { items: { type: "array", items: { type: "object", required: ["id"], properties: { id: { type: "string" } } } } },
            }),
          },
          "400": error,
        },
      },
    },
    [`${D.replace("/api/v1", "")}/notifications`]: {
      parameters: [{ name: "deploymentId", in: "path", required: true, schema: { type: "string" } }],
      get: {
        operationId: "listNotifications",
        responses: {
          "200": {
            description: "list",
            content: json({
              type: "object",
              required: ["items"],
              properties: { items: { type: "array", items: { $ref: "#/components/schemas/Notification" } } },
            }),
          },
        },
      },
      post: createOf("createNotification", {
        get: { operationId: "getNotification", parameters: { notificationId: "$response.body#/id" } },
        remove: { operationId: "deleteNotification", parameters: { notificationId: "$response.body#/id" } },
      }),
    },
    [`${D.replace("/api/v1", "")}/notifications/{notificationId}`]: {
      parameters: [{ name: "deploymentId", in: "path", required: true, schema: { type: "string" } }, idParam],
      get: {
        operationId: "getNotification",
        responses: { "200": { description: "one", content: json({ $ref: "#/components/schemas/Notification" }) }, "404": error },
      },
      put: {
        operationId: "updateNotification",
        requestBody: { required: true, content: json({ $ref: "#/components/schemas/NotificationInput" }) },
        responses: { "200": { description: "changed", content: json({ $ref: "#/components/schemas/Notification" }) }, "400": error, "404": error },
      },
      delete: { operationId: "deleteNotification", responses: { "204": { description: "gone" }, "404": error } },
    },
    // A family the spec does not name, in the shape of the notifications: its create is no operation of the table.
    [`${D.replace("/api/v1", "")}/alerts`]: {
      parameters: [{ name: "deploymentId", in: "path", required: true, schema: { type: "string" } }],
      post: createOf("createAlert", { remove: { operationId: "deleteAlert", parameters: { alertId: "$response.body#/id" } } }),
    },
    [`${D.replace("/api/v1", "")}/alerts/{alertId}`]: {
      parameters: [
        { name: "deploymentId", in: "path", required: true, schema: { type: "string" } },
        { name: "alertId", in: "path", required: true, schema: { type: "string" } },
      ],
      get: {
        operationId: "getAlert",
        responses: { "200": { description: "one", content: json({ $ref: "#/components/schemas/Notification" }) }, "404": error },
      },
      delete: { operationId: "deleteAlert", responses: { "204": { description: "gone" }, "404": error } },
    },
    // Subscribers name users by id, and this server has none: no drawn id names one (404).
    [`${D.replace("/api/v1", "")}/notifications/{notificationId}/subscribers`]: {
      parameters: [{ name: "deploymentId", in: "path", required: true, schema: { type: "string" } }, idParam],
      post: {
        operationId: "addSubscribers",
        requestBody: {
          required: true,
          content: json({
            type: "object",
            required: ["userIds"],
            additionalProperties: false,
            properties: { userIds: { type: "array", minItems: 1, items: { type: "integer" } } },
          }),
        },
        responses: { "201": { description: "added", content: json({ type: "object", properties: { id: { type: "integer" } } }) }, "404": error },
      },
    },
    [`${D.replace("/api/v1", "")}/notifications/{notificationId}/subscribers/{userId}`]: {
      parameters: [
        { name: "deploymentId", in: "path", required: true, schema: { type: "string" } },
        idParam,
        { name: "userId", in: "path", required: true, schema: { type: "integer" } },
      ],
      delete: { operationId: "removeSubscriber", responses: { "204": { description: "gone" }, "404": error } },
    },
    "/users": { post: { operationId: "createUser", requestBody: { content: json({ type: "object" }) }, responses: { "200": { description: "made" } } } },
  },
};

export async function startDocumentServer(faults: DocumentServerFault[] = []) {
  const notifications = new Map<string, any>();
  let next = 1;
  const has = (f: DocumentServerFault) => faults.includes(f);
  const valid = (b: any) =>
    b &&
    typeof b === "object" &&
    !Array.isArray(b) &&
    Object.keys(b).every((k) => ["name", "channel", "grain"].includes(k)) &&
    typeof b.name === "string" &&
    b.name.length >= 1 &&
    b.name.length <= 60 &&
    ["email", "slack"].includes(b.channel) &&
    [undefined, null, "day", "week"].includes(b.grain);
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, body === undefined ? headers : { "content-type": "application/json", ...headers });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      const url = new URL(req.url ?? "/", "http://x");
      const method = req.method ?? "GET";
      const authorised = req.headers.authorization === `Bearer ${TOKEN}` || (has("writes-unauthenticated") && method !== "GET");
      if (!authorised) return send(401, { error: "unauthorised" });
      let body: any;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = Symbol("not json");
      }
      const p = url.pathname;
      if (p === "/api/v1/spec" && method === "GET") return send(200, documentServerDocument);
      if (p === "/api/v1/deployments" && method === "GET")
        return send(200, { data: { deployments: [{ id: "7", name: "Test", created_at: "2024-01-01T00:00:00Z" }] } });
      if (p === "/api/v1/regions/" && method === "GET") {
        const first = url.searchParams.get("first");
        if (first !== null && !(/^\d+$/.test(first) && +first >= 1 && +first <= 100)) return send(400, { error: "first must be 1..100" });
        return send(200, { items: has("list-off-schema") ? [{ name: "eu" }] : [{ id: "eu" }] });
      }
      const list = /^\/api\/v1\/deployments\/7\/(notifications|alerts)\/?$/.exec(p);
      const one = /^\/api\/v1\/deployments\/7\/(notifications|alerts)\/([^/]+)$/.exec(p);
      // The alerts share the notifications' store; the document lists no alerts list.
      if (list && method === "GET" && list[1] === "notifications") return send(200, { items: [...notifications.values()] });
      if (list && method === "POST") {
        if (!valid(body) && !has("accepts-bad-body")) return send(400, { error: "invalid notification" });
        const n = { grain: null, ...(typeof body === "object" ? body : {}), id: `n${next++}` };
        notifications.set(n.id, n);
        return send(201, n);
      }
      const subscribers = /^\/api\/v1\/deployments\/7\/notifications\/[^/]+\/subscribers(\/[^/]+)?$/.exec(p);
      if (subscribers && method === (subscribers[1] ? "DELETE" : "POST")) return send(404, { error: "no such user" });
      if (one) {
        const n = notifications.get(one[2]);
        if (method === "GET") return n ? send(200, n) : send(404, { error: "no such notification" });
        if (method === "PUT" && one[1] === "notifications")
          return !n
            ? send(404, { error: "no such notification" })
            : !valid(body)
              ? send(400, { error: "invalid notification" })
              : send(200, Object.assign(n, body));
        if (method === "DELETE") {
          if (!n) return send(404, { error: "no such notification" });
          if (!has("delete-keeps-object")) notifications.delete(one[2]);
          return send(204);
        }
      }
      const known = list || one || subscribers || ["/api/v1/spec", "/api/v1/deployments", "/api/v1/regions/", "/api/v1/users"].includes(p);
      // A 405 names the methods the path serves (RFC 9110 15.5.6): those its document lists.
      const served = Object.entries<any>(documentServerDocument.paths).find(([t]) => new RegExp(`^/api/v1${t.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(p))?.[1];
      const allow = Object.keys(served ?? {})
        .filter((m) => ["get", "put", "post", "delete", "patch"].includes(m))
        .map((m) => m.toUpperCase());
      return known ? send(405, { error: "method not allowed" }, { allow: allow.join(", ") }) : send(404, { error: "no route" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token: TOKEN,
    deploymentId: "7",
    notifications,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

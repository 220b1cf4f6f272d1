import { operation, type OperationName } from "../../../core/api/operations.js";
import { HttpError, type Route } from "../../http.js";
import { resourceRoutes, type ResourceDef } from "./engine.js";

/** A family's collection: the path of its list, a row of the table (a trailing slash dropped: members append `/{id}`). */
const collectionOf = (list: OperationName) => operation(list).path.replace(/\/$/, "");

const ALL = { list: true, create: true, get: true, update: "PATCH", remove: true } as const;

export const TIME_GRAINS = ["day", "week", "month", "quarter", "year"] as const;
export const POLICY_ACTIONS = ["Read", "Edit", "Manage", "SecretsManage", "DownloadData", "AuditLogManage"] as const;
/** E14: dashboard filter operators of scheduled notifications (is_empty and is_not_empty among them). */
export const NOTIFICATION_OPERATORS = ["equals", "not_equals", "contains", "gt", "lt", "in_date_range", "is_empty", "is_not_empty"];
/** E14: user attribute types. */
export const ATTRIBUTE_TYPES = ["string", "number", "boolean", "string_array", "number_array"];

/** The E14 families served by the resource engine: their only rules are their shapes. */
export const resourceDefs: ResourceDef[] = [
  {
    name: "notifications",
    collection: collectionOf("listNotifications"),
    idParam: "notificationId",
    ops: { list: true, create: true, get: true, update: "PUT", remove: true },
    fields: { name: "string", schedule: "string", workbookId: "integer", timeGrain: TIME_GRAINS, filters: "array", recipients: "array", enabled: "boolean" },
    required: ["name", "schedule"],
    validate: (f) => {
      const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
      for (const filter of (f.filters as any[] | undefined) ?? [])
        if (
          typeof filter?.member !== "string" ||
          !NOTIFICATION_OPERATORS.includes(filter?.operator) ||
          (filter.values !== undefined && !strings(filter.values))
        )
          throw new HttpError(400, `each filter is {member, operator: ${NOTIFICATION_OPERATORS.join(" | ")}, values?: string[]}`);
      if (f.recipients !== undefined && !strings(f.recipients)) throw new HttpError(400, "recipients is an array of strings");
    },
  },
  {
    name: "groups",
    collection: collectionOf("listGroups"),
    idParam: "groupId",
    ops: { list: true, create: true, get: true, update: "PUT", remove: true },
    fields: { name: "string", description: "string" },
    required: ["name"],
    search: ["name", "description"],
    seed: () => [
      { name: "Finance analysts", description: "Read finance workbooks" },
      { name: "Sales leads", description: "Pipeline owners" },
      { name: "Admins", description: "Everything" },
    ],
  },
  {
    name: "policies",
    collection: collectionOf("listPolicies"),
    idParam: "policyId",
    ops: { list: true, create: true, get: true, update: "PUT", remove: true },
    fields: { name: "string", principal: "string", action: POLICY_ACTIONS, resource: "string" },
    required: ["name", "action"],
  },
  {
    name: "embed-tenants",
    collection: collectionOf("listEmbedTenants"),
    idParam: "tenantId",
    ops: ALL,
    fields: { name: "string", externalId: "string" },
    required: ["name"],
    seed: () => [
      { name: "Acme Corp", externalId: "acme" },
      { name: "Globex", externalId: "globex" },
    ],
  },
  {
    name: "embed-tenant-users",
    collection: collectionOf("listEmbedUsers"),
    idParam: "embedUserId",
    ops: ALL,
    fields: { email: "string", externalId: "string", name: "string" },
    required: ["email"],
    parents: { tenantId: "embed-tenants" },
  },
  {
    name: "embed-tenant-groups",
    collection: collectionOf("listEmbedGroups"),
    idParam: "embedGroupId",
    ops: ALL,
    fields: { name: "string" },
    required: ["name"],
    parents: { tenantId: "embed-tenants" },
  },
  {
    name: "embed-group-members",
    collection: collectionOf("listEmbedGroupMembers"),
    idParam: "memberId",
    ops: { list: true, create: true, remove: true },
    fields: { embedUserId: "integer" },
    required: ["embedUserId"],
    parents: { tenantId: "embed-tenants", embedGroupId: "embed-tenant-groups" },
  },
  {
    name: "oauth-integrations",
    collection: collectionOf("listOauthIntegrations"),
    idParam: "integrationId",
    ops: ALL,
    fields: { name: "string", provider: ["snowflake", "databricks", "google", "generic"], clientId: "string", clientSecret: "string", scopes: "string[]" },
    required: ["name", "provider", "clientId"],
    writeOnly: ["clientSecret"],
  },
  {
    name: "user-oauth-tokens",
    collection: collectionOf("listUserOauthTokens"),
    idParam: "tokenId",
    ops: { list: true, create: true, get: true, remove: true },
    fields: { integrationId: "integer", accessToken: "string", expiresAt: "string" },
    required: ["integrationId", "accessToken"],
    writeOnly: ["accessToken"],
  },
  {
    name: "oidc-token-configs",
    collection: collectionOf("listOidcTokenConfigs"),
    idParam: "configId",
    ops: ALL,
    fields: { name: "string", issuer: "string", audience: "string", claimsMapping: "object" },
    required: ["name", "issuer"],
  },
  {
    name: "user-attributes",
    collection: collectionOf("listUserAttributes"),
    idParam: "attributeId",
    ops: { list: true, create: true, get: true, update: "PUT", remove: true },
    fields: { name: "string", displayName: "string", type: ATTRIBUTE_TYPES, defaultValue: "string" },
    required: ["name", "type"],
    seed: () => [
      { name: "region", displayName: "Region", type: "string" },
      { name: "max_discount", displayName: "Max discount", type: "number" },
      { name: "is_partner", displayName: "Partner", type: "boolean" },
    ],
  },
];

export const resourceEngineRoutes: Route[] = resourceDefs.flatMap(resourceRoutes);

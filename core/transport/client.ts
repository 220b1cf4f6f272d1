import type { RequestSpec } from "./http.js";
import { fillPath, matchOperation, matchPath, segmentCount } from "../api/match.js";
import { OPERATIONS, operation, type OperationName, type WriteClass } from "../api/operations.js";
import type { NeedsParams, ParamsOf, RequestOf } from "../api/operation-types.js";
import { READ_METHODS } from "../api/methods.js";

/**
 * Requests named by operation, built from the table: the only way the suite turns an operation
 * into a URL. `Api.call` sends one; `pathTo` gives the path where a walker (core/transport/pagination.ts)
 * or a plain client needs it.
 */
export type OperationParams = Record<string, string | number>;
/** What the caller adds to an operation's request: its body typed by the row (RequestOf; a deliberately wrong one goes as `rawBody`, or through a name of any operation). */
export type CallOptions<N extends OperationName = OperationName> = Omit<RequestSpec, "method" | "path" | "body"> & { body?: RequestOf<N> | OffSchema };
declare const offSchemaBody: unique symbol;
/** A body `offSchema` marks: `api.call` takes it beside its operation's request type. */
export type OffSchema = { readonly [offSchemaBody]: true };
/**
 * A body sent off its operation's request schema on purpose (a negative check's, a property's drawn
 * one): the value unchanged, typed so that `api.call` takes it, which says at the call that it is meant.
 */
export function offSchema(body: unknown): OffSchema {
  return body as OffSchema;
}
/** What names a request of an operation: its path's values, optional only where its path has no placeholder. */
export type ParamsArg<N extends OperationName> = NeedsParams<N> extends true ? [params: ParamsOf<N>] : [params?: ParamsOf<N>];
/** The same, and what the caller adds to the request. */
export type CallArgs<N extends OperationName> =
  NeedsParams<N> extends true ? [params: ParamsOf<N>, options?: CallOptions<N>] : [params?: ParamsOf<N>, options?: CallOptions<N>];

/** The path of an operation with its placeholders filled (each value one encoded segment). */
export function pathTo<N extends OperationName>(name: N, ...[params]: ParamsArg<N>): string {
  return fillPath(operation(name).path, params ?? {});
}

/** The request of an operation: its method, its filled path and what the caller adds. */
export function requestTo<N extends OperationName>(name: N, ...[params, options]: CallArgs<N>): RequestSpec {
  return { ...options, method: operation(name).method, path: fillPath(operation(name).path, params ?? {}) };
}

/**
 * The write class of a request (core/api/operations.ts): its row's, "read" for a read, and
 * "unnamed-operations" for a write the table has no row for. A path may carry values or
 * placeholders of any name (an operation of a server's document).
 */
export function writeClassOf(method: string, path: string): WriteClass {
  if (READ_METHODS.includes(method.toUpperCase())) return "read";
  return matchOperation(OPERATIONS, method, path)?.operation.write ?? "unnamed-operations";
}

const DEPLOYMENT_ID = "{deploymentId}";
/** One deployment's path under each prefix, as the table's rows write it (`/api/v1/deployments/{deploymentId}`). */
const DEPLOYMENT_PATHS = [
  ...new Set(OPERATIONS.filter((o) => o.path.includes(DEPLOYMENT_ID)).map((o) => o.path.slice(0, o.path.indexOf(DEPLOYMENT_ID) + DEPLOYMENT_ID.length))),
];

/**
 * The deployment a path lies under, read by the table's deployment paths (so that an operation the
 * table does not name, a served document's, is placed too), and whether the path goes deeper than
 * the deployment itself (`/deployments/7/workbooks`, not `/deployments/7`).
 */
export function deploymentInPath(path: string): { deploymentId: string; deeper: boolean } | undefined {
  const segments = path.split("/");
  for (const template of DEPLOYMENT_PATHS) {
    const deploymentId = matchPath(template, segments.slice(0, segmentCount(template)).join("/"))?.deploymentId;
    if (deploymentId !== undefined) return { deploymentId, deeper: segmentCount(path) > segmentCount(template) };
  }
  return undefined;
}

/** The deployment a request addresses: its row's `deploymentId`, else the deployment its path lies under. */
export function deploymentAddressed(method: string, path: string): string | undefined {
  return matchOperation(OPERATIONS, method, path)?.params.deploymentId ?? deploymentInPath(path)?.deploymentId;
}

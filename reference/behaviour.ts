import type { DeploymentRecord, EnvironmentRecord, Item, Store, User, VersionRecord } from "./store.js";
import type { Reply } from "./reply.js";
import { e14Behaviour } from "./e14/behaviour.js";
import { controlPlaneBehaviour } from "./behaviour/control-plane.js";
import { upsertBehaviour, type UpsertFields } from "./behaviour/upsert.js";
import { workbookBehaviour } from "./behaviour/workbooks.js";

export type { UpsertFields };
import { type OperationName, SECRET_MARKERS } from "../core/api/operations.js";

/**
 * The policies of the reference server that faults or variants choose between, each a small pure
 * function: a fault replaces exactly one seam (see faults.ts) instead of adding branches to the
 * handlers. An answer the spec fixes (a status, a vocabulary, a default) is no seam: its handler
 * states it, and a fault rewrites the answer (Fault.respond) or replaces the endpoint's policy
 * (Fault.handle, building blocks in faults/policies.ts).
 */
/** A request error a seam decides (reference/server.ts throws it as an HttpError). */
export interface HttpErrorLike {
  status: number;
  message: string;
}

export const cleanBehaviour = {
  ...e14Behaviour,
  ...workbookBehaviour,
  ...upsertBehaviour,
  ...controlPlaneBehaviour,
  /** Authentication 1: `Authorization: Bearer <API key>`; anything else is no caller (on every route: `request`, its method and the table's operation it names, is for faults). */
  authenticate(header: string | undefined, store: Store, request?: { method: string; operation?: OperationName }): User | undefined {
    const m = /^Bearer\s+(\S+)\s*$/.exec(header ?? "");
    return m ? store.tokens.get(m[1]) : undefined;
  },

  /** Errors 1: the answer to a request error on a route of spec section `spec` (undefined: no route matched). */
  requestErrorReply(spec: string | undefined, status: number, body: Record<string, unknown>): Reply {
    return { status, body };
  },

  /**
   * A request body is JSON: one that does not parse is a request error (reference/server.ts answers
   * 400). `operation`: the table's operation it was sent to, for faults.
   */
  jsonBody(text: string, operation?: OperationName): unknown {
    return JSON.parse(text);
  },

  /** E10: the optional body is an object whose `shared`, when sent, is a boolean. */
  cloneBodyProblem(body: unknown): string | undefined {
    if (body === undefined) return undefined;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return "the body must be an object {shared?}";
    const shared = (body as { shared?: unknown }).shared;
    return shared !== undefined && typeof shared !== "boolean" ? "shared must be a boolean" : undefined;
  },

  /** Pagination styles: a parameter below its minimum is a request error. */
  belowMinimum(value: number, min: number): boolean {
    return value < min;
  },

  /**
   * A method a served path does not take: 405 (the body, not yet read as JSON, has no say), naming
   * in Allow the methods the path takes (RFC 9110, 15.5.6).
   */
  unsupportedMethod(method: string, takes: string[]): HttpErrorLike & { allow?: string[] } {
    return { status: 405, message: `${method} is not allowed here`, allow: takes };
  },

  /** Errors 6 (published docs: 401): the answer to a request without a valid API key. */
  unauthenticated(): Reply {
    return { status: 401, body: { error: "missing or invalid API key" } };
  },

  /** Pagination styles 1 and 2: the window of a list a page shows. */
  pageSlice<T>(list: T[], start: number, count: number): T[] {
    return list.slice(start, start + count);
  },

  /** E9 and E10 rule 8 (Errors 2: 404): an item of another deployment is not found. */
  itemBelongsTo(item: Item, deploymentId: number): boolean {
    return item.deploymentId === deploymentId;
  },

  /** E2 and the States table: a shared branch with the flag on is an always-on `staging` environment. */
  environmentsOf(dep: DeploymentRecord): EnvironmentRecord[] {
    const staging = dep.branches
      .filter((b) => b.isStagingEnvironmentEnabled)
      .map((b): EnvironmentRecord => ({ id: `env-${dep.id}-staging-${b.name}`, type: "staging", branch: b.name, user: "", name: `Staging: ${b.name}` }));
    return [...dep.environments.filter((e) => e.type === "production"), ...staging, ...dep.environments.filter((e) => e.type === "development")];
  },

  /** Resources / Environment variable: a name holding a marker is secret (any case). */
  isSecretName(name: string): boolean {
    return new RegExp(SECRET_MARKERS.join("|"), "i").test(name);
  },

  /** E11 rule 1. */
  normaliseSlug(slug: string): string {
    return slug.trim().toLowerCase();
  },

  /** E11 rule 2: `meta` is merged key by key into what is stored. */
  mergeMeta(stored: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
    return { ...stored, ...sent };
  },

  /**
   * E6 rule 1: `1.7.20`, `v1.7.20` and the image-style reference E5 lists (`<repository>:v1.7.20`)
   * name the same listed version; any other spelling names none. Surrounding spaces are forgiven.
   */
  resolveVersion(input: string, versions: VersionRecord[], repository: string): VersionRecord | undefined {
    const s = input.trim();
    return versions.find((v) => s === v.version || s === `v${v.version}` || s === `${repository}:v${v.version}`);
  },

  /** E2 query `type`: null (no filter) keeps every environment. */
  environmentMatchesType(env: EnvironmentRecord, type: string | null): boolean {
    return type === null || env.type === type;
  },

  /**
   * E8: the items the list holds, in its order. Workbook.type has REPORT and FOLDER too, and the
   * order is not shown: this reference lists workbooks, oldest first.
   */
  workbookListOrder(items: Item[]): Item[] {
    return items.filter((i) => i.type === "WORKBOOK").sort((a, b) => a.id - b.id);
  },

  /** E8: the folderId filter keeps the items directly in that folder (null: the root). */
  listedInFolder(item: Item, folderId: number | null): boolean {
    return item.folderId === folderId;
  },
};

export type Behaviour = typeof cleanBehaviour;

import { convertLegacyWidgets, draftProblem, LEGACY_TABS, WIDGET_TYPES } from "./dashboard.js";
import type { DeploymentRecord, EnvironmentRecord, Item, Store, User, VersionRecord } from "./store.js";
import { atLeast } from "./access.js";
import { itemRefs } from "./routes/item-refs.js";
import type { Access } from "./store.js";
import type { AuditEvent } from "./store.js";
import type { Reply } from "./reply.js";
import { e14Behaviour } from "./e14/behaviour.js";
import { LIMITS, SECRET_MARKERS } from "../core/spec/operations.js";

/**
 * The decisions of the reference server that a fault may change, each a small pure function.
 * Handlers call these and nothing else for such decisions, so a fault replaces exactly one seam
 * (see faults.ts) instead of adding branches to the handlers.
 */
/** A request error a seam decides (reference/server.ts throws it as an HttpError). */
export interface HttpErrorLike {
  status: number;
  message: string;
}

export const cleanBehaviour = {
  ...e14Behaviour,
  /** Authentication 1: `Authorization: Bearer <API key>`; anything else is no caller (on every route: `request` is for faults). */
  authenticate(header: string | undefined, store: Store, request?: { method: string; path: string }): User | undefined {
    const m = /^Bearer\s+(\S+)\s*$/.exec(header ?? "");
    return m ? store.tokens.get(m[1]) : undefined;
  },

  /** Errors 1: the answer to a request error on a route of spec section `spec` (undefined: no route matched). */
  requestErrorReply(spec: string | undefined, status: number, body: Record<string, unknown>): Reply {
    return { status, body };
  },

  /** E10: the optional body is an object whose `shared`, when sent, is a boolean. */
  cloneBodyProblem(body: unknown): string | undefined {
    if (body === undefined) return undefined;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return "the body must be an object {shared?}";
    const shared = (body as { shared?: unknown }).shared;
    return shared !== undefined && typeof shared !== "boolean" ? "shared must be a boolean" : undefined;
  },

  /** Limits: offset style defaults to offset 0 and 20 items a page. */
  offsetDefaults(): { offset: number; limit: number } {
    return { offset: 0, limit: 20 };
  },

  /** Pagination styles: a parameter below its minimum is a request error. */
  belowMinimum(value: number, min: number): boolean {
    return value < min;
  },

  /** A method a served path does not take: 405 (the body, not yet read as JSON, has no say). */
  unsupportedMethod(method: string): HttpErrorLike {
    return { status: 405, message: `${method} is not allowed here` };
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

  /** E3: the lifetime of a metadata token. */
  tokenLifetime(expiresIn: number | undefined): number {
    return expiresIn ?? LIMITS.tokenLifetimeSeconds;
  },

  /** E6 (field types not shown; the schema's plausible ones): whether a sent field is of its type. */
  deploymentFieldTyped(_field: string, value: unknown, typed: (v: unknown) => boolean): boolean {
    return typed(value);
  },

  /**
   * E6 rule 1: `1.7.20`, `v1.7.20` and the image-style reference E5 lists (`<repository>:v1.7.20`)
   * name the same listed version; any other spelling names none. Surrounding spaces are forgiven.
   */
  resolveVersion(input: string, versions: VersionRecord[], repository: string): VersionRecord | undefined {
    const s = input.trim();
    return versions.find((v) => s === v.version || s === `v${v.version}` || s === `${repository}:v${v.version}`);
  },

  /** E10 rule 1. */
  cloneName(name: string): string {
    return `Copy of ${name}`;
  },

  /** E2 query `type`: null (no filter) keeps every environment. */
  environmentMatchesType(env: EnvironmentRecord, type: string | null): boolean {
    return type === null || env.type === type;
  },

  /** E12 Body and Limits: up to 100 {type, id} items, duplicates collapsed, malformed a 400. */
  bulkMoveItems(body: unknown): { type: Item["type"]; id: number }[] {
    return itemRefs(body);
  },

  /** E12 Body: folderId is an integer or null (the root); anything else is undefined, a request error. */
  bulkMoveDestination(value: unknown): number | null | undefined {
    return value === null ? null : Number.isSafeInteger(value) ? (value as number) : undefined;
  },

  /** E12: a destination is a folder of the same deployment. */
  isFolderOf(item: Item | undefined, deploymentId: number): boolean {
    return item?.type === "FOLDER" && item.deploymentId === deploymentId;
  },

  /** E12 and Authentication 4 (the single-item move): edit access to the item and to the destination. */
  mayMove(itemAccess: Access, destinationAccess: Access): boolean {
    return atLeast(itemAccess, "edit") && atLeast(destinationAccess, "edit");
  },

  /** E12: a folder cannot go into itself or its own descendant; bounded, so a cycle cannot hang it. */
  nestsInItself(store: Store, folder: Item, destinationId: number | null): boolean {
    const seen = new Set<number>();
    for (let id = destinationId; id != null && !seen.has(id); id = store.items.get(id)?.folderId ?? null) {
      if (id === folder.id) return true;
      seen.add(id);
    }
    return false;
  },

  /** States (bulk move): the item now lives in the destination; returns it as it now is. */
  placeItem(item: Item, folderId: number | null): Item {
    item.folderId = folderId;
    item.updatedAt = new Date().toISOString();
    return item;
  },

  /** E12: each item is its own transaction; a later item's failure undoes no earlier move. */
  undoesEarlierMoves(): boolean {
    return false;
  },
  /** E10 rule 2: a report reference of the clone names the copy of the source's report. */
  cloneReportRef(reportId: number, copies: Map<number, number>): number {
    return copies.get(reportId) ?? reportId;
  },

  /** E10 rule 2: the clone owns its content: nothing is shared with the source. */
  cloneCopy<T>(value: T): T {
    return structuredClone(value);
  },

  /** E10 rule 2 and E11: a slug is a deployment-scoped identity; the copy does not take it. */
  cloneSlug(sourceSlug: string | null): string | null {
    return null;
  },

  /** E10 rule 3. */
  clonedAllowEmbed(sourceAllowEmbed: boolean): boolean {
    return false;
  },

  /** E10 rule 4: the source's folder with edit access to it; else, or from the root, the root. */
  clonePlacement(sourceFolderId: number | null, folderAccess: Access): number | null {
    return sourceFolderId !== null && atLeast(folderAccess, "edit") ? sourceFolderId : null;
  },

  /** E10 rule 5: the caller owns the new workbook. */
  cloneOwner(callerId: number, sourceOwnerId: number): number {
    return callerId;
  },

  /** E10 rule 6: `shared: true` is for creator-mode embed sessions only. */
  mayCloneShared(user: User): boolean {
    return user.creatorMode;
  },

  /** E10 rule 6: a shared clone is built from the published dashboard, so it needs one. */
  sharedCloneSourceUsable(source: Item): boolean {
    return source.publishedDashboard != null;
  },

  /** E10 rule 7: null is a plan without a workbook limit. */
  workbookLimitReached(workbooks: number, limit: number | null): boolean {
    return limit !== null && workbooks >= limit;
  },

  /** E10 rule 7: a clone refused at the workbook limit creates nothing. */
  limitRefusalCreates(): boolean {
    return false;
  },

  /** E9, E10 rule 8; Errors 2: the status of a workbook not found, by the section that looked for it. */
  missingWorkbookStatus(_section: "E9" | "E10"): number {
    return 404;
  },

  /** E11 rule 6: the deployment named in the path, if there is one. */
  upsertDeployment(deployments: DeploymentRecord[], rawId: string): DeploymentRecord | undefined {
    return /^\d+$/.test(rawId) ? deployments.find((d) => d.id === Number(rawId)) : undefined;
  },

  /** E11 rule 2: the workbook holding a (normalised) slug; the latest one should there ever be more. */
  slugHolder(workbooks: Item[], slug: string): Item | undefined {
    return workbooks.filter((w) => w.slug === slug).at(-1);
  },

  /** E11 rule 5: the holder the create/update decision is taken on: a fresh read, like the one at apply time. */
  decisionHolder(store: Store, deploymentId: number, slug: string): Item | undefined {
    return this.slugHolder([...store.items.values()].filter((i) => i.type === "WORKBOOK" && i.deploymentId === deploymentId), slug);
  },

  /** E11 rule 2: only the fields sent change (`sent.meta` is already merged). */
  upsertFields(current: UpsertFields, sent: Partial<UpsertFields>): UpsertFields {
    return { name: sent.name ?? current.name, meta: sent.meta ?? current.meta, folderId: sent.folderId === undefined ? current.folderId : sent.folderId };
  },

  /** E11 rule 2 and Resources / DashboardWidget: what makes a sent `meta.dashboardDraft` invalid. */
  dashboardDraftProblem(draft: unknown): string | undefined {
    return draftProblem(draft, [...WIDGET_TYPES, LEGACY_TABS]);
  },

  /** Resources / DashboardWidget: a sent TABS_CONTAINER is stored as a tabbed CONTAINER. */
  convertDashboardDraft(draft: unknown): unknown {
    return convertLegacyWidgets(draft);
  },

  /**
   * E11 rule 4: update needs edit access to the workbook, and with folderId manage access plus
   * edit access to the destination; create needs AI BI User and edit access to the destination.
   * `workbook` is null on create, `destination` null when no folderId is sent.
   */
  upsertAllowed(o: { aiBiUser: boolean; workbook: Access | null; destination: Access | null }): boolean {
    const destinationOk = o.destination === null || atLeast(o.destination, "edit");
    if (o.workbook === null) return o.aiBiUser && destinationOk;
    return atLeast(o.workbook, "edit") && (o.destination === null || (atLeast(o.workbook, "manage") && destinationOk));
  },

  /**
   * E11: what a create by slug needs beyond the slug. Required-ness of name, folderId and meta is
   * not shown: this reference names the workbook after its slug; a server may require a name.
   */
  upsertCreateProblem(_sent: { name?: string; folderId?: number | null; meta?: Record<string, unknown> }): string | undefined {
    return undefined;
  },

  /** E11 rule 5: another writer created or deleted the slug's workbook between decide and apply. */
  upsertBranchChanged(decidedId: number | undefined, currentId: number | undefined): boolean {
    return decidedId !== currentId;
  },

  /** E11 rule 5; Errors 2. */
  upsertConflictStatus(): number {
    return 409;
  },

  /** E11 rule 5: a request answered 409 is not applied, not even to the workbook that holds the slug now. */
  upsertConflictApplies(): boolean {
    return false;
  },

  /** E11 rule 3: updatedAt moves only when the upsert changed something. */
  upsertTouches(changed: boolean): boolean {
    return changed;
  },

  /** E2 type and E8 folderId: a list's filter holds on every page it serves, whatever its after or offset. */
  filtersPage(_query: URLSearchParams): boolean {
    return true;
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

  /** Authentication 4: exporting the audit log takes the AuditLogManage permission. */
  mayExportAuditLog(user: User): boolean {
    return user.permissions.has("AuditLogManage");
  },

  /** E7: start and end are ISO 8601 dates; a date-time counts by its date. */
  isAuditDate(raw: string): boolean {
    const m = /^(\d{4})-(\d{2})-(\d{2})(T.+)?$/.exec(raw);
    if (!m || (m[4] && Number.isNaN(Date.parse(raw)))) return false;
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
  },

  /** E7 filters, all given ones at once: event name exact, email in any case, whole days, search anywhere in the row in any case. */
  auditRowMatches(e: AuditEvent, f: { eventName?: string; userEmail?: string; startDay?: string; endDay?: string; search?: string }): boolean {
    const day = e.timestamp.slice(0, 10);
    return (
      (f.eventName === undefined || e.eventName === f.eventName) &&
      (f.userEmail === undefined || e.userEmail.toLowerCase() === f.userEmail.toLowerCase()) &&
      (f.startDay === undefined || day >= f.startDay) &&
      (f.endDay === undefined || day <= f.endDay) &&
      (f.search === undefined || Object.values(e).join("\n").toLowerCase().includes(f.search.toLowerCase()))
    );
  },

  /** E7: the CSV cells of one event, one per column of the header. */
  /** E7: the export's columns, header text and field (not shown in the spec; published docs: what the product's audit view shows). */
  auditColumns(): [string, keyof AuditEvent][] {
    return [
      ["Timestamp", "timestamp"],
      ["User email", "userEmail"],
      ["Event name", "eventName"],
      ["Deployment", "deploymentName"],
      ["IP address", "ipAddress"],
      ["Details", "details"],
    ];
  },

  auditRowCells(e: AuditEvent, fields: (keyof AuditEvent)[]): string[] {
    return fields.map((f) => e[f]);
  },

  /** E7: a CSV file, streamed as an attachment. */
  auditExportHeaders(filename: string): Record<string, string> {
    return { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${filename}"` };
  },

  /** E3: security_context is required, and a JSON object (not an array, not null). */
  validSecurityContext(value: unknown): boolean {
    return typeof value === "object" && value !== null && !Array.isArray(value);
  },

  /** E3: expires_in, when sent, is a number of seconds above 0; the answer says what is wrong. */
  expiresInProblem(value: unknown): string | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value)) return "expires_in must be a number of seconds";
    return value > 0 ? undefined : "expires_in must be greater than 0";
  },

  /** E3: a metadata token carries the security context it is scoped by, and its lifetime. */
  tokenClaims(securityContext: Record<string, unknown>, issuedAt: number, lifetime: number): Record<string, unknown> {
    return { securityContext, iat: issuedAt, exp: issuedAt + lifetime };
  },

  /** E4: only a shared branch (not a personal one, not production) may have an always-on staging environment. */
  stagingAllowed(branch: DeploymentRecord["branches"][number]): boolean {
    return branch.kind === "shared";
  },

  /** E4 and the States table: the flag becomes what the request asks, whatever it was. */
  nextStagingFlag(_current: boolean, requested: boolean): boolean {
    return requested;
  },

  /** E4: branchId is the id the branches list shows. */
  branchWithId(branches: DeploymentRecord["branches"], id: number): DeploymentRecord["branches"][number] | undefined {
    return branches.find((b) => b.id === id);
  },

  /** E4: a body naming neither branchName nor branchId names no branch; none is implied. */
  branchWhenUnnamed(_dep: DeploymentRecord): DeploymentRecord["branches"][number] | undefined {
    return undefined;
  },

  /** E4 (published docs: a branch the deployment does not have is a 404). */
  unknownBranchStatus(): number {
    return 404;
  },

  /** E6 rule 2: releaseChannel alone moves to the entry that channel marks latest. */
  channelMoveTarget<E extends { releaseChannel: string; isLatestInChannel: boolean }>(channel: string, entries: E[]): E | undefined {
    return entries.find((e) => e.releaseChannel === channel && e.isLatestInChannel);
  },

  /** E6: a partial merge; omitted fields stay and templateVariables merge key by key. */
  mergeSettings(stored: DeploymentRecord["settings"], patch: Partial<DeploymentRecord["settings"]>): DeploymentRecord["settings"] {
    return { ...stored, ...patch, templateVariables: { ...stored.templateVariables, ...patch.templateVariables } };
  },

  /** E6 rule 3: the image is resolved from the version; a body cannot set it. */
  imageSettable(): boolean {
    return false;
  },
};

export type Behaviour = typeof cleanBehaviour;

/** What an E11 upsert may change on a workbook. */
export interface UpsertFields {
  name: string;
  meta: Record<string, unknown>;
  folderId: number | null;
}

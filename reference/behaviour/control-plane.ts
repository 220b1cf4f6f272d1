import type { AuditEvent, DeploymentRecord, User } from "../store.js";

/** The clean decisions of the control plane: E7 audit export, E3 tokens, E4 staging, E6 deployment update (reference/behaviour.ts merges them). */
export const controlPlaneBehaviour = {
  /**
   * Facts, Authentication (403 for a key scoped to other deployments): whether the caller's key
   * reaches deployment `id` (`path`, the request's, is for faults: the same on both prefixes here).
   */
  reachesDeployment(user: User, id: number, path?: string): boolean {
    return !user.deployments || user.deployments.has(id);
  },

  /** E1: the deployments accessible to the caller. */
  listedDeployments(user: User, all: readonly DeploymentRecord[]): DeploymentRecord[] {
    return all.filter((d) => controlPlaneBehaviour.reachesDeployment(user, d.id));
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

  /** E7: the CSV cells of one event, one per column of the header. */
  auditRowCells(e: AuditEvent, fields: (keyof AuditEvent)[]): string[] {
    return fields.map((f) => e[f]);
  },

  /** E7 (a CSV file), RFC 4180: a cell holding a quote, comma or line break is quoted, its quotes doubled. */
  csvCell(cell: string): string {
    return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
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

  /** E4: branchId is the id the branches list shows. */
  branchWithId(branches: DeploymentRecord["branches"], id: number): DeploymentRecord["branches"][number] | undefined {
    return branches.find((b) => b.id === id);
  },

  /** E6 rule 2: releaseChannel alone moves to the entry that channel marks latest. */
  channelMoveTarget<E extends { releaseChannel: string; isLatestInChannel: boolean }>(channel: string, entries: E[]): E | undefined {
    return entries.find((e) => e.releaseChannel === channel && e.isLatestInChannel);
  },

  /** E6: a partial merge; omitted fields stay and templateVariables merge key by key. */
  mergeSettings(stored: DeploymentRecord["settings"], patch: Partial<DeploymentRecord["settings"]>): DeploymentRecord["settings"] {
    return { ...stored, ...patch, templateVariables: { ...stored.templateVariables, ...patch.templateVariables } };
  },
};

// E7 audit log export as a streamed CSV attachment.
import { requireApiKey } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { csvRow } from "./csv.js";
import { bad, forbidden, qDate } from "./http.js";
import type { Reply } from "./http.js";
import { isSecretName } from "./store.js";
import type { AuditEvent } from "./store.js";

export const AUDIT_COLUMNS = ["Event", "Timestamp", "User Email", "Deployment", "IP Address", "Attributes"];
export const AUDIT_FEATURE_ENABLED = true;

function attrs(e: AuditEvent): string {
  return Object.entries(e.attributes)
    .map(([k, v]) => `${k}=${isSecretName(k) ? "[HIDDEN]" : v}`)
    .join("; ");
}

function exportAudit(c: Call): Reply {
  requireApiKey(c.p);
  if (!AUDIT_FEATURE_ENABLED) throw forbidden("the audit log feature is not enabled for this tenant");
  if (!c.p.user.permissions.includes("AuditLogManage")) throw forbidden("exporting the audit log needs the AuditLogManage permission");
  const start = qDate(c.q, "start");
  const endRaw = c.q.get("end");
  let end = qDate(c.q, "end");
  if (end && endRaw !== null && endRaw.length === 10) end = new Date(end.getTime() + 86400000 - 1);
  if (start && end && start.getTime() > end.getTime()) throw bad("start must not be after end");
  const search = (c.q.get("search") ?? "").toLowerCase();
  const eventName = c.q.get("eventName");
  const userEmail = c.q.get("userEmail");
  const depName = (id: number | undefined): string => (id !== undefined ? (c.store.deployments.get(id)?.name ?? String(id)) : "");
  const rows = c.store.audit
    .filter((e) => !start || Date.parse(e.at) >= start.getTime())
    .filter((e) => !end || Date.parse(e.at) <= end.getTime())
    .filter((e) => !eventName || e.eventName.toLowerCase() === eventName.toLowerCase())
    .filter((e) => !userEmail || e.userEmail.toLowerCase() === userEmail.toLowerCase())
    .filter((e) => !search || [e.eventName, e.userEmail, depName(e.deploymentId), attrs(e)].join(" ").toLowerCase().includes(search))
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.id - a.id));
  const stamp = new Date().toISOString().slice(0, 10);
  return {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${stamp}.csv"`,
    },
    stream: async (res) => {
      res.write(csvRow(AUDIT_COLUMNS));
      for (const e of rows) {
        res.write(csvRow([e.eventName, e.at, e.userEmail, depName(e.deploymentId), e.ip, attrs(e)]));
        await new Promise<void>((r) => setImmediate(r));
      }
      res.end();
    },
  };
}

export function registerAudit(r: AppRouter): void {
  r.add("GET", "/api/v1/audit-logs/export", exportAudit);
}

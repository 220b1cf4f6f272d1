import type { ServerResponse } from "node:http";
import { type Ctx, HttpError, isoNoOffset } from "./http.js";
import type { Store } from "./store.js";

function parseDay(v: string | null, name: string): number | null {
  if (v === null || v === "") return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.exec(v);
  const t = m ? Date.parse(m[4] ? (m[5] ? v : v + "Z") : `${m[1]}-${m[2]}-${m[3]}T00:00:00Z`) : NaN;
  if (Number.isNaN(t)) throw new HttpError(400, `${name} must be an ISO 8601 date`, {}, "cp");
  return t;
}

const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export function exportAudit(s: Store, ctx: Ctx, res: ServerResponse): void {
  const q = ctx.query;
  const start = parseDay(q.get("start"), "start");
  let end = parseDay(q.get("end"), "end");
  if (end !== null && /^\d{4}-\d{2}-\d{2}$/.test(q.get("end")!)) end += 86_400_000 - 1;
  if (start !== null && end !== null && start > end) throw new HttpError(400, "start must not be after end", {}, "cp");
  const search = (q.get("search") ?? "").toLowerCase();
  const ev = q.get("eventName");
  const user = q.get("userEmail");
  const rows = s.audit
    .filter((r) => (start === null || r.at.getTime() >= start) && (end === null || r.at.getTime() <= end))
    .filter((r) => !ev || r.event === ev)
    .filter((r) => !user || r.email.toLowerCase() === user.toLowerCase())
    .filter((r) => !search || JSON.stringify([r.event, r.email, r.deployment, r.ip, r.attrs]).toLowerCase().includes(search))
    .sort((a, b) => b.at.getTime() - a.at.getTime());
  const lines = [["Event", "User Email", "Timestamp", "Deployment", "IP Address", "Attributes"].join(",")];
  for (const r of rows) lines.push([r.event, r.email, isoNoOffset(r.at), r.deployment, r.ip, JSON.stringify(r.attrs)].map(cell).join(","));
  const text = "\uFEFF" + lines.join("\r\n") + "\r\n";
  res.writeHead(200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`,
    "transfer-encoding": "chunked",
  });
  const buf = Buffer.from(text, "utf8");
  for (let i = 0; i < buf.length; i += 4096) res.write(buf.subarray(i, i + 4096));
  res.end();
}

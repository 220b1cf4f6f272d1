import { shownPointer } from "../served/drift.js";
import type { Report } from "../run/report.js";

export function escapeHtml(s: unknown): string {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
const e = escapeHtml;

/** The report's sections about the served document: each operation's statuses and checks, E14 served beyond it, drift from the spec. */
export function documentHtml(report: Report): string {
  const c = report.operations;
  if (!c) return "";
  const parts = [`<details id="operations"><summary><h2>Operations of the served document</h2></summary>`];
  if (c.problem) parts.push(`<p>No coverage: ${e(c.problem)}</p>`);
  else {
    parts.push(
      `<p id="operation-coverage">${c.exercised} of ${c.documented} operations exercised (${c.percent}%)${c.source ? `; the document was ${e(c.source)}` : ""}.</p>`,
    );
    parts.push(`<table class="coverage operations"><thead><tr><th>operation</th><th>spec</th><th>exercised</th><th>statuses</th><th>checks</th></tr></thead><tbody>
${c.operations.map((o) => `<tr${o.exercised ? "" : ' class="untestable"'}><td><code>${e(o.method)} ${e(o.path)}</code></td><td>${e(o.spec ?? "")}</td><td>${o.exercised ? "yes" : "<b>no</b>"}</td><td>${e(o.statuses.join(", "))}</td><td>${e(o.checks.join(" "))}</td></tr>`).join("\n")}
</tbody></table>`);
    const beyond = c.undocumented.filter((u) => u.verdict !== "not served");
    if (beyond.length)
      parts.push(
        `<h3>E14 operations not in the document</h3><ul>${beyond.map((u) => `<li><code>${e(u.method)} ${e(u.path)}</code>: ${e(u.verdict)} (${e(u.status ?? "no answer")})</li>`).join("")}</ul>`,
      );
  }
  parts.push("</details>");
  const d = report.drift;
  if (d) {
    parts.push(
      `<details id="drift"><summary><h2>Drift from the spec (E1–E13)</h2></summary><p>${d.findings.filter((f) => f.breaking).length} breaking and ${d.findings.filter((f) => !f.breaking).length} other difference(s); ${d.beyondSpec.length} operation(s) beyond the spec.</p>`,
    );
    if (d.findings.length)
      parts.push(
        `<table class="coverage drift"><thead><tr><th></th><th>kind</th><th>difference</th><th>contract</th><th>served</th></tr></thead><tbody>${d.findings.map((f) => `<tr><td>${f.breaking ? "<b>breaking</b>" : "other"}</td><td>${e(f.kind)}</td><td>${e(f.message)}</td><td><code>${e(shownPointer(f.contract))}</code></td><td><code>${e(f.served ? shownPointer(f.served) : "")}</code></td></tr>`).join("\n")}</tbody></table>`,
      );
    parts.push("</details>");
  }
  return parts.join("\n");
}

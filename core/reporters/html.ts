/**
 * One self-contained HTML page rendered from the report.json object (the single source of truth):
 * summary, a groups x status matrix, every check (a failure expands to what it expected and got,
 * its exchanges, curl line and property counterexample), the spec coverage, filter and search.
 * Every string from the server or the report is escaped; a Content-Security-Policy allows no
 * network and no script but the page's own.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { citedRules, coverage } from "../served/coverage.js";
import { type GateOptions, judgingOf, knownReason, shownAs, verdict } from "../run/gate.js";
import type { Exchange } from "../transport/http.js";
import type { CheckResult, Status } from "../run/result.js";
import { shownLabel, summarise, verifiedLine } from "../run/verdict.js";
import { SCRIPT, STYLE } from "./html-assets.js";
import { documentHtml, escapeHtml } from "./html-document.js";
import { type Report, rerunCommand } from "../run/report.js";
import { findingsHeading, findingsNote, findingsTitle, type ReportSections, reportSections, type SkipGroup } from "./sections.js";
import { leftoversSaid } from "../ledger/leftovers.js";

/** The columns of the tiles and the matrix: the words every output counts by (core/run/verdict.ts shownLabel). */
const COLUMNS: { key: keyof Report["summary"]; word: string; css: Status | "finding" }[] = [
  { key: "passed", word: "passed", css: "passed" },
  { key: "failed", word: "failed", css: "failed" },
  { key: "findings", word: "SHOULD findings", css: "finding" },
  { key: "intermittent", word: "intermittent", css: "finding" },
  { key: "known", word: "known", css: "finding" },
  { key: "blocked", word: "blocked", css: "blocked" },
  { key: "skipped", word: "skipped", css: "skipped" },
  { key: "errored", word: "errored", css: "errored" },
];

export { escapeHtml };
const e = escapeHtml;

export function writeHtml(report: Report, file: string, gate: GateOptions): void {
  writeFileSync(file, reportHtml(report, gate));
}

export function reportHtml(report: Report, gate: GateOptions): string {
  const scriptHash = createHash("sha256").update(SCRIPT).digest("base64");
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${scriptHash}'; form-action 'none'; base-uri 'none'`;
  const passed = report.gate ? report.gate.exitCode === 0 : report.summary.failed + report.summary.errored === 0;
  const parts = reportSections(report, gate);
  // What the sections above tell in full, the list below only names: each failure's story once.
  const toldAbove = new Set([...parts.failures, ...parts.errors].map((r) => r.id));
  // A failed run's list opens on what did not pass and is not a skip (the skips are folded above); a passed one on everything.
  const initial = passed ? "all" : "problems";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report: ${e(report.target.baseUrl)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Conformance report <span class="verdict ${passed ? "ok" : "bad"}" id="verdict">${passed ? "passed" : "FAILED"}</span> <span class="verified" id="verified">${e(verifiedLine(report.summary.mustRules))}</span></h1>
<div class="meta">${e(report.target.baseUrl)} · seed ${e(report.seed)} (replay with <code>--seed ${e(report.seed)}</code>) · ${e(report.startedAt)} · ${e(report.durationMs)} ms · ${e(report.tool.name)} ${e(report.tool.version)}${gate.strict ? " · --strict" : ""}${report.writes ? " · writes allowed" : " · read-only"}${report.interrupted ? " · <b>interrupted</b>" : ""}</div>
${failuresHtml("failures", "Failures", parts.failures, gate, report)}
${failuresHtml("errors", "Errored: no verdict", parts.errors, gate, report)}
${rootCausesHtml(report, parts)}
${summaryHtml(report, gate)}
${foldedChecksHtml("findings", findingsTitle(parts), parts.findings, gate, report, findingsHeading(parts))}
${foldedChecksHtml("known", "Known failures (baseline)", parts.known, gate, report)}
${baselineHtml(report)}
${leftoversHtml(parts.leftovers)}
${skipsHtml(parts.skips)}
<h2>Checks</h2>
<div class="controls">
  <span>Show:</span>
  ${["all", "problems", "failed", "finding", "blocked", "skipped", "errored"].map((s) => `<label><input type="radio" name="status" value="${s}"${s === initial ? " checked" : ""}> ${s === "problems" ? "all but passed and skipped" : s === "finding" ? "findings" : s}</label>`).join("\n  ")}
  <input type="search" id="search" placeholder="search by id or rule (e.g. E11 rule 5)" aria-label="search by id or rule">
  <span><b id="shown">${report.results.length}</b> shown</span>
</div>
<div id="checks">
${report.results.map((r) => checkHtml(r, gate, toldAbove.has(r.id), "check", report)).join("\n")}
</div>
<h2>Groups × status</h2>
${matrixHtml(report, gate)}
${coverageHtml(report)}
${documentHtml(report)}
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** Each failure open, first on the page: the rule, the message, expected and got, the curl line; the exchanges folded under it. */
function failuresHtml(id: string, heading: string, results: CheckResult[], gate: GateOptions, report: Report): string {
  if (!results.length) return "";
  const items = results.map(
    (r) =>
      `<article class="failure ${r.status}" id="${id}-${e(r.id)}"><h3><span class="badge ${r.status}">${r.level}</span> <a href="#check-${e(r.id)}"><code>${e(r.id)}</code></a> <span class="spec">${e(r.spec)}</span></h3><div class="body">${detailHtml(r, gate, report)}</div></article>`,
  );
  return `<section id="${id}"><h2>${e(heading)}: ${results.length}</h2>${items.join("\n")}</section>`;
}

/** Checks told in full but folded: SHOULD findings, known failures; `count` says more than the list where others are told elsewhere. */
function foldedChecksHtml(id: string, heading: string, results: CheckResult[], gate: GateOptions, report: Report, count = String(results.length)): string {
  if (!results.length) return "";
  return `<section id="${id}"><h2>${e(heading)}: ${e(count)}</h2>${results.map((r) => checkHtml(r, gate, false, "told", report)).join("\n")}</section>`;
}

/** The skips, folded, one group per reason the run's setup gives. */
function skipsHtml(groups: SkipGroup[]): string {
  if (!groups.length) return "";
  const total = groups.reduce((n, g) => n + g.ids.length, 0);
  const items = groups.map(
    (g) => `<li><b>${g.ids.length}</b> ${e(g.reason)}<br><span class="ids">${g.ids.map((id) => `<code>${e(id)}</code>`).join(" ")}</span></li>`,
  );
  return `<details id="skips"><summary><h2>Skipped: ${total} check${total === 1 ? "" : "s"}, ${groups.length} reason${groups.length === 1 ? "" : "s"}</h2></summary><ul>${items.join("")}</ul></details>`;
}

function summaryHtml(report: Report, gate: GateOptions): string {
  // Counted as the gate judged them, as every output counts (a report written before the words were the gate's has no findings count).
  const s = summarise(report.results, judgingOf(gate));
  const shown = COLUMNS.filter((c) => c.key === "passed" || c.key === "failed" || s[c.key]);
  const tiles = [["total", "total", s.total], ...shown.map((c) => [c.key, c.word, s[c.key]])] as [string, string, number][];
  const must = `<div class="tile"><b id="must-verified">${s.mustRules.verified}/${s.mustRules.total}</b>MUST rules verified</div>`;
  return `<div class="tiles">${tiles.map(([k, word, n]) => `<div class="tile"><b id="count-${k}">${n}</b>${e(word)}</div>`).join("")}${must}</div>`;
}

const checkLink = (id: string) => `<a href="#check-${e(id)}"><code>${e(id)}</code></a>`;

/** Each root cause once, with the checks it blocks: one defect reads as one. */
function rootCausesHtml(report: Report, parts: Pick<ReportSections, "blockedFindings">): string {
  if (!report.rootCauses.length) return "";
  const items = report.rootCauses.map(({ rootCause, blocked }) => {
    const root = /^[\w.-]+(?=: )/.exec(rootCause)?.[0];
    const cause = root ? `${checkLink(root)}${e(rootCause.slice(root.length))}` : e(rootCause);
    return `<li class="root-cause">${cause}<br>blocks ${blocked.length}${e(findingsNote(blocked, parts.blockedFindings))}: ${blocked.map(checkLink).join(", ")}</li>`;
  });
  return `<h2>Root causes</h2><ul id="root-causes">${items.join("")}</ul>`;
}

function baselineHtml(report: Report): string {
  const b = report.gate?.baseline;
  if (!b) return "";
  const list = (ids: string[]) => (ids.length ? ids.map((id) => `<code>${e(id)}</code>`).join(", ") : "none");
  const known = b.known.length
    ? `<ul>${b.known.map((id) => `<li>${checkLink(id)}: <span class="finding">KNOWN</span> ${e(b.reasons?.[id] ?? "")}</li>`).join("")}</ul>`
    : "none";
  return `<h2>Baseline${b.file ? ` (${e(b.file)})` : ""}</h2><dl class="body"><dt>known failures</dt><dd>${known}</dd><dt>new failures</dt><dd>${list(b.new)}</dd><dt>fixed (remove from the baseline)</dt><dd>${list(b.fixed)}</dd></dl>`;
}

/** What the run could not remove or restore: each thing once, with how often it was reported, folded. */
function leftoversHtml(leftovers: ReportSections["leftovers"]): string {
  if (!leftovers.length) return "";
  const items = leftovers.map(({ what, times }) => `<li>${e(what)}${times > 1 ? ` <i>(${times} times)</i>` : ""}</li>`).join("");
  return `<details id="leftovers"><summary><h2>Left on the server: ${e(leftoversSaid(leftovers.map((l) => l.what)))}</h2></summary><ul>${items}</ul></details>`;
}

function matrixHtml(report: Report, gate: GateOptions): string {
  const groups = [...new Set(report.results.map((r) => r.group))];
  const row = (name: string, rs: CheckResult[]) => {
    const s = summarise(rs, judgingOf(gate));
    return `<tr><th>${e(name)}</th>${COLUMNS.map((c) => {
      const n = s[c.key] as number;
      return `<td class="n ${c.css}${n ? " nz" : ""}">${n || ""}</td>`;
    }).join("")}<td class="n">${rs.length}</td></tr>`;
  };
  return `<table class="matrix"><thead><tr><th>group</th>${COLUMNS.map((c) => `<th>${e(c.word)}</th>`).join("")}<th>total</th></tr></thead><tbody>${groups
    .map((g) =>
      row(
        g,
        report.results.filter((r) => r.group === g),
      ),
    )
    .join("")}${row("all", report.results)}</tbody></table>`;
}

/**
 * One row of the list; its details open on a click. A check told in full above (`told`) links
 * there; a pass or skip has nothing more than its row says: no body, to keep the page small.
 */
function checkHtml(r: CheckResult, gate: GateOptions, toldAbove: boolean, idPrefix: string, report: Report): string {
  const v = verdict(r, gate);
  const note = v === "finding" || v === "known" ? ` <span class="finding${v === "known" ? " known" : ""}">${e(shownAs(r, gate))}</span>` : "";
  // A skip's reason is told once, in its group above; a pass needs no words.
  const message = r.message && r.status !== "skipped" ? ` — ${e(r.message.split("\n")[0])}` : "";
  const word = shownLabel(r, judgingOf(gate));
  const css = word === "SHOULD finding" || word === "known" || word === "intermittent" ? "finding" : r.status;
  const summary = `<summary><span class="badge ${css}">${e(word)}</span><span>${e(r.level)}</span><span class="id">${e(r.id)}</span><span class="spec">${e(r.spec)}</span><span class="msg">${e(r.title)}${message}${note}</span></summary>`;
  const body = toldAbove
    ? `<div class="body"><a href="#${r.status === "errored" ? "errors" : "failures"}-${e(r.id)}">told in full above</a></div>`
    : r.status === "passed" || r.status === "skipped"
      ? ""
      : `<div class="body">${detailHtml(r, gate, report)}</div>`;
  const listed = idPrefix === "check";
  const cited = citedRules(r.spec).filter((c) => c !== r.spec);
  return `<details class="${listed ? "check" : "told"}" id="${idPrefix}-${e(r.id)}"${listed ? ` data-status="${css === "finding" ? "finding" : r.status}" data-id="${e(r.id)}" data-spec="${e([r.spec, ...cited].join(" | "))}"` : ""}>${summary}${body}</details>`;
}

function detailHtml(r: CheckResult, gate: GateOptions, report: Report): string {
  const facts: [string, string | undefined][] = [
    ["rule", `${r.level} ${r.spec}: ${r.title}`],
    ["message", r.message || undefined],
    ["expected", r.expected],
    ["got", r.got],
    ["blocked by", r.blockedBy],
    ["known failure", knownReason(r, gate)],
    ["recurrence", r.recurrence],
    ["skip kind", r.skipKind],
    ["duration", `${r.durationMs} ms${r.requests !== undefined ? `, ${r.requests} requests` : ""}`],
  ];
  const parts = [
    `<dl>${facts
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `<dt>${e(k)}</dt><dd>${k === "expected" || k === "got" || k === "message" ? `<pre class="${e(k)}">${e(v)}</pre>` : e(v)}</dd>`)
      .join("")}</dl>`,
  ];
  if (r.curl) parts.push(`<div>reproduce:</div><pre class="curl">${e(r.curl)}</pre>`);
  if (r.status !== "passed" && r.status !== "skipped") parts.push(`<div>re-run alone:</div><pre class="rerun">${e(rerunCommand(report, r))}</pre>`);
  if (r.property) {
    const p = r.property;
    parts.push(
      `<h3>Property</h3><dl><dt>seed</dt><dd>${e(p.seed)}</dd><dt>path</dt><dd><code>${e(p.path)}</code></dd><dt>runs</dt><dd>failed after ${e(p.runs)}</dd><dt>counterexample</dt><dd><pre class="counterexample">${e(p.counterexample)}</pre></dd></dl>`,
    );
    if (p.shrunkExchanges.length) parts.push(`<div>requests of the shrunk case:</div>${p.shrunkExchanges.map(exchangeHtml).join("")}`);
  }
  const exchanges = r.exchanges?.length ? r.exchanges : r.exchange ? [r.exchange] : [];
  if (exchanges.length)
    parts.push(`<details class="exchanges"><summary>Exchanges (last ${exchanges.length}, redacted)</summary>${exchanges.map(exchangeHtml).join("")}</details>`);
  return parts.join("\n");
}

function exchangeHtml(x: Exchange): string {
  const headers = (h: Record<string, string> | undefined) =>
    Object.entries(h ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n");
  return `<div class="exchange"><h4>${e(x.method)} ${e(x.url)} → ${e(x.status ?? x.error ?? "?")} (${e(x.durationMs)} ms)</h4>
<pre>${e(headers(x.requestHeaders))}${x.requestBody !== undefined ? `\n\n${e(x.requestBody)}` : ""}</pre>
<pre>${e(headers(x.responseHeaders))}${x.responseExcerpt !== undefined ? `\n\n${e(x.responseExcerpt)}` : ""}</pre>
<pre class="curl">${e(x.curl)}</pre></div>`;
}

/** Folded: a reference table, not what a reader of a failed run looks for first. */
function coverageHtml(report: Report): string {
  const rows = coverage(report.results);
  const byId = new Map(report.results.map((r) => [r.id, r]));
  const checks = (ids: { id: string }[]) => ids.map(({ id }) => `<a href="#check-${e(id)}" class="badge ${byId.get(id)!.status}">${e(id)}</a>`).join(" ");
  const testable = rows.filter((r) => !r.rule.notTestable);
  return `<details id="coverage"><summary><h2>Coverage of the spec</h2></summary><p>${testable.filter((r) => r.checks.length).length} of ${testable.length} testable rules were checked in this run; ${rows.length - testable.length} are not testable.</p>
<table class="coverage"><thead><tr><th>rule</th><th>what it says</th><th>checks of this run</th></tr></thead><tbody>
${rows.map((r) => `<tr${r.rule.notTestable ? ' class="untestable"' : ""}><td>${e(r.rule.id)}</td><td>${e(r.rule.text)}${r.rule.notTestable ? `<br><i>not testable: ${e(r.rule.notTestable)}</i>` : ""}</td><td>${r.checks.length ? checks(r.checks) : r.rule.notTestable ? "" : '<span class="rule-none">not checked in this run</span>'}</td></tr>`).join("\n")}
</tbody></table></details>`;
}

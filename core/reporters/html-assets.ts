/** The stylesheet and the script of the HTML report, inlined: the page loads nothing from anywhere. */

export const STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --blocked: #bc4c00; --skip: #9a6700; --err: #8250df; --muted: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 16px 24px; max-width: 1280px; color: #1f2328; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; }
.meta { color: var(--muted); margin-bottom: 12px; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 4px; color: #fff; font-weight: 600; }
.verdict.ok { background: var(--pass); } .verdict.bad { background: var(--fail); }
.tiles { display: flex; gap: 8px; flex-wrap: wrap; margin: 12px 0; }
.tile { border: 1px solid var(--line); border-radius: 6px; padding: 6px 14px; min-width: 90px; }
.tile b { display: block; font-size: 22px; }
table { border-collapse: collapse; max-width: 100%; } th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
/* Long JSON pointers, ids and URLs wrap inside their box: the page is never wider than the window. */
code, .ids, h4, .meta { overflow-wrap: anywhere; }
.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 4px; padding: 4px 12px; margin: 8px 0; }
.failure.errored { border-left-color: var(--err); } .failure h3 { margin: 4px 0; font-size: 14px; } .failure .body { padding: 4px 0; }
details > summary > h2 { display: inline; } details#skips li { margin-bottom: 6px; } details.told { border-bottom: 1px solid var(--line); }
table.matrix td.n { text-align: right; min-width: 56px; font-variant-numeric: tabular-nums; }
td.passed.nz { background: #dafbe1; } td.failed.nz { background: #ffebe9; } td.blocked.nz { background: #fff1e5; }
td.skipped.nz { background: #fff8c5; } td.errored.nz { background: #fbefff; }
.controls { position: sticky; top: 0; background: #fff; padding: 8px 0; border-bottom: 1px solid var(--line); display: flex; gap: 12px; align-items: center; flex-wrap: wrap; z-index: 1; }
.controls input[type=search] { width: 320px; padding: 4px 8px; }
details.check { border-bottom: 1px solid var(--line); }
details.check > summary, details.told > summary { cursor: pointer; padding: 4px 0; list-style: none; display: grid; grid-template-columns: 72px 64px minmax(220px, 2fr) minmax(140px, 1fr) 3fr; gap: 8px; }
details.told > summary::-webkit-details-marker, details.check > summary > span, details.told > summary > span { min-width: 0; overflow-wrap: anywhere; }
details.check > summary::-webkit-details-marker { display: none; }
details.check[open] > summary { background: #f6f8fa; }
.badge { font-weight: 600; font-size: 12px; padding: 1px 6px; border-radius: 3px; color: #fff; text-align: center; align-self: start; }
.badge.finding { background: var(--skip); color: #fff; } td.finding.nz { background: #fff8c5; }
.verified { font-size: 0.55em; font-weight: normal; color: #57606a; }
.badge.passed { background: var(--pass); } .badge.failed { background: var(--fail); } .badge.blocked { background: var(--blocked); }
.badge.skipped { background: var(--skip); } .badge.errored { background: var(--err); }
.id { font-family: ui-monospace, monospace; word-break: break-all; } .spec, .msg { color: var(--muted); } .msg { overflow-wrap: anywhere; }
.body { padding: 8px 0 16px 24px; }
.body dl { display: grid; grid-template-columns: 140px 1fr; gap: 4px 12px; margin: 0 0 8px; }
.body dt { color: var(--muted); } .body dd { margin: 0; }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: 6px 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; max-height: 360px; overflow: auto; }
.exchange h4 { margin: 8px 0 2px; font-size: 13px; font-family: ui-monospace, monospace; }
.finding { color: var(--skip); font-weight: 600; }
.root-cause { margin-bottom: 6px; } details > summary { cursor: pointer; }
.rule-none { color: var(--fail); } .untestable { color: var(--muted); }
`;

/** Filter by status ("problems": failed, blocked, errored) and search by id or rule; shows how many checks are visible. */
export const SCRIPT = `
(function () {
  var checks = Array.prototype.slice.call(document.querySelectorAll("details.check"));
  var search = document.getElementById("search");
  var shown = document.getElementById("shown");
  function apply() {
    var status = document.querySelector("input[name=status]:checked").value;
    var q = search.value.trim().toLowerCase();
    var n = 0;
    checks.forEach(function (d) {
      var okStatus = status === "all" || (status === "problems" ? d.dataset.status !== "passed" && d.dataset.status !== "skipped" : d.dataset.status === status);
      var okText = !q || d.dataset.id.toLowerCase().indexOf(q) >= 0 || d.dataset.spec.toLowerCase().indexOf(q) >= 0;
      d.hidden = !(okStatus && okText);
      if (!d.hidden) n++;
    });
    shown.textContent = String(n);
  }
  document.querySelectorAll("input[name=status]").forEach(function (r) { r.addEventListener("change", apply); });
  search.addEventListener("input", apply);
  apply();
})();
`;

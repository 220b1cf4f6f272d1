import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeHtml, reportHtml } from "../core/reporters/html.js";
import type { Report } from "../core/run/report.js";
import { rootCauses, summarise } from "../core/run/verdict.js";
import { faultyRun } from "./report-run.js";

const CHROMIUM = "/usr/bin/chromium";
/** The browser tests drive Debian's Chromium; without it they are skipped (nothing is installed here), and .ci/run installs it. */
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM)
  console.warn(
    `html-report: browser tests skipped: no Chromium at ${CHROMIUM}; to run them: apt-get install -y chromium && npx vitest run test/html-report.test.ts (.ci/run does both)`,
  );
/** The window the page must fit: a laptop's browser. */
const WINDOW_WIDTH = 1280;
/**
 * The most report.html of this run may weigh. It holds every check's row, the failures whole with
 * their exchanges, and the coverage tables; measured at 118 KB when set (a full read-only run of
 * the catalogue: 274 KB), 178 KB in the eighteenth round (296 checks: the run's groups hold seven
 * more, and minimums-not-enforced gives a third SHOULD finding with its exchanges).
 */
const HTML_BUDGET_BYTES = 192 * 1024;
let run: Awaited<ReturnType<typeof faultyRun>>;
let report: Report;
let browser: BrowserContext;
const requested: string[] = [];

beforeAll(async () => {
  run = await faultyRun(["json", "html"]);
  report = run.report();
});

describe("HTML report file", () => {
  it(`stays within its byte budget (${HTML_BUDGET_BYTES / 1024} KiB)`, () => {
    expect(statSync(join(run.dir, "reports", "report.html")).size).toBeLessThanOrEqual(HTML_BUDGET_BYTES);
  });

  it("opens with the failures, each with its rule, expected and got and the curl line; the skips folded, grouped by reason", () => {
    const html = run.read("report.html");
    const body = html.slice(html.indexOf("<body>"));
    const failures = report.results.filter((r) => r.status === "failed" && r.level === "MUST");
    const firstSection = body.indexOf("<section");
    expect(body.indexOf('<section id="failures">')).toBe(firstSection);
    for (const f of failures) {
      const at = body.indexOf(`id="failures-${f.id}"`);
      expect(at, f.id).toBeGreaterThan(0);
      expect(at, `${f.id}: before the list of checks`).toBeLessThan(body.indexOf('id="checks"'));
      const article = body.slice(at, body.indexOf("</article>", at));
      expect(article).toContain(escapeHtml(f.spec));
      expect(article).toContain(`<pre class="expected">${escapeHtml(f.expected)}</pre>`);
      expect(article).toContain(`<pre class="got">${escapeHtml(f.got)}</pre>`);
      expect(article).toContain('<pre class="curl">');
    }
    expect(body.indexOf('id="findings"')).toBeGreaterThan(body.indexOf('id="failures"'));
    expect(body).toMatch(/<details id="skips"><summary><h2>Skipped: \d+ checks?, \d+ reasons?<\/h2>/);
  });

  it("holds no token", () => {
    const html = run.read("report.html");
    for (const secret of run.secrets) expect(html).not.toContain(secret);
  });
});

describe.skipIf(!HAS_CHROMIUM)("HTML report in headless Chromium", () => {
  beforeAll(async () => {
    browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "conformance-chromium-")), {
      executablePath: CHROMIUM,
      headless: true,
      offline: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
    // The page must need nothing but itself: every request other than the file is refused and recorded.
    await browser.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:")) return route.continue();
      requested.push(url);
      return route.abort();
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open() {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(pathToFileURL(join(run.dir, "reports", "report.html")).href);
    return { page, errors };
  }

  it("the run has failures, findings, skips and a property counterexample to show", () => {
    expect(report.summary.failed).toBeGreaterThanOrEqual(1);
    expect(report.summary.findings).toBeGreaterThanOrEqual(2);
    expect(report.summary.skipped).toBeGreaterThan(0);
    expect(report.results.some((r) => r.property?.shrunkExchanges.length)).toBe(true);
  });

  it("opens offline, asks for nothing on the network, runs its script without error, and its counts equal report.json's", async () => {
    const { page, errors } = await open();
    // Total, passed and failed always have a tile; any other count has one when it is not zero.
    for (const k of ["total", "passed", "failed", "findings", "blocked", "skipped", "errored"] as const)
      if (["total", "passed", "failed"].includes(k) || report.summary[k]) expect(Number(await page.textContent(`#count-${k}`)), k).toBe(report.summary[k]);
      else expect(await page.locator(`#count-${k}`).count(), k).toBe(0);
    expect(await page.locator("details.check").count()).toBe(report.results.length);
    // A failed run opens on what did not pass.
    expect(await page.isChecked("input[name=status][value=problems]")).toBe(true);
    expect(Number(await page.textContent("#shown"))).toBe(report.results.filter((r) => !["passed", "skipped"].includes(r.status)).length);
    expect(await page.locator("details.check:visible[data-status=passed]").count()).toBe(0);
    expect(await page.locator("details.check:visible[data-status=skipped]").count()).toBe(0);
    expect(await page.textContent("#must-verified")).toBe(`${report.summary.mustRules.verified}/${report.summary.mustRules.total}`);
    expect(requested).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it(`fits a ${WINDOW_WIDTH} px window with every section open (long pointers and bodies wrap inside their box), and the first thing on it is the MUST failure`, async () => {
    const { page } = await open();
    await page.setViewportSize({ width: WINDOW_WIDTH, height: 900 });
    const failure = report.results.find((r) => r.id === "pagination.cursor.any-page-size")!;
    const first = page.locator("#failures article").first();
    expect(await first.getAttribute("id")).toBe(`failures-${failure.id}`);
    expect(await first.evaluate((a) => a.getBoundingClientRect().top)).toBeLessThan(200);
    // The failure is told open, without a click: rule, expected and got, the curl line.
    expect(await first.locator("pre.expected").isVisible()).toBe(true);
    expect(await first.locator("pre.curl").first().isVisible()).toBe(true);
    if (process.env.CONFORMANCE_SCREENSHOT) await page.screenshot({ path: process.env.CONFORMANCE_SCREENSHOT, fullPage: false });
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => ((d as HTMLDetailsElement).open = true)));
    await page.check("input[name=status][value=all]");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WINDOW_WIDTH);
    await page.close();
  });

  it("a failure is told open at the top: expected and got, the exchanges, the curl line and the property's counterexample; its row in the list links there", async () => {
    const { page } = await open();
    const failure = report.results.find((r) => r.id === "pagination.cursor.any-page-size")!;
    const row = page.locator(`details[data-id="${failure.id}"]`);
    await row.locator("summary").click();
    expect(await row.locator(`a[href="#failures-${failure.id}"]`).isVisible()).toBe(true);
    const details = page.locator(`#failures-${failure.id.replace(/\./g, "\\.")}`);
    await details.locator("details.exchanges > summary").first().click();
    expect(await details.locator("pre.expected").textContent()).toBe(failure.expected);
    expect(await details.locator("pre.got").textContent()).toBe(failure.got);
    expect(await details.locator("pre.counterexample").textContent()).toBe(failure.property!.counterexample);
    expect(await details.locator(".exchange").count()).toBeGreaterThanOrEqual(failure.property!.shrunkExchanges.length + 1);
    expect(await details.locator("pre.curl").first().isVisible()).toBe(true);
    expect(await details.textContent()).toContain(`${failure.property!.seed}`);
    await page.close();
  });

  it("the filter shows only the chosen status, and the search finds by id and by rule", async () => {
    const { page } = await open();
    const visible = () => page.locator("details.check:visible").count();
    for (const status of ["failed", "skipped", "blocked"] as const) {
      await page.check(`input[name=status][value=${status}]`);
      expect(await visible(), status).toBe(report.summary[status]);
      expect(Number(await page.textContent("#shown"))).toBe(report.summary[status]);
    }
    await page.check("input[name=status][value=all]");
    await page.fill("#search", "cursor-walk");
    expect(await visible()).toBe(report.results.filter((r) => r.id.includes("cursor-walk")).length);
    await page.fill("#search", "Pagination styles 2");
    expect(await visible()).toBe(report.results.filter((r) => r.spec.includes("Pagination styles 2")).length);
    expect(await visible()).toBeGreaterThan(0);
    await page.close();
  });

  it("shows each root cause once with the checks it blocks (links), and the leftovers deduplicated and folded", async () => {
    const root = report.results.find((r) => r.status === "failed")!;
    const victims = report.results
      .filter((r) => r.status === "passed")
      .slice(0, 3)
      .map((r) => r.id);
    const cause = `${root.id}: GET /api/v1/x answered 500`;
    const results = report.results.map((r) =>
      victims.includes(r.id) ? { ...r, status: "blocked" as const, root: { check: root.id }, blockedBy: cause, message: `blocked by ${cause}` } : r,
    );
    const leftovers = ["workbook 7 in deployment 1", "workbook 7 in deployment 1", "folder 3 in deployment 1"];
    const variant: Report = { ...report, results, rootCauses: rootCauses(results), summary: summarise(results), leftovers };
    const file = join(run.dir, "reports", "root-causes.html");
    writeFileSync(file, reportHtml(variant, { strict: false }));
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    const items = page.locator("#root-causes li");
    expect(await items.count()).toBe(1);
    expect(await items.first().textContent()).toContain(`blocks 3: ${victims.join(", ")}`);
    expect(await items.first().locator("a").first().getAttribute("href")).toBe(`#check-${root.id}`);
    // The root causes come before the list of checks; the leftovers are folded, each once.
    expect(
      await page.evaluate(
        () => document.getElementById("root-causes")!.compareDocumentPosition(document.getElementById("checks")!) & Node.DOCUMENT_POSITION_FOLLOWING,
      ),
    ).toBeTruthy();
    expect(await page.locator("#leftovers").evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator("#leftovers li").allTextContents()).toEqual(["workbook 7 in deployment 1 (2 times)", "folder 3 in deployment 1"]);
    expect(await page.locator("#leftovers summary").textContent()).toBe("Left on the server: 2 things (2 other)");
    expect(Number(await page.textContent("#shown"))).toBe(results.filter((r) => !["passed", "skipped"].includes(r.status)).length);
    await page.close();
  });
});

describe("HTML report escaping", () => {
  it("server text cannot inject markup or script", () => {
    const evil = `<script>alert(1)</script><img src=x onerror="alert(2)">'"&`;
    const base = run.report();
    const hostile: Report = {
      ...base,
      target: { baseUrl: evil },
      results: [{ ...base.results[0], id: evil, spec: evil, title: evil, message: evil, status: "failed", expected: evil, got: evil }],
    };
    const html = reportHtml(hostile, { strict: false });
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain(escapeHtml(evil));
    // The only script is the page's own, allowed by its hash in the Content-Security-Policy.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;/);
  });
});

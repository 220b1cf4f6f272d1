import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeHtml, reportHtml } from "../core/reporters/html.js";
import type { Report } from "../core/reporters/report.js";
import { rootCauses, summarise } from "../core/verdict.js";
import { faultyRun } from "./report-run.js";

const CHROMIUM = "/usr/bin/chromium";
let run: Awaited<ReturnType<typeof faultyRun>>;
let report: Report;
let browser: BrowserContext;
const requested: string[] = [];

beforeAll(async () => {
  run = await faultyRun(["json", "html"]);
  report = run.report();
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
}, 120_000);
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

describe("HTML report in headless Chromium", () => {
  it("the run has failures, findings, skips and a property counterexample to show", () => {
    expect(report.summary.failed).toBeGreaterThanOrEqual(3);
    expect(report.summary.skipped).toBeGreaterThan(0);
    expect(report.results.some((r) => r.property?.shrunkExchanges.length)).toBe(true);
  });

  it("opens offline, asks for nothing on the network, runs its script without error, and its counts equal report.json's", async () => {
    const { page, errors } = await open();
    for (const k of ["total", "passed", "failed", "blocked", "skipped", "errored"] as const) expect(Number(await page.textContent(`#count-${k}`)), k).toBe(report.summary[k]);
    expect(await page.locator("details.check").count()).toBe(report.results.length);
    // A failed run opens on what did not pass.
    expect(await page.isChecked("input[name=status][value=problems]")).toBe(true);
    expect(Number(await page.textContent("#shown"))).toBe(report.results.filter((r) => r.status !== "passed").length);
    expect(await page.locator("details.check:visible[data-status=passed]").count()).toBe(0);
    expect(await page.textContent("#must-verified")).toBe(`${report.summary.mustRules.verified}/${report.summary.mustRules.total}`);
    expect(requested).toEqual([]);
    expect(errors).toEqual([]);
    if (process.env.CONFORMANCE_SCREENSHOT) {
      await page.setViewportSize({ width: 1280, height: 1500 });
      await page.check("input[name=status][value=problems]");
      await page.click(`details[data-id="pagination.cursor.any-page-size"] > summary`);
      await page.screenshot({ path: process.env.CONFORMANCE_SCREENSHOT, fullPage: false });
    }
    await page.close();
  });

  it("a failure expands to expected and got, the exchanges, the curl line and the property's counterexample", async () => {
    const { page } = await open();
    const failure = report.results.find((r) => r.id === "pagination.cursor.any-page-size")!;
    const details = page.locator(`details[data-id="${failure.id}"]`);
    await expect.poll(() => details.locator(".body").isVisible()).toBe(false);
    await details.locator("summary").click();
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
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

  it("holds no token", () => {
    const html = run.read("report.html");
    for (const secret of run.secrets) expect(html).not.toContain(secret);
  });
});

describe("HTML report of a run with root causes and leftovers", () => {
  it("shows each root cause once with the checks it blocks (links), and the leftovers deduplicated and folded", async () => {
    const root = report.results.find((r) => r.status === "failed")!;
    const victims = report.results.filter((r) => r.status === "passed").slice(0, 3).map((r) => r.id);
    const cause = `${root.id}: GET /api/v1/x answered 500`;
    const results = report.results.map((r) => (victims.includes(r.id) ? { ...r, status: "blocked" as const, root: { check: root.id }, blockedBy: cause, message: `blocked by ${cause}` } : r));
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
    expect(await page.evaluate(() => document.getElementById("root-causes")!.compareDocumentPosition(document.getElementById("checks")!) & Node.DOCUMENT_POSITION_FOLLOWING)).toBeTruthy();
    expect(await page.locator("#leftovers").evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator("#leftovers li").allTextContents()).toEqual(["workbook 7 in deployment 1 (2 times)", "folder 3 in deployment 1"]);
    expect(await page.locator("#leftovers summary").textContent()).toBe("Left on the server: 2 things");
    expect(Number(await page.textContent("#shown"))).toBe(results.filter((r) => r.status !== "passed").length);
    await page.close();
  });
});

describe("HTML report escaping", () => {
  it("server text cannot inject markup or script", () => {
    const evil = `<script>alert(1)</script><img src=x onerror="alert(2)">'"&`;
    const base = run.report();
    const hostile: Report = { ...base, target: { baseUrl: evil }, results: [{ ...base.results[0], id: evil, spec: evil, title: evil, message: evil, status: "failed", expected: evil, got: evil }] };
    const html = reportHtml(hostile, { strict: false });
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain(escapeHtml(evil));
    // The only script is the page's own, allowed by its hash in the Content-Security-Policy.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;/);
  });
});

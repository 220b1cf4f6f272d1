import { describe, expect, it } from "vitest";
import type { Exchange } from "../core/transport/http.js";
import { runChecks } from "../core/run/runner.js";
import { conflict, repeatWrites, sharesOf } from "../core/run/schedule.js";
import { Schemas } from "../core/api/schemas.js";
import { startReference } from "../reference/server.js";
import type { Item } from "../reference/store.js";
import { catalogue } from "../suites/index.js";
import { describeResults, settingsFor } from "./reference-run.js";

const WRITE_GROUPS = ["bulk-move", "upsert", "clone", "model"];
const REPEAT = 4;

/** The slugs two live workbooks of one deployment share, in the store as it is now. */
function duplicateSlugs(items: Map<number, Item>): string[] {
  const seen = new Map<string, number>();
  const dup: string[] = [];
  for (const i of items.values()) {
    if (i.type !== "WORKBOOK" || !i.slug) continue;
    const key = `${i.deploymentId}/${i.slug}`;
    if (seen.has(key) && seen.get(key) !== i.id) dup.push(key);
    seen.set(key, i.id);
  }
  return dup;
}

/** Issue 10: --repeat runs the write groups side by side on separate scratch objects, to shake out races. */
describe("--repeat: the write groups, several times at once", () => {
  it("copies only the checks that work on their own scratch objects, with ids of their own", () => {
    const copies = repeatWrites(catalogue, 3);
    const ids = copies.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("upsert.update.same-id#3");
    // A race is copied (the re-run line of a race says --repeat): its copies race one after another.
    const race = (id: string) => sharesOf(copies.find((c) => c.id === id)!);
    expect(conflict(race("upsert.concurrency.one-workbook-per-slug"), race("upsert.concurrency.one-workbook-per-slug#3"))).toBe(true);
    // What changes a setting (a deployment, a staging flag) is never copied; a check on a branch of its own may be.
    const setsASetting = (id: string) => sharesOf(catalogue.find((c) => c.id === id.split("#")[0])!).some((s) => s.startsWith("write:"));
    expect(ids.filter((id) => id.startsWith("staging.") || id.startsWith("deployment-update.")).filter((id) => id.includes("#") && setsASetting(id))).toEqual(
      [],
    );
    expect(ids.filter((id) => id.startsWith("staging.") && !id.includes("#")).filter(setsASetting).length).toBeGreaterThan(5);
    expect(ids.filter((id) => !id.includes("#")).length).toBe(catalogue.length);
  });

  it(`the reference holds under --repeat ${REPEAT}: every check passes, no 5xx, no duplicate slug, no lost write`, async () => {
    const s = await stress(
      catalogue.filter((c) => WRITE_GROUPS.includes(c.group)),
      [],
    );
    expect(s.outcome.results.length).toBeGreaterThan(s.checks * 2);
    expect(describeResults(s.outcome)).toBe("");
    expect(s.serverErrors).toEqual([]);
    expect(s.duplicates).toEqual([]);
    expect(s.upserts).toBeGreaterThan(100);
    expect(s.lost).toEqual([]);
    expect(s.outcome.leftovers).toEqual([]);
    // Every object the runs created was removed: none of them is left in the store.
    expect(s.left).toEqual([]);
  });

  it("the same watch sees the duplicate slugs of a reference that applies a raced decision twice", async () => {
    const s = await stress(
      catalogue.filter((c) => c.id.startsWith("upsert.concurrency.")),
      ["upsert-race-applied-twice"],
    );
    expect(s.duplicates.length).toBeGreaterThan(0);
  });
});

/** Runs the checks with --repeat against a fresh reference, watching its store as they run. */
async function stress(checks: typeof catalogue, faults: string[]) {
  const ref = await startReference({ faults });
  const store = ref.app.store;
  const serverErrors: string[] = [];
  const duplicates = new Set<string>();
  const lost: string[] = [];
  let upserts = 0;
  // An upsert answered 2xx is in the store when its answer arrives, with the name it sent: the
  // check that sent it sends nothing else meanwhile, and no other check touches its slug. (The
  // 409 checks race a delete against their upserts on purpose: they prove their own rule.)
  const onExchange = (e: Exchange, checkId?: string) => {
    if ((e.status ?? 0) >= 500) serverErrors.push(`${e.method} ${e.url} -> ${e.status}`);
    if (checkId?.startsWith("upsert.concurrency.")) return;
    if (e.method !== "PUT" || !/\/workbooks\/by-slug\//.test(e.url) || (e.status ?? 0) >= 300) return;
    upserts++;
    const id = Number(/"id":(\d+)/.exec(e.responseExcerpt ?? "")?.[1]);
    const stored = store.items.get(id);
    const sentName = (() => {
      try {
        return JSON.parse(e.requestBody ?? "{}")?.name;
      } catch {
        return undefined;
      }
    })();
    if (!stored) lost.push(`${e.url}: answered workbook ${id}, which the store does not hold`);
    else if (typeof sentName === "string" && sentName.trim() !== "" && stored.name !== sentName && stored.name !== sentName.trim())
      lost.push(`${e.url}: sent name ${sentName}, stored ${stored.name}`);
  };
  const sampler = setInterval(() => duplicateSlugs(store.items).forEach((d) => duplicates.add(d)), 2);
  try {
    const outcome = await runChecks(checks, settingsFor(ref, { runs: 5, concurrency: 8, repeat: REPEAT }), await Schemas.load(), { onExchange });
    duplicateSlugs(store.items).forEach((d) => duplicates.add(d));
    const left = [...store.items.values()].filter((i) => i.name.startsWith("cf-") || i.slug?.startsWith("cf-")).map((i) => i.name);
    return { outcome, checks: checks.length, serverErrors, duplicates: [...duplicates], lost, upserts, left };
  } finally {
    clearInterval(sampler);
    await ref.close();
  }
}

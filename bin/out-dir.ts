import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../core/api/settings.js";

/**
 * Creates the report folder and proves it writable before the run, so that a bad --out costs
 * one line instead of a whole run's reports. The folders are made one level at a time: Node's
 * recursive mkdir loops forever where mkdir answers ENOENT for a parent that exists (`/proc/x`).
 */
export function prepareOutDir(dir: string): void {
  const target = resolve(dir);
  const missing: string[] = [];
  let at = target;
  while (!existsSync(at) && dirname(at) !== at) {
    missing.unshift(at);
    at = dirname(at);
  }
  try {
    for (const d of missing) mkdirSync(d);
    if (!statSync(target).isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
    const probe = join(target, `.conformance-write-test-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`--out ${dir}: cannot write reports there (${e.code ?? e.message})`);
  }
}

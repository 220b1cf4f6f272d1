// `node scripts/move-modules.mjs old=new [old=new ...]`: a mechanical move of modules or folders
// (repo-relative paths), for commits that git's rename detection can carry other branches' edits
// over: `git mv` each, then every relative import of the repo's sources that named a moved module
// (and every relative import inside a moved one) rewritten to its new place; nothing else changes.
// Run after a merge, it also mends a merged branch's new imports of the old paths, when given the
// same pairs again with the old paths already gone (`--imports-only`).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = process.cwd();
const importsOnly = process.argv.includes("--imports-only");
const pairs = process.argv
  .slice(2)
  .filter((a) => a.includes("="))
  .map((a) => a.split("="));
const skipped = new Set(["node_modules", "dist", ".git"]);
const folders = readdirSync(root).filter((d) => !skipped.has(d) && statSync(join(root, d)).isDirectory());
const sources = [...folders.flatMap((d) => readdirSync(join(root, d), { recursive: true, encoding: "utf8" }).map((f) => join(d, f))), ...readdirSync(root)].filter(
  (f) => /\.(ts|mjs)$/.test(f) && !f.includes("node_modules") && statSync(join(root, f)).isFile(),
);
const moved = (p) => {
  for (const [from, to] of pairs) {
    if (p === from) return to;
    if (p.startsWith(`${from}/`)) return to + p.slice(from.length);
  }
  return p;
};
// Each file's text read before the move, its imports resolved from where it stood.
const texts = sources.map((f) => ({ f, text: readFileSync(join(root, f), "utf8") }));
if (!importsOnly)
  for (const [from, to] of pairs) {
    mkdirSync(dirname(join(root, to)), { recursive: true });
    execFileSync("git", ["mv", from, to]);
  }
for (const { f, text } of texts) {
  const at = importsOnly ? f : moved(f);
  const out = text.replace(/((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)(["'])/g, (all, before, spec, after) => {
    const target = relative(root, resolve(dirname(join(root, f)), spec));
    const now = moved(target.replace(/\.js$/, ".ts")).replace(/\.ts$/, target.endsWith(".ts") ? ".ts" : ".js");
    if (now === target && at === f) return all;
    const path = relative(dirname(at), now);
    return before + (path.startsWith(".") ? path : `./${path}`) + after;
  });
  if (out !== text) writeFileSync(join(root, at), out);
}

// The `any`s written in bin/, core/ and suites/ (issue 27 measures them): each AnyKeyword node of
// their TypeScript sources, in all and for the fifteen files that have the most.
// Usage: node scripts/count-any.mjs
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

let total = 0;
const perFile = {};
for (const dir of ["bin", "core", "suites"]) {
  for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!f.endsWith(".ts")) continue;
    const path = join(dir, f);
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (node.kind === ts.SyntaxKind.AnyKeyword) {
        total++;
        perFile[path] = (perFile[path] ?? 0) + 1;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
console.log(total);
for (const [path, count] of Object.entries(perFile).sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${count} ${path}`);

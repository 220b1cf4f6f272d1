import fc from "fast-check";
import { meta } from "./dist/generators/workspace.js";
const s = fc.sample(fc.array(meta, { minLength: 2, maxLength: 4 }), { numRuns: 1000, seed: 5 });
const big = (v) => typeof v === "object" && v && !Array.isArray(v) && Object.keys(v).length > 2;
let trig = 0, objs = 0, bigs = 0, vals = 0;
for (const seq of s) {
  let hit = false;
  for (let i = 0; i < seq.length - 1; i++) for (const [k, v] of Object.entries(seq[i])) if (big(v) && !seq.slice(i + 1).some((m) => k in m)) hit = true;
  if (hit) trig++;
  for (const m of seq) for (const v of Object.values(m)) { vals++; if (typeof v === "object" && !Array.isArray(v)) objs++; if (big(v)) bigs++; }
}
console.log("trigger", trig / 1000, "objects", objs / vals, "big", bigs / vals);
console.log(JSON.stringify(s.slice(0, 3)));

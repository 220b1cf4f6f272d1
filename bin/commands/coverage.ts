import type { Check } from "../../core/check/check.js";
import { coverage, coverageMarkdown } from "../../core/served/coverage.js";
import { ruleRanges } from "../../suites/ranges.js";

/** `conformance coverage`: every rule of the spec and the checks that verify it (docs/coverage.md is the same). */
export function coverageCommand(checks: Check[], opts: { json?: boolean }, out: (line: string) => void): number {
  if (opts.json)
    out(
      JSON.stringify(
        coverage(checks).map(({ rule, checks }) => ({ ...rule, checks })),
        null,
        2,
      ),
    );
  else out(coverageMarkdown(checks, ruleRanges).trimEnd());
  return 0;
}

import type { Check } from "../check/check.js";
import { UsageError } from "../api/settings.js";

function glob(pattern: string): RegExp {
  return new RegExp(
    "^" +
      pattern
        .split("*")
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*") +
      "$",
  );
}

/** The checks --group and --check select, less those --exclude-check names; a name that selects nothing is a usage error. */
export function selectChecks(all: Check[], groups?: string[], ids?: string[], exclude?: string[]): Check[] {
  const known = new Set(all.map((c) => c.group));
  for (const g of groups ?? []) if (!known.has(g)) throw new UsageError(`unknown group '${g}' (groups: ${[...known].join(", ")})`);
  const globs = (option: string, list?: string[]) => {
    const patterns = (list ?? []).map((p) => ({ p, re: glob(p) }));
    for (const { p, re } of patterns) if (!all.some((c) => re.test(c.id))) throw new UsageError(`${option} '${p}' matches no check (see 'conformance list')`);
    return patterns;
  };
  const patterns = globs("--check", ids);
  const excluded = globs("--exclude-check", exclude);
  const chosen = all.filter(
    (c) =>
      (!groups?.length || groups.includes(c.group)) &&
      (!patterns.length || patterns.some(({ re }) => re.test(c.id))) &&
      !excluded.some(({ re }) => re.test(c.id)),
  );
  if (!chosen.length) throw new UsageError("the selection leaves no check to run (see 'conformance list')");
  return chosen;
}

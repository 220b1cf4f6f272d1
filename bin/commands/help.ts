import type { Command } from "commander";

/**
 * The default command takes no arguments, so commander answers a mistyped command (`lst`) with
 * "too many arguments". Seen before parsing, a stray first word gets the command list and the
 * nearest name instead; so does `help` asked about a command that does not exist.
 */
export function unknownCommandMessage(argv: string[], program: Command): string | undefined {
  // `help <word>`: commander would print the general help for a word it does not know.
  const word = argv[0] === "help" && argv[1] !== undefined && !argv[1].startsWith("-") ? argv[1] : argv[0];
  if (word === undefined || word.startsWith("-")) return undefined;
  const names = [...program.commands.flatMap((c) => [c.name(), ...c.aliases()]), "help"];
  if (names.includes(word)) return undefined;
  const nearest = names.map((n) => [n, distance(word, n)] as const).sort((a, b) => a[1] - b[1])[0];
  const suggestion = nearest && nearest[1] <= Math.max(2, Math.floor(word.length / 2)) ? ` (did you mean ${nearest[0]}?)` : "";
  return `unknown command '${word}'${suggestion}; commands: ${names.join(", ")} (conformance help)`;
}

/** Levenshtein distance: the number of single-letter edits from a to b. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

import fc from "fast-check";
import { INPUT_DOMAINS, type ValueClass } from "../core/api/input-domain.js";

/**
 * Values of an input drawn from its classes (core/api/input-domain.ts): each case first picks a class,
 * all of them equally likely, then a value within it, so that a property's hundred runs cover every
 * class instead of the few values its author thought of. A class is drawn from its own arbitrary
 * where one is given (random within the class), else from its edges; the classes named in `only`
 * (the ones a rule judges) and no others; a class without edges or arbitrary cannot be drawn.
 */
export function fromClasses<T>(
  classes: readonly ValueClass[],
  only: readonly string[],
  within: Partial<Record<string, fc.Arbitrary<T>>> = {},
): fc.Arbitrary<T> {
  const drawn = only.map((name) => {
    const c = classes.find((x) => x.name === name);
    if (!c) throw new Error(`no class ${name} in the input's domain`);
    const arb = within[name] ?? (c.edges.length ? fc.constantFrom(...(c.edges as T[])) : undefined);
    if (!arb) throw new Error(`class ${name} has neither edges nor an arbitrary to draw from`);
    return arb;
  });
  return fc.oneof(...drawn);
}

/**
 * Every edge of an input's classes (core/api/input-domain.ts), none where the table holds no such
 * input: the values a property mixes into its own draws, so that a rule read over the parameters'
 * schemas is also tried at the edges the table names (a page size far beyond any cap, a leap day).
 */
export function tableEdges(operation: string, field: string): unknown[] {
  return INPUT_DOMAINS.find((d) => d.operation === operation && d.field === field)?.classes.flatMap((c) => c.edges) ?? [];
}

import fc from "fast-check";
import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import type { SchemaName } from "../../core/api/schemas.js";
import { invalidValues, malformedJson, notJsonForms, type InvalidOptions } from "../../generators/index.js";
import { spellsAllowed, typesAt, valueAt } from "./lenient-reading.js";
import { isObject } from "./values.js";
import { pointerToken } from "../../core/model/json-pointer.js";
import { type OperationParams, requestTo } from "../../core/transport/client.js";
import type { OperationName } from "../../core/api/operations.js";

/**
 * The stages of the negative properties (suites/<group>/negative.ts), one per endpoint: the
 * bad bodies it sends, how it sends them, what must stay as it was, and how that state is put
 * back. The valid request each breaks names only what the stage created or restores.
 */

/** One rule broken at one place (`at`, a JSON pointer), or a body that is not JSON at all. */
export interface BadBody {
  kind: string;
  at: string;
  body?: unknown;
  raw?: string;
}

export interface Stage {
  cases: fc.Arbitrary<BadBody>;
  /**
   * Bodies that are not JSON in the ways a lenient parser takes (notJsonBodies): sent on every run of
   * the property, first, whatever its seed draws. Drawn among `cases`, a value followed by a stray
   * brace came on about one seed in three (the Go server took it and applied the request).
   */
  notJson: BadBody[];
  send(api: Api, bad: BadBody): Promise<Response>;
  /** Fails the check when what the valid request would have changed is no longer as it was (`res`: the answer to the case). */
  unchanged(api: Api, res: Response): Promise<void>;
  /**
   * Brings back the state every case is judged from, after a case that may have moved it: so
   * that each trial, and the confirmation of a shrunk case, starts where the first one did, and
   * no case is blamed for what an earlier one left.
   */
  restore(api: Api): Promise<void>;
  /** A case a lenient server may read as the valid request it spells (lib/lenient-reading). */
  lenient(bad: BadBody): boolean;
  /**
   * A case a server may read as the valid request without its unusable part (an optional body
   * that is no object, a null beside the field that names the target). The spec states no outcome
   * for it: where a property judges only what is stated (no 5xx, no effect beyond what the
   * request names), a 2xx to it is judged by `faithful`; the 4xx stays what the SHOULD asks.
   */
  ignorable?(bad: BadBody): boolean;
  /** After a 2xx to a lenient case: fails where the reading was not the value spelled, where that can be read back. */
  faithful?(api: Api, bad: BadBody, res: Response): Promise<void>;
}

/** The cases of `schema` a lenient server may read as valid: a wrongly typed value spelling an allowed one. */
export function spelledAsValid(ctx: CheckContext, schema: SchemaName): (bad: BadBody) => boolean {
  const s = ctx.schemas.schema(schema);
  return (bad) => bad.kind === "wrong-type" && spellsAllowed(valueAt(bad.body, bad.at), typesAt(s, bad.at));
}

export function badBodies(
  ctx: CheckContext,
  schema: SchemaName,
  opts: InvalidOptions & { base: fc.Arbitrary<unknown> },
  more: fc.Arbitrary<BadBody>[] = [],
): fc.Arbitrary<BadBody> {
  const broken = invalidValues(ctx.schemas.schema(schema), opts).map((c): BadBody => ({ kind: c.kind, at: c.at, body: c.value }));
  // A body that is no JSON at all is one break among the many the schema allows.
  return fc.oneof(
    { arbitrary: broken, weight: 8 },
    { arbitrary: malformedJson(opts.base).map((raw): BadBody => ({ kind: "malformed-json", at: "", raw })), weight: 1 },
    ...more.map((arbitrary) => ({ arbitrary, weight: 2 })),
  );
}

/** One valid body of `base` (the same on every run) broken as a lenient parser takes it (generators/schema.ts notJsonForms). */
export function notJsonBodies(base: fc.Arbitrary<unknown>): BadBody[] {
  const [valid] = fc.sample(base, { seed: 0, numRuns: 1 });
  return notJsonForms(valid).map((raw) => ({ kind: "malformed-json", at: "", raw }));
}

/**
 * A generated bad body whose object at `field` (E6 templateVariables) has its keys renamed to the
 * tool's fixed `pool`, in order: where a lenient server accepts the body, what it keeps is a name of
 * the pool, never a new generated one. The break, in a value or a type, stays where it was.
 */
export function withPoolKeys(bad: BadBody, field: string, pool: readonly string[]): BadBody {
  const body = bad.body as Record<string, unknown> | undefined;
  const held = body?.[field];
  if (!isObject(held)) return bad;
  const fieldAt = `/${pointerToken(field)}/`;
  // The key the break is at, if it is inside the field (its pointer token, escaped or as generated).
  const under = (k: string) => [pointerToken(k), k].find((t) => bad.at === fieldAt + t || bad.at.startsWith(`${fieldAt + t}/`));
  const broken = bad.at.startsWith(fieldAt) ? Object.keys(held).find((k) => under(k) !== undefined) : undefined;
  // The broken key first, then as many others as the pool has names: no two keys share a name, so no break is overwritten.
  const keys = [...(broken === undefined ? [] : [broken]), ...Object.keys(held).filter((k) => k !== broken)].slice(0, pool.length);
  const at = broken === undefined ? bad.at : fieldAt + pointerToken(pool[0]) + bad.at.slice(fieldAt.length + under(broken)!.length);
  return { ...bad, at, body: { ...body, [field]: Object.fromEntries(keys.map((k, i) => [pool[i], held[k]])) } };
}

export function sender(name: OperationName, params: OperationParams, after?: (res: Response) => void): Stage["send"] {
  return async (api, bad) => {
    const res = await api.send(requestTo(name, params, bad.raw === undefined ? { body: bad.body } : { rawBody: bad.raw }));
    after?.(res);
    return res;
  };
}

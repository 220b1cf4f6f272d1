import type { E14_OPERATIONS, FACT_OPERATIONS, FAMILY_OPERATIONS, OperationName, SPECIFIED_OPERATIONS } from "./operations.js";
import type { SchemaTypes } from "./schema-types.js";
import type { SchemaName } from "./schemas.js";

/**
 * What the operation table's rows say about a call, as types: the values that fill a path, the
 * body sent and the answer's body, each read from the row of the operation's name (core/api/operations.ts).
 */

type AnyRow = (typeof SPECIFIED_OPERATIONS)[number] | (typeof E14_OPERATIONS)[number] | (typeof FACT_OPERATIONS)[number] | (typeof FAMILY_OPERATIONS)[number];
/** The names of a path's placeholders: `{deploymentId}` gives "deploymentId". */
type Placeholders<P extends string> = P extends `${string}{${infer K}}${infer R}` ? K | Placeholders<R> : never;
/** The placeholders of an operation's path, by its name. */
export type ParamNameOf<N extends OperationName> = Placeholders<Extract<AnyRow, { name: N }>["path"]>;
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;
/**
 * The values that fill an operation's path: one per placeholder, no other (a misspelt or missing
 * one does not compile). Code that calls an operation it was handed (a name of any operation)
 * cannot be checked so: it gives any values, and `fillPath` refuses a missing one at run time.
 */
export type ParamsOf<N extends OperationName> = true extends IsUnion<N> ? Record<string, string | number> : Record<ParamNameOf<N>, string | number>;
/** A schema of a row's `answers` at one of these statuses, as its generated type (never: none). */
type SchemaAt<A, K> = K extends keyof A ? (A[K] extends SchemaName ? SchemaTypes[A[K]] : never) : never;
type SuccessStatus = 200 | 201 | 202 | 204;
/** A row's 2xx answer as the spec shows it; unknown where it shows none (E14, E6, E7). Distributes over rows. */
type AnswerOfRow<R> = R extends { answers: infer A } ? ([SchemaAt<A, SuccessStatus>] extends [never] ? unknown : SchemaAt<A, SuccessStatus>) : unknown;
/**
 * The body of an operation's 2xx answer, typed by its row (`listWorkbooks` gives WorkbooksListResponse):
 * what a server that keeps the spec sends, which a reader still checks (`expect.schema`) before
 * trusting it. Unknown where the spec shows no shape, and for a name of any operation.
 */
export type AnswerOf<N extends OperationName> = OneShape<AnswerOfRow<Extract<AnyRow, { name: N }>>>;
type KeysOf<T> = T extends unknown ? keyof T : never;
type ValueAt<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : undefined) : never;
/**
 * A schema's branches (an answer the spec lets take either documented shape) read as one shape:
 * every branch's fields, each what any branch gives it, undefined where one has none. Readers
 * read such an answer field by field (`items ?? data`), which a union of shapes does not allow.
 */
export type OneShape<T> = true extends IsUnion<T> ? { [K in KeysOf<T>]?: ValueAt<T, K> } : T;
/** The body an operation's request carries, typed by its row's `request` where the spec shows one; unknown elsewhere. */
export type RequestOf<N extends OperationName> =
  Extract<AnyRow, { name: N }> extends infer R ? (R extends { request: infer S extends SchemaName } ? SchemaTypes[S] : unknown) : never;
/** Whether a call of this operation must give values for its path (it has placeholders, and the name is known). */
export type NeedsParams<N extends OperationName> = true extends IsUnion<N> ? false : [ParamNameOf<N>] extends [never] ? false : true;

import { HttpError } from "../../http.js";
import type { Item, Store } from "../../store.js";
import { UPSERT_CONFLICT_CODE } from "../../../core/api/operations.js";

export const isConflict = (err: unknown): err is HttpError => err instanceof HttpError && err.extra.code === UPSERT_CONFLICT_CODE;

/** A decision index that is never refreshed: the first holder seen for a slug stays the answer. */
export const staleIndex = new WeakMap<Store, Map<string, Item>>();

/** upsert-409-applies: the meta of every request refused with 409, by deployment and slug: applied to each holder the slug has after it. */
export const refusedMeta = new WeakMap<Store, Map<string, Record<string, unknown>[]>>();

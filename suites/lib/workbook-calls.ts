import type { Api } from "../../core/api.js";
import type { Response } from "../../core/http.js";
import type { ItemRef } from "../../core/scratch.js";

/** The workspace calls of E8-E12 by what they do, so that a check reads like the API it drives. */

const deployment = (dep: string) => `/api/v1/deployments/${dep}`;

export const workbooksPath = (dep: string) => `${deployment(dep)}/workbooks`;

/** E11: the slug goes into the path as given (whitespace and case included), percent-encoded. */
export function upsertBySlug(api: Api, dep: string, slug: string, body: Record<string, unknown>): Promise<Response> {
  return api.put(`${workbooksPath(dep)}/by-slug/${encodeURIComponent(slug)}`, body);
}

/** E9. */
export function getWorkbook(api: Api, dep: string, id: number): Promise<Response> {
  return api.get(`${workbooksPath(dep)}/${id}`);
}

/** E10, without a body: a plain clone. */
export function cloneWorkbook(api: Api, dep: string, id: number): Promise<Response> {
  return api.post(`${workbooksPath(dep)}/${id}/duplicate`);
}

/** E12; folderId null is the workspace root. */
export function bulkMove(api: Api, dep: string, items: ItemRef[], folderId: number | null): Promise<Response> {
  return api.post(`${deployment(dep)}/workspace/bulk-move`, { items, folderId });
}

export const itemKey = (i: { type?: unknown; id?: unknown }) => `${i?.type}:${i?.id}`;

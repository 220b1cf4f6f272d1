import type { Fault } from "../../http.js";

/** Rewrites every workbook record of an E8 list or an E9 answer; errors pass untouched. */
export function eachWorkbook(f: (w: any) => any): Fault["respond"] {
  return ({ status, body }) => {
    if (status !== 200) return body;
    if (!Array.isArray(body?.items)) return f(body);
    return { ...body, items: body.items.map(f), data: Array.isArray(body.data) ? body.data.map(f) : body.data };
  };
}

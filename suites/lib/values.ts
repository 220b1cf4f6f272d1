/** A JSON object (not null, not an array): what a record, a body or a settings value must be before its fields are read. */
export const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Limits (DashboardAppSource entry: max 255): a draft cut to fit, or kept whole. */
export const ENTRY_MAX = 255;

export function entryCut(draft: unknown): unknown {
  const entry = (draft as any)?.app?.entry;
  return typeof entry === "string" && entry.length > ENTRY_MAX
    ? { ...(draft as any), app: { ...(draft as any).app, entry: entry.slice(0, ENTRY_MAX) } }
    : draft;
}

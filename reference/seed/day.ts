/** A timestamp `offset` days from the seed's fixed origin: the seed's dates never depend on the clock. */
export function day(offset: number): string {
  return new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString();
}

export const sameItem = (a: { type: string; id: number }) => (b: { type: string; id: number }) => a.type === b.type && a.id === b.id;

import type { Access, Item, Store, User } from "./store.js";

const RANK: Record<Access, number> = { none: 0, read: 1, edit: 2, manage: 3 };

export function atLeast(have: Access, need: Access): boolean {
  return RANK[have] >= RANK[need];
}

/** The caller's access to an item: its own items fully, else the nearest grant up the folders. */
export function accessTo(store: Store, user: User, item: Item | null): Access {
  if (item && item.createdBy === user.id) return "manage";
  // Bounded: a folder cycle left by a faulty move must not hang the server.
  const seen = new Set<Item>();
  for (let cur: Item | undefined | null = item; cur && !seen.has(cur); cur = cur.folderId == null ? undefined : store.items.get(cur.folderId)) {
    seen.add(cur);
    const g = cur.grants.get(user.id);
    if (g) return g;
  }
  return user.defaultAccess;
}

/** Access to a folder id, where null is the workspace root. */
export function accessToFolder(store: Store, user: User, folderId: number | null): Access {
  return folderId == null ? (user.aiBiUser ? "edit" : user.defaultAccess) : accessTo(store, user, store.items.get(folderId) ?? null);
}

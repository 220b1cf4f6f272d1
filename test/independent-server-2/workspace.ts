import { randomBytes } from "node:crypto";
import { type Ctx, HttpError, bad, bodyObj, cursorPage, invalid, isInt, isObj, isoDate, notFound } from "./http.js";
import { type Item, type Store, OWNER, WORKBOOK_LIMIT, MAX_FOLDER_DEPTH } from "./store.js";
import { remapConfig, validateConfig } from "./dashboard.js";

export function depNum(s: Store, raw: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw bad("deploymentId must be a number");
  const n = Number(raw);
  if (!s.deployments.has(String(n))) throw notFound(`deployment ${raw} not found`);
  return n;
}

function idParam(raw: string, what: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw bad(`${what} must be an integer`);
  return Number(raw);
}

function pubOut(it: Item) {
  const p = it.published!;
  return {
    id: p.id,
    publicId: p.publicId,
    deploymentId: it.deploymentId,
    workbookId: p.workbookId,
    status: p.status,
    allowEmbed: p.allowEmbed,
    config: p.config,
    versionNumber: p.versionNumber,
    versionId: p.versionId,
    reportSnapshots: p.reportSnapshots,
    createdBy: p.createdBy,
    title: p.title,
    description: p.description,
  };
}

export function wbOut(s: Store, it: Item): Record<string, unknown> {
  const o: Record<string, unknown> = {
    id: it.id,
    deploymentId: it.deploymentId,
    name: it.name,
    type: it.type,
    meta: it.meta,
    calculatedFields: it.calculatedFields,
    createdAt: isoDate(it.createdAt),
    updatedAt: isoDate(it.updatedAt),
    createdBy: it.createdBy,
    userId: OWNER.id,
    user: OWNER,
    isFavorite: it.isFavorite,
  };
  if (it.folderId !== null) {
    o["folderId"] = it.folderId;
    o["folderPath"] = s.ancestors(it.folderId).slice(0, -1);
  }
  if (it.slug !== null) o["slug"] = it.slug;
  if (it.dashboardDraft) o["dashboardDraft"] = it.dashboardDraft;
  if (it.dashboardPublished) o["dashboardPublished"] = it.dashboardPublished;
  if (it.published) o["publishedDashboard"] = pubOut(it);
  return o;
}

export function folderOut(s: Store, it: Item): Record<string, unknown> {
  const o: Record<string, unknown> = {
    id: it.id,
    name: it.name,
    position: it.position,
    deploymentId: it.deploymentId,
    createdAt: isoDate(it.createdAt),
    updatedAt: isoDate(it.updatedAt),
    type: "FOLDER",
    createdBy: it.createdBy,
    updatedBy: it.createdBy,
    user: OWNER,
  };
  if (it.folderId !== null) {
    o["parentId"] = it.folderId;
    o["folderPath"] = s.ancestors(it.folderId).slice(0, -1);
  }
  return o;
}

function folderIn(s: Store, dep: number, id: number): Item | undefined {
  const f = s.items.get(id);
  return f && f.deploymentId === dep && f.type === "FOLDER" ? f : undefined;
}

export function listWorkbooks(s: Store, ctx: Ctx, depRaw: string) {
  const dep = depNum(s, depRaw);
  const fq = ctx.query.get("folderId");
  let all = s.itemsOf(dep).sort((a, b) => b.id - a.id);
  if (fq !== null) {
    let f: number | null = null;
    if (fq !== "null" && fq !== "" && fq !== "0") f = idParam(fq, "folderId");
    all = all.filter((i) => i.folderId === f);
  }
  const { slice, pageInfo } = cursorPage(all, ctx.query);
  const items = slice.map((i) => wbOut(s, i));
  return { items, data: items, count: all.length, pageInfo };
}

function getWb(s: Store, dep: number, raw: string): Item {
  const id = idParam(raw, "workbookId");
  const it = s.items.get(id);
  if (!it || it.deploymentId !== dep || it.type !== "WORKBOOK") throw notFound(`workbook ${raw} not found`);
  return it;
}

export function getWorkbook(s: Store, depRaw: string, wbRaw: string) {
  return wbOut(s, getWb(s, depNum(s, depRaw), wbRaw));
}

export function cloneWorkbook(s: Store, ctx: Ctx, depRaw: string, wbRaw: string) {
  const dep = depNum(s, depRaw);
  const b = bodyObj(ctx, true);
  if (b["shared"] !== undefined && typeof b["shared"] !== "boolean") throw invalid("shared must be a boolean");
  if (b["shared"] === true) throw new HttpError(403, "shared clone requires a creator-mode embed session");
  const src = getWb(s, dep, wbRaw);
  if (s.itemsOf(dep).filter((i) => i.type === "WORKBOOK").length >= WORKBOOK_LIMIT) throw bad("workbook limit of the plan reached");
  const now = new Date();
  const folderId = src.folderId;
  const map = new Map<number, number>();
  const newId = s.id();
  for (const r of s.itemsOf(dep).filter((i) => i.type === "REPORT" && i.meta["workbookId"] === src.id)) {
    const c: Item = { ...structuredClone(r), id: s.id(), folderId, createdAt: now, updatedAt: now, createdBy: OWNER.id, slug: null, isFavorite: false };
    c.meta = { ...c.meta, workbookId: newId };
    map.set(r.id, c.id);
    s.items.set(c.id, c);
  }
  const wb: Item = {
    ...structuredClone(src),
    id: newId,
    name: `Copy of ${src.name}`,
    folderId,
    createdAt: now,
    updatedAt: now,
    createdBy: OWNER.id,
    slug: null,
    isFavorite: false,
    dashboardDraft: remapConfig(src.dashboardDraft, map),
    dashboardPublished: remapConfig(src.dashboardPublished, map),
    published: null,
  };
  wb.meta = remapConfig(wb.meta, map) ?? {};
  if (src.published) {
    const p = src.published;
    wb.published = {
      ...structuredClone(p),
      id: (s.nextPub += 5),
      publicId: randomBytes(8).toString("hex"),
      workbookId: newId,
      allowEmbed: false,
      versionNumber: 1,
      versionId: s.nextPub * 10 + 1,
      createdBy: OWNER.id,
      config: remapConfig(p.config, map) ?? {},
      reportSnapshots: p.reportSnapshots.map((x) => ({
        ...structuredClone(x),
        id: (s.nextSnap += 3),
        reportId: map.get(x.reportId) ?? x.reportId,
        versionNumber: 1,
      })),
    };
  }
  s.items.set(newId, wb);
  return wbOut(s, wb);
}

export async function upsertBySlug(s: Store, ctx: Ctx, depRaw: string, slugRaw: string) {
  const dep = depNum(s, depRaw);
  let slug: string;
  try {
    slug = decodeURIComponent(slugRaw).trim().toLowerCase();
  } catch {
    throw bad("malformed slug");
  }
  if (slug === "") throw bad("slug must not be empty");
  if (slug.length > 200) throw bad("slug too long");
  const b = bodyObj(ctx);
  if (b["name"] !== undefined && (typeof b["name"] !== "string" || b["name"].trim() === "")) throw invalid("name must be a non-empty string");
  if (b["folderId"] !== undefined && !isInt(b["folderId"])) throw invalid("folderId must be an integer");
  if (b["meta"] !== undefined && !isObj(b["meta"])) throw invalid("meta must be an object");
  const meta = b["meta"] === undefined ? undefined : { ...(b["meta"] as Record<string, unknown>) };
  let draft: Record<string, unknown> | null | undefined;
  if (meta && "dashboardDraft" in meta) {
    draft = validateConfig(meta["dashboardDraft"], "meta.dashboardDraft");
    meta["dashboardDraft"] = draft;
  }
  const folderId = b["folderId"] as number | undefined;
  if (folderId !== undefined && !folderIn(s, dep, folderId)) throw bad(`folder ${folderId} not found`);
  const holderOf = () => s.itemsOf(dep).find((i) => i.type === "WORKBOOK" && i.slug === slug);
  const decided = holderOf()?.id ?? null;
  await new Promise<void>((r) => setImmediate(r)); // access checks happen here
  await new Promise<void>((r) => setTimeout(r, 2));
  const now = holderOf();
  if ((now?.id ?? null) !== decided || !s.deployments.has(String(dep))) {
    throw new HttpError(409, "workbook holding the slug changed concurrently; retry", { code: "upsert_branch_changed" });
  }
  if (folderId !== undefined && !folderIn(s, dep, folderId)) throw bad(`folder ${folderId} not found`);
  if (!now) {
    if (s.itemsOf(dep).filter((i) => i.type === "WORKBOOK").length >= WORKBOOK_LIMIT) throw bad("workbook limit of the plan reached");
    const t = new Date();
    const it: Item = {
      id: s.id(),
      deploymentId: dep,
      type: "WORKBOOK",
      name: (b["name"] as string | undefined) ?? slug,
      folderId: folderId ?? null,
      meta: meta ?? {},
      calculatedFields: {},
      createdAt: t,
      updatedAt: t,
      createdBy: OWNER.id,
      slug,
      position: 0,
      isFavorite: false,
      dashboardDraft: draft ?? null,
      dashboardPublished: null,
      published: null,
    };
    s.items.set(it.id, it);
    return wbOut(s, it);
  }
  const before = JSON.stringify([now.name, now.folderId, now.meta, now.dashboardDraft]);
  if (typeof b["name"] === "string") now.name = b["name"];
  if (folderId !== undefined) now.folderId = folderId;
  if (meta) now.meta = { ...now.meta, ...meta };
  if (draft !== undefined) now.dashboardDraft = draft;
  if (JSON.stringify([now.name, now.folderId, now.meta, now.dashboardDraft]) !== before) now.updatedAt = new Date();
  return wbOut(s, now);
}

type Ref = { type: "WORKBOOK" | "REPORT" | "FOLDER"; id: number };
function parseRefs(b: Record<string, unknown>): Ref[] {
  const items = b["items"];
  if (!Array.isArray(items) || items.length < 1 || items.length > 100) throw invalid("items must be an array of 1 to 100 entries");
  const seen = new Set<string>();
  const out: Ref[] = [];
  for (const x of items) {
    if (!isObj(x) || !["WORKBOOK", "REPORT", "FOLDER"].includes(x["type"] as string) || !isInt(x["id"]))
      throw invalid("each item needs type (WORKBOOK, REPORT, FOLDER) and integer id");
    const key = `${x["type"]}:${x["id"]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ type: x["type"] as Ref["type"], id: x["id"] as number });
  }
  return out;
}

function subtreeHeight(s: Store, f: Item): number {
  const kids = [...s.items.values()].filter((i) => i.type === "FOLDER" && i.folderId === f.id);
  return 1 + Math.max(0, ...kids.map((k) => subtreeHeight(s, k)));
}

export function bulkMove(s: Store, ctx: Ctx, depRaw: string) {
  const dep = depNum(s, depRaw);
  const b = bodyObj(ctx);
  const refs = parseRefs(b);
  if (!("folderId" in b) || (b["folderId"] !== null && !isInt(b["folderId"]))) throw invalid("folderId (integer or null) is required");
  const dest = b["folderId"] as number | null;
  const moved: unknown[] = [];
  const failed: unknown[] = [];
  for (const r of refs) {
    const fail = (status: number, message: string) => failed.push({ type: r.type, id: r.id, error: { message, status } });
    const it = s.items.get(r.id);
    if (!it || it.deploymentId !== dep || it.type !== r.type) {
      fail(404, `${r.type} ${r.id} not found`);
      continue;
    }
    if (dest !== null && !folderIn(s, dep, dest)) {
      fail(404, `destination folder ${dest} not found`);
      continue;
    }
    if (it.type === "FOLDER") {
      if (dest !== null && s.ancestors(dest).some((a) => a.id === it.id)) {
        fail(400, "cannot move a folder into itself or its descendant");
        continue;
      }
      if (s.depthOf(dest) + subtreeHeight(s, it) > MAX_FOLDER_DEPTH) {
        fail(400, "maximum folder depth exceeded");
        continue;
      }
    }
    if (it.folderId !== dest) {
      it.folderId = dest;
      it.updatedAt = new Date();
    }
    moved.push(it.type === "FOLDER" ? { ...wbOut(s, it) } : wbOut(s, it));
  }
  return { moved, failed };
}

function deleteFolder(s: Store, f: Item): string | null {
  if ([...s.items.values()].some((i) => i.type === "FOLDER" && i.folderId === f.id)) return "folder still has sub-folders";
  for (const i of s.items.values())
    if (i.folderId === f.id) {
      i.folderId = null;
      i.updatedAt = new Date();
    }
  s.items.delete(f.id);
  return null;
}

export function bulkDelete(s: Store, ctx: Ctx, depRaw: string) {
  const dep = depNum(s, depRaw);
  const refs = parseRefs(bodyObj(ctx));
  const deleted: Ref[] = [];
  const failed: unknown[] = [];
  for (const r of refs) {
    const it = s.items.get(r.id);
    if (!it || it.deploymentId !== dep || it.type !== r.type) {
      failed.push({ type: r.type, id: r.id, error: { status: 404, message: `${r.type} ${r.id} not found` } });
      continue;
    }
    if (it.type === "FOLDER") {
      const err = deleteFolder(s, it);
      if (err) {
        failed.push({ type: r.type, id: r.id, error: { status: 400, message: err } });
        continue;
      }
    } else s.items.delete(it.id);
    deleted.push({ type: r.type, id: r.id });
  }
  return { deleted, failed };
}

export function listFolders(s: Store, ctx: Ctx, depRaw: string) {
  const dep = depNum(s, depRaw);
  const pq = ctx.query.get("parentId");
  const parent = pq === null || pq === "" || pq === "null" ? null : idParam(pq, "parentId");
  if (parent !== null && !folderIn(s, dep, parent)) throw notFound(`folder ${parent} not found`);
  const all = s
    .itemsOf(dep)
    .filter((i) => i.type === "FOLDER" && i.folderId === parent)
    .sort((a, b) => a.position - b.position || a.id - b.id);
  const { slice, pageInfo } = cursorPage(all, ctx.query);
  const items = slice.map((f) => folderOut(s, f));
  return { items, data: items, count: all.length, pageInfo };
}

export function createFolder(s: Store, ctx: Ctx, depRaw: string) {
  const dep = depNum(s, depRaw);
  const b = bodyObj(ctx);
  if (typeof b["name"] !== "string" || b["name"].trim() === "") throw invalid("name (non-empty string) is required");
  if (b["parentId"] !== undefined && b["parentId"] !== null && !isInt(b["parentId"])) throw invalid("parentId must be an integer or null");
  if (b["position"] !== undefined && !isInt(b["position"])) throw invalid("position must be an integer");
  const parent = (b["parentId"] as number | null | undefined) ?? null;
  if (parent !== null && !folderIn(s, dep, parent)) throw notFound(`folder ${parent} not found`);
  if (s.depthOf(parent) + 1 > MAX_FOLDER_DEPTH) throw bad(`maximum folder depth of ${MAX_FOLDER_DEPTH} exceeded`);
  const t = new Date();
  const f: Item = {
    id: s.id(),
    deploymentId: dep,
    type: "FOLDER",
    name: b["name"],
    folderId: parent,
    meta: {},
    calculatedFields: {},
    createdAt: t,
    updatedAt: t,
    createdBy: OWNER.id,
    slug: null,
    position: (b["position"] as number | undefined) ?? 0,
    isFavorite: false,
    dashboardDraft: null,
    dashboardPublished: null,
    published: null,
  };
  s.items.set(f.id, f);
  return folderOut(s, f);
}

export function removeFolder(s: Store, depRaw: string, idRaw: string): void {
  const dep = depNum(s, depRaw);
  const f = folderIn(s, dep, idParam(idRaw, "folderId"));
  if (!f) throw notFound(`folder ${idRaw} not found`);
  const err = deleteFolder(s, f);
  if (err) throw bad(err);
}

import type { Api } from "./api.js";

export type ItemType = "WORKBOOK" | "REPORT" | "FOLDER";
export interface ItemRef {
  type: ItemType;
  id: number;
}

interface Restore {
  what: string;
  undo: () => Promise<void>;
}

/** How the names of everything a run creates begin, whichever check made it (the runner names each check's scratch `<seed>-<check>`). */
export const runPrefixOf = (seed: number) => `cf-${seed.toString(36)}-`;

/**
 * What one check creates and changes on the server (each check has its own, so that checks run
 * side by side never clean up each other's objects). Everything created carries the prefix (from
 * the run's seed and the check's id) and is deleted when the check ends (workspace bulk delete);
 * every change registers its undo. It never deletes a deployment.
 */
export class Scratch {
  readonly prefix: string;
  private counter = 0;
  private readonly created = new Map<string, ItemRef & { deploymentId: string }>();
  private readonly restores: Restore[] = [];

  constructor(runId: string) {
    this.prefix = `cf-${runId}`;
  }

  /** A fresh name, recognisably the run's own. */
  name(label: string): string {
    return `${this.prefix}-${label}-${++this.counter}`;
  }

  /** A fresh slug: lowercase already, so a check can vary its case and spacing itself. */
  slug(label: string): string {
    return this.name(label).toLowerCase().replace(/[^a-z0-9-]+/g, "-");
  }

  track(deploymentId: string, item: ItemRef): void {
    this.created.set(`${deploymentId}:${item.type}:${item.id}`, { ...item, deploymentId });
  }

  forget(deploymentId: string, item: ItemRef): void {
    this.created.delete(`${deploymentId}:${item.type}:${item.id}`);
  }

  /** Registers how to put back something the run changed; undone newest first. */
  onCleanup(what: string, undo: () => Promise<void>): void {
    this.restores.push({ what, undo });
  }

  get pending(): number {
    return this.created.size + this.restores.length;
  }

  /** Undoes changes, deletes created items; returns what could not be cleaned, for the report. */
  async cleanup(api: Api): Promise<string[]> {
    const leftovers: string[] = [];
    while (this.restores.length) {
      const r = this.restores.pop()!;
      try {
        await r.undo();
      } catch (err) {
        leftovers.push(`could not restore ${r.what}: ${(err as Error).message}`);
      }
    }
    const byDeployment = new Map<string, ItemRef[]>();
    for (const item of this.created.values()) {
      const list = byDeployment.get(item.deploymentId) ?? [];
      list.push({ type: item.type, id: item.id });
      byDeployment.set(item.deploymentId, list);
    }
    for (const [dep, items] of byDeployment) leftovers.push(...(await this.deleteAll(api, dep, items)));
    return leftovers;
  }

  /**
   * Folders go to the root first, so that no folder still holds another when its turn comes (and a
   * cycle a faulty server let a run make is broken); then rounds of bulk deletes until nothing is
   * left or a round makes no progress.
   */
  private async deleteAll(api: Api, dep: string, items: ItemRef[]): Promise<string[]> {
    const folders = items.filter((i) => i.type === "FOLDER");
    for (const batch of chunks(folders, 100)) await api.post(`/api/v1/deployments/${dep}/workspace/bulk-move`, { items: batch, folderId: null }).catch(() => undefined);
    let remaining = [...items.filter((i) => i.type !== "FOLDER"), ...folders];
    let reasons = new Map<string, string>();
    for (let round = 0; round < MAX_DELETE_ROUNDS && remaining.length; round++) {
      const before = remaining.length;
      reasons = new Map();
      const next: ItemRef[] = [];
      for (const batch of chunks(remaining, 100)) {
        try {
          const res = await api.post(`/api/v1/deployments/${dep}/workspace/bulk-delete`, { items: batch });
          const failed: any[] = res.status === 200 && Array.isArray(res.body?.failed) ? res.body.failed : res.status === 200 ? [] : batch;
          for (const item of batch) {
            const f = failed.find((x) => x?.type === item.type && x?.id === item.id);
            // Already gone (404) counts as cleaned.
            if (f && f.error?.status !== 404) {
              next.push(item);
              reasons.set(`${item.type}:${item.id}`, res.status === 200 ? f.error?.message ?? "failed" : `bulk delete answered ${res.status}`);
            } else this.created.delete(`${dep}:${item.type}:${item.id}`);
          }
        } catch (err) {
          next.push(...batch);
          for (const i of batch) reasons.set(`${i.type}:${i.id}`, (err as Error).message);
        }
      }
      remaining = next;
      if (remaining.length === before) break;
    }
    return remaining.map((i) => `${i.type} ${i.id} in deployment ${dep} was not deleted: ${reasons.get(`${i.type}:${i.id}`)}`);
  }
}

const MAX_DELETE_ROUNDS = 5;

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

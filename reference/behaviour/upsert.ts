import { convertLegacyWidgets, draftProblem, LEGACY_TABS, WIDGET_TYPES } from "../dashboard.js";
import type { Access, DeploymentRecord, Item, Store } from "../store.js";
import { atLeast } from "../access.js";

/** What an E11 upsert may change on a workbook. */
export interface UpsertFields {
  name: string;
  meta: Record<string, unknown>;
  folderId: number | null;
}

/** The clean decisions of E11, upsert by slug (reference/behaviour.ts merges them). */
export const upsertBehaviour = {
  /** E11 rule 6: the deployment named in the path, if there is one. */
  upsertDeployment(deployments: DeploymentRecord[], rawId: string): DeploymentRecord | undefined {
    return /^\d+$/.test(rawId) ? deployments.find((d) => d.id === Number(rawId)) : undefined;
  },

  /** E11 rule 2: the workbook holding a (normalised) slug; the latest one should there ever be more. */
  slugHolder(workbooks: Item[], slug: string): Item | undefined {
    return workbooks.filter((w) => w.slug === slug).at(-1);
  },

  /** E11 rule 5: the holder the create/update decision is taken on: a fresh read, like the one at apply time. */
  decisionHolder(store: Store, deploymentId: number, slug: string): Item | undefined {
    return this.slugHolder(
      [...store.items.values()].filter((i) => i.type === "WORKBOOK" && i.deploymentId === deploymentId),
      slug,
    );
  },

  /** E11 rule 2: only the fields sent change (`sent.meta` is already merged). */
  upsertFields(current: UpsertFields, sent: Partial<UpsertFields>): UpsertFields {
    return { name: sent.name ?? current.name, meta: sent.meta ?? current.meta, folderId: sent.folderId === undefined ? current.folderId : sent.folderId };
  },

  /** E11 rule 2 and Resources / DashboardWidget: what makes a sent `meta.dashboardDraft` invalid. */
  dashboardDraftProblem(draft: unknown): string | undefined {
    return draftProblem(draft, [...WIDGET_TYPES, LEGACY_TABS]);
  },

  /** Resources / DashboardWidget: a sent TABS_CONTAINER is stored as a tabbed CONTAINER. */
  convertDashboardDraft(draft: unknown): unknown {
    return convertLegacyWidgets(draft);
  },

  /**
   * E11 rule 4: update needs edit access to the workbook, and with folderId manage access plus
   * edit access to the destination; create needs AI BI User and edit access to the destination.
   * `workbook` is null on create, `destination` null when no folderId is sent.
   */
  upsertAllowed(o: { aiBiUser: boolean; workbook: Access | null; destination: Access | null }): boolean {
    const destinationOk = o.destination === null || atLeast(o.destination, "edit");
    if (o.workbook === null) return o.aiBiUser && destinationOk;
    return atLeast(o.workbook, "edit") && (o.destination === null || (atLeast(o.workbook, "manage") && destinationOk));
  },

  /**
   * E11: what a create by slug needs beyond the slug. Required-ness of name, folderId and meta is
   * not shown: this reference names the workbook after its slug; a server may require a name.
   */
  upsertCreateProblem(_sent: { name?: string; folderId?: number | null; meta?: Record<string, unknown> }): string | undefined {
    return undefined;
  },

  /** E11 rule 5: another writer created or deleted the slug's workbook between decide and apply. */
  upsertBranchChanged(decidedId: number | undefined, currentId: number | undefined): boolean {
    return decidedId !== currentId;
  },
};

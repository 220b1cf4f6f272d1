import { isObject } from "./kit/properties.js";
import { LEGACY_TABS, convertLegacyWidgets, widgetProblem, WIDGET_TYPES, draftProblem } from "../dashboard.js";
import { cleanBehaviour } from "../behaviour.js";
import { entryCut, ENTRY_MAX } from "./kit/ranges.js";
import type { Fault } from "../http.js";
import { refusalAnsweredAs } from "./kit/policies.js";
import {
  filedUnderForeignFolderFirst,
  isConflict,
  mergeConcatenatingArrays,
  mergeFifteenDigitNumbers,
  mergeWhenLooselyChanged,
  nameWrittenBeforeRefusal,
  emptyNameDropped,
  nonAsciiEndsStripped,
  entryCutAtLimit,
  nullLayoutRefused,
  refusedMetaAppliedLater,
  stampedNowInWholeSeconds,
  staleDecisionHolder,
  tenantWideHolder,
  rootMoveAsNoMove,
  upsertFindsDeletedDeployments,
  workbookTakenAsFolder,
} from "./kit/upsert.js";
import { atLeast } from "../access.js";

/** The faults of the group upsert (suites/upsert/): each makes a check of it fail, for the reason its `because` names. */
export const upsertFaults: Fault[] = [
  {
    name: "upsert-into-deleted-deployment",
    breaks: "E11 rule 6; Errors 2 (404: deployment missing on upsert)",
    description: "E11 finds a deployment without its deleted mark: after a delete, every other endpoint answers 404, but an upsert makes a workbook there",
    because: { "upsert.deployment.deleted-404": "status" },
    operations: ["deleteDeployment", "upsertWorkbookBySlug"],
    handle: upsertFindsDeletedDeployments,
  },
  {
    name: "slug-ascii-lowercase",
    breaks: "E11 rule 1",
    description: "the slug is lowercased for A-Z only: `Ä-x` and `ä-x` hold two workbooks",
    because: { "upsert.slug.lowercased-non-ascii": "same-id" },
    behaviour: { normaliseSlug: (slug) => slug.trim().replace(/[A-Z]+/g, (s) => s.toLowerCase()) },
  },
  {
    name: "slug-trim-spaces-only",
    breaks: "E11 rule 1",
    description: "the slug is trimmed of spaces only: a tab around it is kept, so the variant misses the workbook and creates another",
    because: { "upsert.slug.any-variant": "slug-reaches" },
    behaviour: { normaliseSlug: (slug) => slug.replace(/^ +| +$/g, "").toLowerCase() },
  },
  {
    name: "meta-merge-drops-large-objects",
    breaks: "E11 rule 2",
    description: "merging meta loses every stored key whose value is an object of more than two keys",
    because: { "upsert.meta.merge-any": "meta-merged" },
    behaviour: {
      mergeMeta: (stored, sent) => ({ ...Object.fromEntries(Object.entries(stored).filter(([, v]) => !(isObject(v) && Object.keys(v).length > 2))), ...sent }),
    },
  },
  {
    name: "draft-first-legacy-tabs-only",
    breaks: "Resources / DashboardWidget (TABS_CONTAINER converted server-side)",
    description: "only the first TABS_CONTAINER widget of a sent draft is converted to a tabbed CONTAINER; later ones are stored as sent",
    because: { "upsert.draft.legacy-tabs-any": "tabs-converted" },
    behaviour: {
      convertDashboardDraft: (draft: any) => {
        if (!isObject(draft) || !Array.isArray(draft.widgets)) return draft;
        const first = draft.widgets.findIndex((w: any) => w?.type === LEGACY_TABS);
        return { ...draft, widgets: draft.widgets.map((w: any, i: number) => (i === first ? convertLegacyWidgets({ widgets: [w] }).widgets[0] : w)) };
      },
    },
  },
  {
    name: "draft-widgets-only-validated",
    breaks: "E11 rule 2 (a meta.dashboardDraft is validated as elsewhere); Resources / DashboardConfig",
    description:
      "a sent meta.dashboardDraft is checked only widget by widget (id, type, position, config): its kind, layout, app, settings and the widgets' other fields are taken whatever their type",
    because: { "upsert.negative.broken-draft": "holder-unchanged" },
    behaviour: { dashboardDraftProblem: (draft) => widgetProblem(draft, [...WIDGET_TYPES, LEGACY_TABS]) },
  },
  {
    name: "upsert-omitted-folder-to-root",
    breaks: "E11 rule 2",
    description: "an update that does not send folderId moves the workbook to the root (name and meta are kept when omitted)",
    because: { "upsert.update.omitted-field-kept": "kept:folderId" },
    behaviour: {
      upsertFields: (current, sent) => ({ ...cleanBehaviour.upsertFields(current, sent), folderId: sent.folderId === undefined ? null : sent.folderId }),
    },
  },
  {
    name: "app-entry-truncated",
    breaks: "Limits (Dashboard app entry: max 255)",
    description: "a dashboard draft's app entry over 255 characters is cut to 255 and stored, the upsert answering 200",
    because: { "upsert.draft.app-entry-over-255-not-stored": "entry-truncated", "upsert.draft.app-entry-over-255-4xx": "client-error" },
    behaviour: {
      dashboardDraftProblem: (draft) => cleanBehaviour.dashboardDraftProblem(entryCut(draft)),
      convertDashboardDraft: (draft) => cleanBehaviour.convertDashboardDraft(entryCut(draft)),
    },
  },
  {
    name: "app-entry-unbounded",
    breaks: "Limits (Dashboard app entry: max 255)",
    description: "a dashboard draft's app entry is taken whatever its length",
    because: { "upsert.draft.app-entry-over-255-not-stored": "entry-stored" },
    behaviour: { dashboardDraftProblem: (draft) => cleanBehaviour.dashboardDraftProblem(entryCut(draft)) },
  },
  {
    name: "entry-refused-at-255",
    breaks: "Limits (Dashboard app entry: max 255)",
    description: "the entry limit is off by one: an app entry of exactly 255 characters is refused with a 400",
    because: { "upsert.draft.app-entry-255-kept": "entry-at-limit-accepted" },
    behaviour: {
      dashboardDraftProblem: (draft) =>
        (draft as any)?.app?.entry?.length >= ENTRY_MAX
          ? `app.entry must be shorter than ${ENTRY_MAX} characters`
          : cleanBehaviour.dashboardDraftProblem(draft),
    },
  },
  {
    name: "entry-truncated-at-255",
    breaks: "Limits (Dashboard app entry: max 255)",
    description: "an app entry of exactly 255 characters is accepted but stored cut to 254 (longer ones are refused as they should be)",
    because: { "upsert.draft.app-entry-255-kept": "entry-kept" },
    behaviour: { convertDashboardDraft: entryCutAtLimit },
  },
  {
    name: "draft-null-responsive-layout-refused",
    breaks: "E11 rule 2; Resources / DashboardWidget (responsiveLayouts: each a position or null)",
    description: "a draft whose widget has a null responsive layout at some breakpoint is refused with a 422; positions alone pass",
    because: { "upsert.draft.valid-accepted": "valid-draft-taken" },
    behaviour: { dashboardDraftProblem: nullLayoutRefused },
  },
  {
    name: "upsert-slug-untrimmed",
    breaks: "E11 rule 1",
    description: "the slug is lowercased but not trimmed before matching",
    because: { "upsert.create.absent-slug-creates": "slug-stored", "upsert.slug.trimmed": "same-id" },
    behaviour: { normaliseSlug: (slug) => slug.toLowerCase() },
  },
  {
    name: "upsert-slug-case-kept",
    breaks: "E11 rule 1",
    description: "the slug is trimmed but not lowercased before matching",
    because: { "upsert.create.absent-slug-creates": "slug-stored", "upsert.slug.lowercased": "same-id" },
    behaviour: { normaliseSlug: (slug) => slug.trim() },
  },
  {
    name: "upsert-always-creates",
    breaks: "E11 rule 2",
    description: "the lookup by slug never finds the existing workbook, so every upsert creates one",
    because: { "upsert.update.same-id": "same-id" },
    behaviour: { slugHolder: () => undefined },
  },
  {
    name: "upsert-meta-replaced",
    breaks: "E11 rule 2",
    description: "meta sent on update replaces the stored metadata instead of being merged into it",
    because: { "upsert.meta.merge-keeps-keys": "merged" },
    behaviour: { mergeMeta: (_stored, sent) => ({ ...sent }) },
  },
  {
    name: "upsert-meta-stored-wins",
    breaks: "E11 rule 2",
    description: "the merge keeps the stored value of a key that is sent again",
    because: { "upsert.meta.merge-replaces-sent-keys": "merged" },
    behaviour: { mergeMeta: (stored, sent) => ({ ...sent, ...stored }) },
  },
  {
    name: "upsert-meta-loosely-equal-kept",
    breaks: "E11 rule 2",
    description:
      "the merge writes a key only when its sent value differs from the stored one as a loose comparison sees it (Python's or JavaScript's ==): false sent for a stored 0, or 1 for a stored true, leaves the stored value",
    because: { "upsert.meta.merge-replaces-sent-keys": "merged" },
    behaviour: { mergeMeta: mergeWhenLooselyChanged },
  },
  {
    name: "upsert-meta-numbers-fifteen-digits",
    breaks: "E11 rule 2; Resources / Workbook (meta: object)",
    description: "meta's numbers are stored as printed with 15 significant digits: the double's largest reads back infinite (null), 2^53 - 1 one less",
    because: { "upsert.meta.number-edges-held": "number-edges-held" },
    behaviour: { mergeMeta: mergeFifteenDigitNumbers },
  },
  {
    name: "upsert-meta-arrays-concatenated",
    breaks: "E11 rule 3",
    description: "the merge appends a sent array to the stored one, so re-applying a request grows it",
    because: { "upsert.idempotent.same-request-no-change": "no-change" },
    behaviour: { mergeMeta: mergeConcatenatingArrays },
  },
  {
    name: "upsert-unsent-fields-reset",
    breaks: "E11 rule 2",
    description: "an update resets the fields it did not send (name to a default, meta to {}, folderId to the root)",
    because: { "upsert.update.name-only-keeps-meta": "meta-kept", "upsert.update.meta-only-keeps-name": "name-kept" },
    behaviour: { upsertFields: (_current, sent) => ({ name: sent.name ?? "Untitled", meta: sent.meta ?? {}, folderId: sent.folderId ?? null }) },
  },
  {
    name: "upsert-draft-unvalidated",
    breaks: "E11 rule 2; Resources / DashboardWidget",
    description: "meta.dashboardDraft is stored without validating its widgets",
    because: {
      "upsert.draft.bad-widget-type-rejected": "not-applied",
      "upsert.draft.widget-without-position-rejected": "schema:Workbook",
      "upsert.draft.invalid-widget-4xx": "client-error",
    },
    behaviour: { dashboardDraftProblem: () => undefined },
  },
  {
    name: "upsert-tabs-container-rejected",
    breaks: "Resources / DashboardWidget (TABS_CONTAINER still accepted)",
    description: "a TABS_CONTAINER widget is rejected as an unknown type",
    because: { "upsert.draft.tabs-container-accepted": "status", "upsert.draft.tabs-container-converted": "status" },
    behaviour: { dashboardDraftProblem: (draft) => draftProblem(draft, WIDGET_TYPES) },
  },
  {
    name: "upsert-tabs-container-unconverted",
    breaks: "Resources / DashboardWidget (TABS_CONTAINER converted server-side)",
    description: "a TABS_CONTAINER widget is stored as sent, not as a CONTAINER with layout tabs",
    because: { "upsert.draft.tabs-container-accepted": "tabs-converted", "upsert.draft.tabs-container-converted": "tabs-converted" },
    behaviour: { convertDashboardDraft: (draft) => draft },
  },
  {
    name: "upsert-tabs-container-to-parent",
    breaks: "Resources / DashboardWidget (a tabbed container is a CONTAINER with config.layout tabs)",
    description:
      "a TABS_CONTAINER widget is converted into a PARENT widget, not a tabbed CONTAINER: a choice the spec leaves open, judged by SHOULD checks only",
    because: { "upsert.draft.tabs-container-converted": "tabs-converted", "upsert.draft.legacy-tabs-any": "tabs-converted" },
    spares: ["upsert.draft.tabs-container-accepted"],
    behaviour: {
      convertDashboardDraft: (draft: any) =>
        Array.isArray(draft?.widgets) ? { ...draft, widgets: draft.widgets.map((w: any) => (w?.type === LEGACY_TABS ? { ...w, type: "PARENT" } : w)) } : draft,
    },
  },
  {
    name: "upsert-touch-on-no-op",
    breaks: "E11 rule 3",
    description: "every upsert stamps updatedAt now, in whole seconds, even one that changed nothing (a second write within the same second shows no change)",
    because: { "upsert.idempotent.updated-at-kept": "updated-at-kept" },
    routes: ["E11"],
    handle: stampedNowInWholeSeconds,
  },
  {
    name: "upsert-access-unchecked",
    breaks: "E11 rule 4; Authentication 4",
    description: "upserts are applied without checking edit, manage or destination access",
    because: {
      "upsert.access.update-needs-edit": "client-error",
      "upsert.access.update-forbidden-403": "status",
      "upsert.access.move-needs-destination-edit": "client-error",
    },
    behaviour: { upsertAllowed: () => true },
  },
  {
    name: "upsert-move-edit-access-enough",
    breaks: "E11 rule 4; Authentication 4 (with folderId also manage access)",
    description: "an update that names folderId is checked for edit access to the workbook and the destination only, not manage access",
    because: { "upsert.access.move-needs-manage": "client-error" },
    behaviour: {
      upsertAllowed: (o) =>
        o.workbook === null ? cleanBehaviour.upsertAllowed(o) : atLeast(o.workbook, "edit") && (o.destination === null || atLeast(o.destination, "edit")),
    },
  },
  {
    name: "upsert-root-move-skips-manage",
    breaks: "E11 rule 4; Authentication 4 (with folderId also manage access)",
    description: "an update with folderId null is checked as one without folderId: a caller with edit and without manage access moves a workbook to the root",
    because: { "upsert.access.move-needs-manage": "client-error" },
    routes: ["E11"],
    handle: rootMoveAsNoMove,
  },
  {
    name: "upsert-refused-move-renames",
    breaks: "E11 rules 4 and 5 (access-checked before it is applied)",
    description: "an update refused for its folderId (no manage access) has already written the name it sent",
    because: { "upsert.access.move-needs-manage": "not-applied" },
    routes: ["E11"],
    handle: nameWrittenBeforeRefusal,
  },
  {
    name: "upsert-conflict-500",
    breaks: "E11 rule 5; Errors 2",
    description: "a create/update decision that changed concurrently is answered 500 instead of 409",
    because: { "upsert.concurrency.conflict-answers": "status" },
    routes: ["E11"],
    handle: refusalAnsweredAs(500, isConflict),
  },
  {
    name: "upsert-conflict-400",
    breaks: "E11 rule 5; Errors 2",
    description: "a create/update decision that changed concurrently is answered 400, a request error the client would not retry, instead of 409",
    because: { "upsert.concurrency.conflict-answers": "status" },
    routes: ["E11"],
    handle: refusalAnsweredAs(400, isConflict),
  },
  {
    name: "upsert-race-applied-twice",
    breaks: "E11 rule 5",
    description: "the decision is applied even when another writer created or deleted the slug's workbook meanwhile (two workbooks end up with one slug)",
    because: { "upsert.concurrency.one-workbook-per-slug": "one-holder" },
    behaviour: { upsertBranchChanged: () => false },
  },
  {
    name: "upsert-create-race-duplicates",
    breaks: "E11 rules 2 and 5",
    description: "a decision to create is never checked again before it is applied: upserts racing on a slug no workbook holds each create a workbook with it",
    because: { "upsert.concurrency.absent-slug-one-workbook": "one-holder" },
    behaviour: { upsertBranchChanged: (decided, holder) => decided !== undefined && cleanBehaviour.upsertBranchChanged(decided, holder) },
  },
  {
    name: "upsert-slug-prefix-match",
    breaks: "E11 rules 1 and 2",
    description: "the slug is looked up by prefix (LIKE 'slug%'): a slug that is a prefix of a stored one updates and renames that workbook",
    because: { "upsert.slug.prefix-is-another-slug": "own-workbook" },
    behaviour: { slugHolder: (workbooks, slug) => cleanBehaviour.slugHolder(workbooks, slug) ?? workbooks.find((w) => w.slug?.startsWith(slug)) },
  },
  {
    name: "slug-unique-tenant-wide",
    breaks: "Resources / Workbook (slug: deployment-scoped identity)",
    description: "a slug is looked up across the tenant: the slug of another deployment's workbook is taken as held, and its create answers 409",
    because: { "upsert.slug.per-deployment": "slug-per-deployment" },
    behaviour: { decisionHolder: tenantWideHolder },
  },
  {
    name: "upsert-stale-decision",
    breaks: "E11 rule 5 (409 is transient)",
    description: "decisions read a slug index that is never refreshed: once its workbook is deleted, every upsert of the slug conflicts for good",
    because: { "upsert.concurrency.conflict-retry-succeeds": "status" },
    behaviour: { decisionHolder: staleDecisionHolder },
  },
  {
    name: "upsert-unknown-deployment-fallback",
    breaks: "E11 rule 6",
    description: "an unknown deployment id falls back to the first deployment, where the workbook is created",
    because: { "upsert.deployment.unknown-404": "status" },
    behaviour: { upsertDeployment: (deployments, rawId) => cleanBehaviour.upsertDeployment(deployments, rawId) ?? deployments[0] },
  },
  {
    name: "upsert-409-applies",
    breaks: "E11 rule 5 (the request is not applied)",
    description:
      "an upsert whose decision changed concurrently answers 409 upsert_branch_changed, but its meta is applied to the workbook that holds the slug now, or, when none does, to the next one that takes it",
    because: { "upsert.concurrency.conflict-not-applied": "conflict-applied" },
    routes: ["E11"],
    // Applied whatever the interleaving: a refused meta is never dropped once applied, it is applied
    // again after every later upsert of the slug to whichever workbook holds it then. A holder the
    // check never hears of (the answer that named it lost, or the workbook deleted after the meta
    // reached it) cannot hide it: the check's last upsert, sent alone after every answer, reaches it.
    handle: refusedMetaAppliedLater,
  },
  {
    name: "upsert-create-role-unchecked",
    breaks: "E11 rule 4 (create: AI BI User or higher); Authentication 4",
    description: "a caller below the AI BI User role may create a workbook by slug",
    because: { "upsert.access.viewer-create-refused": "role-refused" },
    routes: ["E11"],
    handle: ({ req, next }) => {
      req.user = { ...req.user, aiBiUser: true };
      return next();
    },
  },
  {
    name: "upsert-answer-echoes-sent-meta",
    breaks: "E11 (Response: Workbook); E11 rule 2",
    description: "an update stores meta merged, but answers with the meta sent, as if it had replaced the stored one",
    because: { "upsert.answer.is-the-stored-workbook": "answer-as-stored" },
    routes: ["E11"],
    respond: ({ status, body, req }) => (status === 200 && req.body?.meta && typeof req.body.meta === "object" ? { ...body, meta: req.body.meta } : body),
  },
  {
    name: "upsert-empty-name-ignored",
    breaks: "E11 rule 2",
    description: 'a name "" is read as not sent: the upsert answers 200 and the workbook keeps its old name',
    because: { "upsert.update.empty-name": "name-as-sent" },
    routes: ["E11"],
    handle: emptyNameDropped,
  },
  {
    name: "upsert-name-non-ascii-ends-stripped",
    breaks: "E11 rule 2",
    description: "a name's non-ASCII characters at either end are dropped, on create and update; the upsert answers 200",
    because: { "upsert.name.non-ascii-as-sent": "name-as-sent" },
    routes: ["E11"],
    handle: nonAsciiEndsStripped,
  },
  {
    name: "upsert-destination-any-item",
    breaks: "E11 rule 4",
    description: "a folderId naming a workbook of the deployment is taken as the destination folder: the workbook is filed under another workbook",
    because: { "upsert.folder.other-kind": "client-error" },
    routes: ["E11"],
    handle: workbookTakenAsFolder,
  },
  {
    name: "upsert-foreign-folder-filed",
    breaks: "E11 rule 2",
    description: "a folderId of another deployment's folder is refused (404) only after the workbook holding the slug was filed under it",
    because: { "upsert.folder.other-deployment": "refused-unchanged" },
    routes: ["E11"],
    handle: filedUnderForeignFolderFirst,
  },
  {
    name: "upsert-create-destination-unchecked",
    breaks: "E11 rule 4 (a request including folderId: edit access to the destination folder)",
    description: "a create by slug checks the caller's role only: it places the new workbook in a folder the caller may only read",
    because: { "upsert.access.create-into-read-only-folder": "client-error" },
    behaviour: { upsertAllowed: (o) => (o.workbook === null ? o.aiBiUser : cleanBehaviour.upsertAllowed(o)) },
  },
];

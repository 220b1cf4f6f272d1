import { group } from "../../core/check/check.js";
import { readOnlyFolder } from "../lib/read-only-folder.js";
import { editableFolder } from "../lib/editable-folder.js";
import { NotExercised } from "../../core/model/outcome.js";
import { NON_ASCII_CASE_PAIRS } from "../../core/api/input-domain.js";
import { LOOSELY_EQUAL_STRINGS } from "../../core/api/number-spellings.js";
import type { CheckContext } from "../../core/check/context.js";
import { DEFAULT_LIMIT, DEPLOYMENTS_PATH, deploymentsOf } from "../../core/transport/deployments.js";
import { walkOffset, wholeList } from "../../core/transport/pagination.js";
import { inFolder } from "../lib/workbook-place.js";
import { documented, expectAnswerIsStored, ownWorkbook, putBySlug, readWorkbook, upsertContent, widgetPosition } from "../lib/workbook-writes.js";

/** A date-time of whole seconds (no fraction): two writes within one second stamp the same time. */
const wholeSeconds = (t: unknown) => typeof t === "string" && /T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:?\d{2})?$/i.test(t);
/** Past the next whole second of the server's clock, with a margin for the request in flight. */
const WHOLE_SECOND_MS = 1_150;

/** The same request applied to a fresh slug, then once more (a second later where the server stamps whole seconds): the record after each (E11 rule 3). */
async function applyTwice(ctx: CheckContext) {
  const dep = ctx.fixture("deployment").id;
  const request = {
    name: ctx.scratch.name("again"),
    meta: {
      tags: ["a", "b"],
      nested: { x: 1 },
      dashboardDraft: {
        kind: "CLASSIC",
        title: "again",
        widgets: [{ id: "w-text", type: "TEXT", position: widgetPosition(0, 0, 4, 2), config: { text: "hi" } }],
      },
    },
  };
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, request);
  const applied = Date.now();
  const { workbook: once } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
  // A server that stamps whole seconds shows a second write's updatedAt only a second later.
  if (wholeSeconds(once.updatedAt)) await new Promise((r) => setTimeout(r, Math.max(0, WHOLE_SECOND_MS - (Date.now() - applied))));
  ctx.expect.ok(await putBySlug(ctx.scratch, ctx.api, dep, slug, request), "Workbook");
  const { workbook: twice, res } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
  return { once, twice, res };
}

/** The main token's workbook in fixtures.readOnlyFolder, and the readOnly token's attempt to update it (E11 rule 4). */
async function readOnlyUpdate(ctx: CheckContext) {
  const dep = ctx.fixture("deployment").id;
  const folderId = (await readOnlyFolder(ctx, dep)).id;
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, { folderId, meta: { owner: "main" } });
  const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
  const res = await putBySlug(ctx.scratch, ctx.as("readOnly"), dep, slug, { name: ctx.scratch.name("taken-over"), meta: { owner: "readOnly" } });
  const { workbook: after, res: readRes } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
  return { res, before, after, readRes };
}

/**
 * Stored values and the value sent after each, which a server's language may call equal (Python:
 * 0 == False, 1 == True; PHP: "10" == "1e1", "1" == "01", 1 == "1") or one of its decoders reads
 * alike (PHP: [] and {} as one array): a server that writes a key only when its value "changed",
 * or a request only when the merged meta "changed", keeps the first. A model sequence found the
 * Python server keeping 0 for a false sent after it.
 */
const REPLACED: Record<string, [unknown, unknown]> = {
  a: [1, 3],
  zero: [0, false],
  one: [true, 1],
  ...Object.fromEntries(LOOSELY_EQUAL_STRINGS.map((pair, i) => [`spelling${i}`, pair])),
  text: [1, "1"],
  empty: [[], {}],
};

export const upsertChecks = group("upsert", [
  {
    id: "upsert.create.absent-slug-creates",
    spec: "E11 rules 1 and 2",
    level: "MUST",
    title: "An absent slug creates a workbook with the sent fields, holding the slug normalised",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const slug = ctx.scratch.slug("create");
      const name = ctx.scratch.name("created");
      const res = await putBySlug(ctx.scratch, ctx.api, dep, `  ${slug.toUpperCase()} `, { name, meta: { origin: "create" } });
      const created = ctx.expect.ok(res, "Workbook");
      ctx.expect.equal(created.type, "WORKBOOK", "the type of the created item", { res: res, reason: "created-type" });
      ctx.expect.equal(String(created.deploymentId), dep, "the deployment of the created workbook", { res: res, reason: "created-deployment" });
      ctx.expect.equal(created.name, name, "the name sent", { res: res, reason: "name" });
      ctx.expect.equal(created.meta?.origin, "create", "the meta sent", { res: res, reason: "meta-sent" });
      if (created.slug !== undefined) ctx.expect.equal(created.slug, slug, "the slug stored: trimmed and lowercased", { res, reason: "slug-stored" });
      const again = await putBySlug(ctx.scratch, ctx.api, dep, slug, { name });
      ctx.expect.equal(ctx.expect.ok(again, "Workbook").id, created.id, "the normalised slug reaches the created workbook", {
        res: again,
        reason: "slug-reaches",
      });
    },
  },
  {
    id: "upsert.update.same-id",
    spec: "E11 rule 2",
    level: "MUST",
    title: "A slug that exists updates its workbook (same id) instead of creating another",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const name = ctx.scratch.name("renamed");
      const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { name });
      ctx.expect.equal(ctx.expect.ok(res, "Workbook").id, workbook.id, "the id answered for an existing slug", { res, reason: "same-id" });
      const { workbook: stored, res: readRes } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      ctx.expect.equal(stored.name, name, "the name of the updated workbook", { res: readRes, reason: "name" });
    },
  },
  {
    id: "upsert.answer.is-the-stored-workbook",
    spec: "E11 (Response 200: Workbook); E11 rule 2",
    level: "MUST",
    title: "The Workbook an upsert answers, on create and on update, is the workbook as E9 reads it next",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const slug = ctx.scratch.slug("answer");
      const created = await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: ctx.scratch.name("answer"), meta: { step: 1, kept: true } });
      await expectAnswerIsStored(ctx, ctx.api, dep, ctx.require(created, "E11", "creating a workbook of its own"), created, "the create's answer");
      const updated = await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: ctx.scratch.name("answered"), meta: { step: 2 } });
      await expectAnswerIsStored(ctx, ctx.api, dep, ctx.expect.ok(updated, "Workbook"), updated, "the update's answer");
    },
  },
  {
    id: "upsert.slug.trimmed",
    spec: "E11 rule 1",
    level: "MUST",
    title: "The slug is trimmed before matching: surrounding spaces reach the same workbook",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const res = await putBySlug(ctx.scratch, ctx.api, dep, `  ${slug}  `, { name: workbook.name });
      ctx.expect.equal(ctx.expect.ok(res, "Workbook").id, workbook.id, `the id answered for "  ${slug}  "`, { res, reason: "same-id" });
    },
  },
  {
    id: "upsert.slug.prefix-is-another-slug",
    spec: "E11 rules 1 and 2",
    level: "MUST",
    title: "A slug that is a prefix of a stored slug, or extends one, is another slug: it gets a workbook of its own and the stored one is left as it was",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      // A lookup by prefix (LIKE 'slug%', startsWith) finds the stored slug for the shorter one; by containment, for the longer.
      for (const other of [slug.slice(0, -2), `${slug}-more`]) {
        const res = await putBySlug(ctx.scratch, ctx.api, dep, other, { name: ctx.scratch.name("other-slug") });
        const reached = ctx.expect.ok(res, "Workbook").id;
        ctx.expect.that(reached !== workbook.id, `${JSON.stringify(other)} reaches a workbook of its own, not ${workbook.id} of ${JSON.stringify(slug)}`, {
          reason: "own-workbook",
          expected: `an id other than ${workbook.id}`,
          got: reached,
          res,
        });
      }
      const { workbook: after, res } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      const kept = (w: typeof before) => ({ name: w.name, slug: w.slug, meta: w.meta, folderId: w.folderId });
      ctx.expect.equal(kept(after), kept(before), `workbook ${workbook.id} of ${JSON.stringify(slug)} after upserts of the other slugs`, {
        res,
        reason: "holder-unchanged",
      });
    },
  },
  {
    id: "upsert.slug.lowercased",
    spec: "E11 rule 1",
    level: "MUST",
    title: "The slug is lowercased before matching: an uppercase variant reaches the same workbook",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const res = await putBySlug(ctx.scratch, ctx.api, dep, slug.toUpperCase(), { name: workbook.name });
      ctx.expect.equal(ctx.expect.ok(res, "Workbook").id, workbook.id, `the id answered for ${slug.toUpperCase()}`, { res, reason: "same-id" });
    },
  },
  {
    id: "upsert.slug.lowercased-non-ascii",
    spec: "E11 rule 1",
    level: "MUST",
    title: "The slug is lowercased before matching, letters outside ASCII too: `ÄÉ` reaches the workbook of `äé`",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // The case pairs of the slug's domain that lie outside ASCII (core/api/input-domain.ts): lowercasing A-Z only misses them.
      const slug = `${ctx.scratch.slug("wb")}-${NON_ASCII_CASE_PAIRS.join("")}`;
      const made = await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: ctx.scratch.name("workbook") });
      // A missing route refuses every slug: that is E11's owner's failure, not a refusal of these letters.
      ctx.requireRoute(made, "E11", "creating a workbook whose slug has letters outside ASCII");
      // The spec puts no bound on a slug's letters, nor says one outside ASCII must be taken.
      if (made.status >= 400 && made.status < 500) throw new NotExercised(`a slug with letters outside ASCII was refused (${made.status})`);
      const workbook = ctx.require(
        made,
        "E11",
        "creating a workbook whose slug has letters outside ASCII",
        (r) => r.isJson && Number.isSafeInteger(r.body?.id),
      );
      const upper = slug.toUpperCase();
      const res = await putBySlug(ctx.scratch, ctx.api, dep, upper, { name: workbook.name });
      ctx.expect.equal(ctx.expect.ok(res, "Workbook").id, workbook.id, `the id answered for ${upper}`, { res, reason: "same-id" });
    },
  },
  {
    id: "upsert.update.name-only-keeps-meta",
    spec: "E11 rule 2",
    level: "MUST",
    title: "An update that sends only name leaves meta and folderId as they were",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, { meta: { keep: "me", nested: { n: 1 } } });
      const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      ctx.expect.ok(await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: ctx.scratch.name("renamed") }), "Workbook");
      const { workbook: after, res } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      ctx.expect.equal(after.meta, before.meta, "meta after an update that sent only name", { res, reason: "meta-kept" });
      ctx.expect.equal(after.folderId, before.folderId, "folderId after an update that sent only name", { res: res, reason: "kept:folderId" });
    },
  },
  {
    id: "upsert.update.meta-only-keeps-name",
    spec: "E11 rule 2",
    level: "MUST",
    title: "An update that sends only meta leaves name and folderId as they were",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      ctx.expect.ok(await putBySlug(ctx.scratch, ctx.api, dep, slug, { meta: { added: true } }), "Workbook");
      const { workbook: after, res } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      ctx.expect.equal(after.name, before.name, "name after an update that sent only meta", { res, reason: "name-kept" });
      ctx.expect.equal(after.folderId, before.folderId, "folderId after an update that sent only meta", { res: res, reason: "kept:folderId" });
    },
  },
  {
    id: "upsert.update.omitted-field-kept",
    spec: "E11 rule 2",
    level: "MUST",
    title:
      "For each body field (name, folderId, meta), an update that sends the other two leaves it as it was; the workbook sits in a folder, so that a folderId reset to the root shows",
    needs: ["writes", "fixture:deployment", "fixture:workbookInFolder"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const folderId = ctx.fixture("workbookInFolder").folderId;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, { folderId, meta: { kept: "before" } });
      // Each update sends every field but one, with a value of its own where it may change (folderId as it stands: a move needs another folder).
      const omissions: Record<string, Record<string, unknown>> = {
        name: { folderId, meta: { kept: "after-name" } },
        folderId: { name: ctx.scratch.name("renamed"), meta: { kept: "after-folder" } },
        meta: { name: ctx.scratch.name("renamed-again"), folderId },
      };
      for (const [field, body] of Object.entries(omissions)) {
        const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
        ctx.expect.ok(await putBySlug(ctx.scratch, ctx.api, dep, slug, body), "Workbook");
        const { workbook: after, res } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
        const [was, now]: Record<string, unknown>[] = [before, after];
        ctx.expect.equal(now[field], was[field], `${field} after an update that sent ${Object.keys(body).join(" and ")} but not ${field}`, {
          res,
          reason: `kept:${field}`,
        });
      }
    },
  },
  {
    id: "upsert.meta.merge-keeps-keys",
    spec: "E11 rule 2",
    level: "MUST",
    title: "meta is merged into the stored metadata: keys not sent again are kept",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, { meta: { a: 1 } });
      ctx.expect.ok(await putBySlug(ctx.scratch, ctx.api, dep, slug, { meta: { b: 2 } }), "Workbook");
      const { workbook: after, res } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      ctx.expect.equal({ a: after.meta?.a, b: after.meta?.b }, { a: 1, b: 2 }, "meta after sending {a: 1}, then {b: 2}", { res, reason: "merged" });
    },
  },
  {
    id: "upsert.meta.merge-replaces-sent-keys",
    spec: "E11 rule 2",
    level: "MUST",
    title:
      'meta is merged key by key: a key sent again replaces its stored value, whatever the two values (3 for 1, false for 0, 1 for true, "1e1" for "10", "01" for "1", "1" for 1, {} for [])',
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const first = Object.fromEntries(Object.entries(REPLACED).map(([k, [was]]) => [k, was]));
      const then = Object.fromEntries(Object.entries(REPLACED).map(([k, [, now]]) => [k, now]));
      const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, { meta: { ...first, b: 2 } });
      // Each key alone, so that nothing else the request sends differs: a server that compares the merged
      // meta with the stored one as a whole (Python's ==) took {zero: false} for no change.
      for (const [k, now] of Object.entries(then)) ctx.expect.ok(await putBySlug(ctx.scratch, ctx.api, dep, slug, { meta: { [k]: now } }), "Workbook");
      const { workbook: after, res } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
      const read = Object.fromEntries([...Object.keys(then), "b"].map((k) => [k, after.meta?.[k]]));
      ctx.expect.equal(read, { ...then, b: 2 }, `meta after sending ${JSON.stringify({ ...first, b: 2 })}, then each key of ${JSON.stringify(then)} alone`, {
        res,
        reason: "merged",
      });
    },
  },
  {
    id: "upsert.idempotent.same-request-no-change",
    spec: "E11 rule 3",
    level: "MUST",
    title: "Re-applying the same request changes nothing (updatedAt aside)",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const { once, twice, res } = await applyTwice(ctx);
      ctx.expect.equal(documented(twice), documented(once), "the workbook after the same request was applied again", { res, reason: "no-change" });
    },
  },
  {
    id: "upsert.idempotent.updated-at-kept",
    spec: "E11 rule 3",
    level: "SHOULD",
    title: "Re-applying the same request leaves updatedAt as it was",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const { once, twice, res } = await applyTwice(ctx);
      ctx.expect.equal(twice.updatedAt, once.updatedAt, "updatedAt after a request that changed nothing", { res, reason: "updated-at-kept" });
    },
  },
  {
    id: "upsert.access.update-needs-edit",
    spec: "E11 rule 4; Authentication 4",
    level: "MUST",
    title: "An update without edit access to the workbook is rejected with a 4xx and changes nothing",
    needs: ["writes", "fixture:deployment", "token:readOnly"],
    async run(ctx) {
      const { res, before, after, readRes } = await readOnlyUpdate(ctx);
      ctx.expect.clientError(res, "the readOnly token's update of a workbook it may only read is rejected");
      ctx.expect.equal(upsertContent(after), upsertContent(before), "the workbook after the rejected update", { res: readRes, reason: "no-change" });
    },
  },
  {
    id: "upsert.access.update-forbidden-403",
    spec: "E11 rule 4; Authentication 4; published docs (403: valid credential, not allowed)",
    level: "SHOULD",
    title: "An update without edit access to the workbook is answered 403",
    needs: ["writes", "fixture:deployment", "token:readOnly"],
    async run(ctx) {
      const { res } = await readOnlyUpdate(ctx);
      ctx.expect.status(res, 403, "the readOnly token's update of a workbook it may only read");
    },
  },
  {
    id: "upsert.access.move-needs-destination-edit",
    spec: "E11 rule 4; Authentication 4",
    level: "MUST",
    title: "folderId naming a folder the caller may not edit is rejected with a 4xx and the workbook stays where it was",
    needs: ["writes", "fixture:deployment", "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const editable = (await editableFolder(ctx, dep)).id;
      const readOnly = ctx.as("readOnly");
      const { slug, workbook } = await ownWorkbook(ctx, readOnly, dep, { folderId: editable });
      const res = await putBySlug(ctx.scratch, readOnly, dep, slug, { folderId: (await readOnlyFolder(ctx, dep)).id });
      ctx.expect.clientError(res, "moving its own workbook into fixtures.readOnlyFolder (read access only) is rejected");
      const stayed = await inFolder(ctx, ctx.api, dep, workbook.id, editable);
      ctx.expect.that(stayed.inside, `the workbook is still in the editable folder ${editable} after the rejected move (read from ${stayed.how})`, {
        expected: `in folder ${editable}`,
        got: `elsewhere (${stayed.how})`,
        res: stayed.res ?? res,
        reason: "not-applied",
      });
    },
  },
  {
    id: "upsert.deployment.unknown-404",
    spec: "E11 rule 6; Errors 2",
    level: "MUST",
    title: "An upsert under a deployment that does not exist is a 404",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      // A 404 proves nothing from a server without the route: creating under a known deployment shows it is there.
      await ownWorkbook(ctx, ctx.api, ctx.fixture("deployment").id);
      const listed = wholeList(await walkOffset(ctx.api, DEPLOYMENTS_PATH, DEFAULT_LIMIT, deploymentsOf), "deployments");
      const known = new Set(listed.items.map((d: any) => String(d?.id)));
      let id = 900_000_000;
      while (known.has(String(id))) id++;
      const res = await putBySlug(ctx.scratch, ctx.api, String(id), ctx.scratch.slug("nowhere"), { name: ctx.scratch.name("nowhere") });
      ctx.expect.status(res, 404, `upsert under deployment ${id}, which E1 does not list`);
    },
  },
]);

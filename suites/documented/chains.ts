import type { CheckContext } from "../../core/check/context.js";
import { statusLine } from "../../core/api/expect.js";
import type { Response } from "../../core/transport/http.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import { propertySeed } from "../../core/run/property.js";
import { walkAgainUntil } from "../../core/transport/pagination.js";
import { listHolds } from "./list-holds.js";
import { propertiesOf, recordOf } from "../../core/served/answers.js";
import type { DocumentSchemas } from "../../core/served/document-schemas.js";
import type { Operation } from "../../core/served/served-document.js";
import { carriesPrefix, listAll } from "../../core/ledger/ownership.js";
import { specSectionOf } from "../../core/api/spec-operations.js";
import { namedIn } from "./refusals.js";
import { contradiction, mayWrite, type OptIn, optInOf, writeClass } from "../lib/documented-requests.js";
import type { PathIds } from "../lib/path-ids.js";
import { NotGenerated } from "../../generators/index.js";
import { atOnce } from "../lib/at-once.js";
import {
  type Registered,
  bodyFor,
  drawnBody,
  createdId,
  idPlaceholder,
  itemPath,
  listPath,
  namesOwnObject,
  readsAsOwn,
  referencesOf,
  madeSince,
  removeLater,
  requestSchema,
  type Resource,
  resourcesOf,
} from "../lib/documented-resources.js";

/**
 * Issue 21: every resource the document shows, used as a client would: create, read, update,
 * find in its list, then (newest first, so that a child goes before its parent) delete and read
 * 404. A sub-resource is made under a parent the run made (embed tenant -> group -> member), and a
 * body property named like another resource's placeholder (`integrationId`) names the run's own.
 */
export interface ChainEnv {
  ops: Operation[];
  ids: PathIds;
  deploymentId: string;
  schemas: DocumentSchemas;
}

export interface ChainFindings {
  fail(what: string, detail: { reason: ReasonKey; expected: string; got: string; res?: Response }): void;
}

export interface ChainOutcome {
  /** Resources whose whole chain ran. */
  exercised: number;
  /** Creates the run could not build a valid body for, each with the schema's complaint. */
  unbuilt: string[];
}

const where = (op: Operation) => `${specSectionOf(op.key) ?? "not in the spec"}: ${op.method} ${op.path}`;

/** Creates ordered so that what one names (a parent in its path, an object in its body) is made before it. */
export function ordered(resources: Resource[]): Resource[] {
  const producers = new Set(resources.map(idPlaceholder).filter((n): n is string => n !== undefined));
  const made = new Set<string>();
  const out: Resource[] = [];
  let rest = [...resources];
  while (rest.length) {
    const ready = rest.filter((r) => referencesOf(r, producers).every((n) => made.has(n) || n === idPlaceholder(r)));
    // A cycle of references: the rest as the document lists them.
    const next = ready.length ? ready : rest;
    for (const r of next) {
      out.push(r);
      const name = idPlaceholder(r);
      if (name) made.add(name);
    }
    rest = rest.filter((r) => !next.includes(r));
  }
  return out;
}

interface Link {
  r: Resource;
  readPath?: string;
  removePath?: string;
  listPath?: string;
  id: string;
  /**
   * Its reads showed the run's name: after its delete, an object of the same id without that name
   * is another one (a server may give a freed id again, to what a check beside this one makes).
   */
  named?: boolean;
  /** Its entry in the ledger: settled once the chain deleted it and read it gone. */
  registered: Registered;
}

/**
 * The actions a document places on one object of a resource, sent under the same opt-in as its
 * create (a deployment's setup wizard, `/deployments/{id}/creation-step/advance`): POSTs below its
 * item path that name no other object and create nothing.
 */
function actionsOn(r: Resource, ops: Operation[], optIn: OptIn | undefined): Operation[] {
  const item = (r.remove ?? r.read)?.path;
  if (!item || !optIn) return [];
  return ops.filter((o) => o.method === "POST" && o.path.startsWith(`${item}/`) && !/\{/.test(o.path.slice(item.length)) && optInOf(o) === optIn);
}

/**
 * Every resource chain the run may write: under `optIn`, only the resources of that opt-in
 * (a deployment of the run's own), with the actions on what they made.
 */
export async function runChains(ctx: CheckContext, env: ChainEnv, findings: ChainFindings, optIn?: OptIn): Promise<ChainOutcome> {
  const step = async (
    findings: ChainFindings,
    op: Operation | undefined,
    path: string | undefined,
    send: (path: string) => Promise<Response>,
    reason: ReasonKey,
    what: string,
  ) => {
    if (!op || !path) return true;
    const res = await send(path);
    if (ok(env, op, res)) return true;
    findings.fail(`${where(op)}: ${what}`, { reason, expected: "a 2xx its document lists, with its documented body", got: statusLine(res), res });
    return false;
  };
  // Ids of what the run made and a read showed as its own, by the placeholder that names them: a
  // record naming one of them, or a path under one, is the run's too. What is only pinned
  // (env.ids) may be an id an answer named, and an id an answer named is no proof.
  const confirmed = new Map<string, string>();
  const confirmedOwn = (name: string) => confirmed.get(name);
  /** One resource's chain up to its delete: the link to delete by, or undefined where the chain broke (a finding) or could not start. */
  const chainOf = async (r: Resource, findings: ChainFindings, unbuilt: string[]): Promise<Link | undefined> => {
    const collection = await env.ids.fill(r.create.path);
    if (!collection) return undefined;
    const seed = propertySeed(ctx.settings.seed, `${ctx.checkId}:${r.create.key}`);
    const body = drawnBody(() => bodyFor(ctx, r.create, seed, (n) => env.ids.pinnedAs(n)));
    if (body instanceof NotGenerated) {
      unbuilt.push(`${where(r.create)}: ${body.message}`);
      return undefined;
    }
    const broken = env.schemas.errors(requestSchema(r.create), body);
    if (broken?.length) {
      unbuilt.push(`${where(r.create)}: no valid body was generated (${broken.join("; ")})`);
      return undefined;
    }
    // A body with no field to carry the run's name (a policy): what it made is told by its id, one the list did not hold before.
    const madeNow = carriesPrefix(body, ctx.scratch.prefix) ? () => false : await madeSince(ctx, collection);
    const created = await ctx.api.post(collection, body);
    // A drawn id of another object (a workbookId the run did not take from an object) names nothing
    // the server holds: a refusal for it, a 404 or one whose words name that field, says nothing of the create.
    const unresolved = drawnReferences(body, (n) => env.ids.pinnedAs(n)).filter((k) => created.status === 404 || created.text.includes(k));
    if (created.status >= 400 && created.status < 500 && unresolved.length) {
      unbuilt.push(
        `${where(r.create)}: the server refused the drawn ${unresolved.join(", ")} (${statusLine(created)}): no object of the run's own to name there`,
      );
      return undefined;
    }
    if (created.status >= 400 && created.status < 500) {
      findings.fail(`${where(r.create)}: a create whose body is valid under its documented schema is refused${namedIn(created, body)}`, {
        reason: "valid-create-refused",
        expected: "a 2xx: the body is valid under the documented schema",
        got: statusLine(created),
        res: created,
      });
      return undefined;
    }
    const c = contradiction(r.create, created, env.schemas);
    if (c) {
      findings.fail(`${where(r.create)}: ${c.what}`, { ...c, res: created });
      return undefined;
    }
    const id = createdId(r, created);
    if (!id) {
      findings.fail(`${where(r.create)}: the answer to a create names no id of what it made`, {
        reason: "no-id",
        expected: "an id where the document says (a link's expression, the record's id, a Location header)",
        got: statusLine(created),
        res: created,
      });
      return undefined;
    }
    const pathOf = async (op: Operation | undefined) => (op ? await itemPath(env.ids, op, id) : undefined);
    const [readPath, updatePath, removePath] = [await pathOf(r.read), await pathOf(r.update), await pathOf(r.remove)];
    // The id came from an answer: what it names is updated and deleted only once a read shows the
    // object the check made: its prefix, or a field naming an object the check made (the
    // integration of a token), or it sits under a parent the check made (a tenant's group).
    const underOwnParent = [...r.create.path.matchAll(/\{([^}]+)\}/g)].some((m) => confirmedOwn(m[1]) !== undefined);
    const registered = removeLater(
      ctx,
      r,
      removePath,
      created,
      env.deploymentId,
      (record) => underOwnParent || namesOwnObject(record, confirmedOwn) || madeNow(record),
    );
    if (!registered) return undefined;
    const name = idPlaceholder(r);
    if (name) env.ids.pin(name, id);
    const listPathOf = removePath ?? readPath;
    // Until a read shows it as the run's own, what was made is removed by the ledger only, after its own read-back.
    const link: Link = { r, readPath, removePath, listPath: r.list && listPathOf ? listPath(r, listPathOf) : undefined, id, registered };
    if (!(await step(findings, r.read, readPath, (p) => ctx.api.get(p), "read-after-create", `what ${r.create.method} ${r.create.path} made cannot be read`)))
      return undefined;
    if (!underOwnParent) {
      const read = readPath ? await ctx.api.get(readPath) : undefined;
      const listedAll = async () => ({ status: 200, isJson: true, body: await listAll(ctx.api, link.listPath ?? collection) });
      // A read that does not show the run's name (a deployment's settings) leaves the list to show it.
      const shown = read && (readsAsOwn(ctx, read, id) || !link.listPath) ? read : await walkAgainUntil(listedAll, (whole) => readsAsOwn(ctx, whole, id));
      const record = read?.isJson ? recordOf(r.read!, read) : undefined;
      link.named = readsAsOwn(ctx, shown, id);
      if (!namesOwnObject(record, confirmedOwn) && !link.named && !madeNow(record)) {
        findings.fail(`${where(r.create)}: the id its answer names (${id}) reads as another object than the one created`, {
          reason: "read-after-create",
          expected: `an object named with ${ctx.scratch.prefix}, naming an object the run made, or one its list did not hold before`,
          got: read ? statusLine(read) : `no entry ${id} named so in ${link.listPath ?? collection}`,
          res: read,
        });
        return undefined;
      }
    }
    if (name) confirmed.set(name, id);
    const update = (p: string) => ctx.api.send({ method: r.update!.method, path: p, body: bodyFor(ctx, r.update!, seed + 1, (n) => env.ids.pinnedAs(n)) });
    if (!(await step(findings, r.update, updatePath, update, "update", "what was created cannot be updated"))) return undefined;
    const list = r.list;
    if (list && link.listPath) {
      const { held, res } = await walkAgainUntil(
        () => listHolds(ctx, list, link.listPath!, id),
        (walk) => walk.held !== false,
      );
      if (held === false)
        findings.fail(`${where(list)}: what ${r.create.method} ${r.create.path} made (id ${id}) is not in its list`, {
          reason: "list-contains",
          expected: `the list holds id ${id}`,
          got: res ? statusLine(res) : "no answer",
          res,
        });
    }
    const [itemFilled, itemTemplate] = [removePath ?? readPath, (r.remove ?? r.read)?.path ?? ""];
    for (const action of actionsOn(r, env.ops, optIn)) {
      const body = requestSchema(action) ? bodyFor(ctx, action, seed + 2, (n) => env.ids.pinnedAs(n)) : undefined;
      await step(
        findings,
        action,
        itemFilled && `${itemFilled}${action.path.slice(itemTemplate.length)}`,
        (p) => ctx.api.send({ method: "POST", path: p, body }),
        "action",
        `an action on what ${r.create.method} ${r.create.path} made is not answered as documented`,
      );
    }
    return link;
  };
  /** Deletes what a chain made, then reads it gone: a 404 from its read, and its absence from its list. */
  const removeChecked = async (link: Link, findings: ChainFindings): Promise<void> => {
    if (!(await step(findings, link.r.remove, link.removePath, (p) => ctx.api.delete(p), "delete", "what was created cannot be deleted"))) return;
    if (!link.removePath) return;
    if (link.readPath) {
      const gone = await ctx.api.get(link.readPath);
      const another = link.named && gone.status === 200 && !readsAsOwn(ctx, gone, link.id);
      if (gone.status === 404 || gone.status === 410 || another) link.registered.removed();
      else {
        findings.fail(`${where(link.r.read!)}: a deleted object still reads`, {
          reason: "read-after-delete",
          expected: "404",
          got: statusLine(gone),
          res: gone,
        });
        return;
      }
    }
    // Its list shows it gone too: a server once answered 404 to the read of a deleted deployment and still listed it.
    if (!link.r.list || !link.listPath) return;
    const list = link.r.list;
    const isIt = (x: any) => !link.named || carriesPrefix(x, ctx.scratch.prefix);
    const { held, res } = await walkAgainUntil(
      () => listHolds(ctx, list, link.listPath!, link.id, isIt),
      (walk) => walk.held !== true,
    );
    if (held === false) link.registered.removed();
    if (held === true)
      findings.fail(`${where(list)}: a deleted object (id ${link.id}) is still listed`, {
        reason: "read-after-delete",
        expected: `the list no longer holds id ${link.id}`,
        got: res ? statusLine(res) : "no answer",
        res,
      });
  };
  // Families that share no name run at once, each as one chain after another: at 40 ms a round trip, the time is the longest family's.
  const done = await atOnce(
    families(ordered(resourcesOf(env.ops, ctx.settings, optIn))).map(async (family) => {
      const own = new HeldFindings();
      const unbuilt: string[] = [];
      const links: Link[] = [];
      for (const r of family) {
        const link = await chainOf(r, own, unbuilt);
        if (link) links.push(link);
      }
      // Newest first: a member before its group, a group before its tenant.
      for (const link of [...links].reverse()) await removeChecked(link, own);
      return { own, unbuilt, links };
    }),
  );
  // Said in the families' order, whichever answered first.
  for (const d of done) d.own.tellTo(findings);
  return { exercised: done.reduce((n, d) => n + d.links.length, 0), unbuilt: done.flatMap((d) => d.unbuilt) };
}

/** Findings kept back, to be told in a fixed order. */
class HeldFindings implements ChainFindings {
  private readonly held: Parameters<ChainFindings["fail"]>[] = [];
  fail(...args: Parameters<ChainFindings["fail"]>): void {
    this.held.push(args);
  }
  tellTo(findings: ChainFindings): void {
    for (const args of this.held) findings.fail(...args);
  }
}

/**
 * Resources grouped so that no two groups share a name one of them makes or names (`{id}` made by
 * two resources, `{tenantId}` made by one and named by another): what a chain pins under a name
 * (PathIds.pin) is then read by its own group only. Each group keeps the order given.
 */
export function families(resources: Resource[]): Resource[][] {
  const names = (r: Resource) =>
    [idPlaceholder(r), ...[...r.create.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]), ...Object.keys(propertiesOf(requestSchema(r.create)))].filter(
      (n): n is string => n !== undefined && !/^deployment_?id$/i.test(n),
    );
  const made = new Set(resources.map(idPlaceholder).filter((n): n is string => n !== undefined));
  const groups: { names: Set<string>; members: Resource[] }[] = [];
  for (const r of resources) {
    const own = new Set(names(r).filter((n) => made.has(n)));
    const joined = groups.filter((g) => [...own].some((n) => g.names.has(n)));
    const group = { names: new Set([...own, ...joined.flatMap((g) => [...g.names])]), members: [...joined.flatMap((g) => g.members), r] };
    for (const g of joined) groups.splice(groups.indexOf(g), 1);
    groups.push(group);
  }
  // Members in the order given; groups in the order of their first member.
  const order = new Map(resources.map((r, i) => [r, i]));
  return groups.map((g) => g.members.sort((a, b) => order.get(a)! - order.get(b)!)).sort((a, b) => order.get(a[0])! - order.get(b[0])!);
}

/**
 * The documented writes of a singleton (a path with no id but the deployment's, tenant settings
 * among them) that a GET of the same path reads: read, then write back the fields the request
 * schema names, as read. A valid request that changes nothing; its answer is judged against the
 * document. Objects of other people are never written, not even with their own values.
 */
export async function roundTrips(ctx: CheckContext, env: ChainEnv, findings: ChainFindings): Promise<number> {
  let exercised = 0;
  const singleton = (op: Operation) => [...op.path.matchAll(/\{([^}]+)\}/g)].every((m) => /^deployment_?id$/i.test(m[1]));
  for (const write of env.ops.filter(
    (o) => (o.method === "PUT" || o.method === "PATCH") && singleton(o) && mayWrite(o, ctx.settings) && writeClass(o) !== "never",
  )) {
    const read = env.ops.find((o) => o.method === "GET" && o.key === write.key.replace(/^\w+/, "GET"));
    const path = read ? await env.ids.fill(write.path) : undefined;
    const schema = requestSchema(write);
    if (!read || !path || !schema) continue;
    const before = await ctx.api.get(path);
    if (!ok(env, read, before)) continue;
    const record = recordOf(read, before);
    const writable = Object.keys(propertiesOf(schema));
    const body = Object.fromEntries(writable.filter((k) => record && typeof record === "object" && k in record).map((k) => [k, record[k]]));
    if (env.schemas.errors(schema, body)?.length) continue;
    const res = await ctx.api.send({ method: write.method, path, body });
    exercised++;
    if (!ok(env, write, res))
      findings.fail(`${where(write)}: writing back what ${read.method} ${read.path} read is not answered as documented`, {
        reason: "round-trip",
        expected: "a 2xx its document lists, with its documented body",
        got: statusLine(res),
        res,
      });
  }
  return exercised;
}

const ok = (env: ChainEnv, op: Operation, res: Response) => res.status >= 200 && res.status < 300 && !contradiction(op, res, env.schemas);

/** The body's top-level fields that name other objects by id (`workbookId`, `folder_id`, `userIds`) and were drawn, not pinned to an object the run knows. */
function drawnReferences(body: unknown, pinnedAs: (name: string) => unknown): string[] {
  if (!body || typeof body !== "object" || Array.isArray(body)) return [];
  return Object.keys(body).filter((k) => /(Id|_id)s?$/.test(k) && pinnedAs(k) === undefined);
}

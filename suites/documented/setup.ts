import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { CheckFailure } from "../../core/model/outcome.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import { runPrefixOf } from "../../core/ledger/scratch.js";
import { DocumentSchemas } from "../../core/served/document-schemas.js";
import type { Operation } from "../../core/served/served-document.js";
import { PathIds } from "../lib/path-ids.js";
import { documented } from "../lib/e14.js";

/** Failures of several operations as one: the first one's reason and exchange, every operation named. */
export class Findings {
  private readonly list: { op: string; failure: CheckFailure }[] = [];
  add(op: Operation | string, failure: CheckFailure): void {
    this.list.push({ op: typeof op === "string" ? op : `${op.method} ${op.path}`, failure });
  }
  fail(what: string, detail: { reason: ReasonKey; expected: string; got: string; res?: Response }): void {
    this.add(
      detail.res ? `${detail.res.exchange.method} ${new URL(detail.res.exchange.url).pathname}` : "",
      new CheckFailure(what, { expected: detail.expected, got: detail.got, exchange: detail.res?.exchange, reason: detail.reason }),
    );
  }
  throwIfAny(): void {
    if (!this.list.length) return;
    const first = this.list[0].failure;
    // Each message once (two bodies of one break fail alike), prefixed by its operation where it does not name it already.
    const others = [...new Set(this.list.slice(1).map((f) => (f.failure.message.includes(f.op) ? f.failure.message : `${f.op}: ${f.failure.message}`)))].filter(
      (m) => m !== first.message,
    );
    const failure = new CheckFailure(`${first.message}${others.length ? ` (and ${others.length} more: ${others.join("; ")})` : ""}`, {
      expected: first.expected,
      got: first.got,
      exchange: first.exchange,
      reason: first.reason,
    });
    failure.property = first.property;
    throw failure;
  }
}

/** The served document's operations, the deployment under test, ids for path placeholders and the document's schemas. */
export async function setUp(ctx: CheckContext) {
  const ops = (await documented(ctx)).operations;
  const deploymentId = ctx.fixture("deployment").id;
  return { ops, deploymentId, ids: new PathIds(ctx.api, ops, deploymentId, runPrefixOf(ctx.settings.seed)), schemas: new DocumentSchemas() };
}

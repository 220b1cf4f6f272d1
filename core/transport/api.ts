import type { Credential, Exchange, HttpClient, RequestSpec, Response } from "./http.js";
import { type CallArgs, requestTo } from "./client.js";
import type { OperationName } from "../api/operations.js";
import type { AnswerOf } from "../api/operation-types.js";
import { readBackFor } from "./read-back.js";

type Query = RequestSpec["query"];

/** Enough for any list of an ordinary tenant at the page sizes the checks use; a huge one is walked this far. */
export const DEFAULT_PAGE_BUDGET = 200;

/** Per run (one client): see Api.takenPageSizes. */
const PAGE_SIZES = new WeakMap<HttpClient, Map<string, number>>();

/**
 * The server as one check sees it: one credential, every exchange recorded in the check's log
 * so that a failure can show what was sent and what came back.
 */
export class Api {
  constructor(
    private readonly client: HttpClient,
    readonly credential: Credential | null,
    readonly log: Exchange[],
  ) {}

  /** A POST or PATCH gets the read-back that tells whether a transient answer to it was applied, where the run can tell (core/transport/read-back.ts). */
  send(spec: RequestSpec): Promise<Response> {
    return this.client.send({ credential: this.credential, ...spec, readBack: spec.readBack ?? readBackFor(this, spec) }, this.log);
  }
  /**
   * Calls an operation of the spec by name: `api.call("getWorkbook", { deploymentId, workbookId })`.
   * The answer's body is typed by the row's 2xx schema (AnswerOf), the body sent by its request schema.
   */
  call<N extends OperationName>(name: N, ...[params, options]: CallArgs<N>): Promise<Response<AnswerOf<N>>> {
    return this.send(requestTo<OperationName>(name, params, options));
  }
  get(path: string, query?: Query): Promise<Response> {
    return this.send({ method: "GET", path, query });
  }
  post(path: string, body?: unknown, query?: Query): Promise<Response> {
    return this.send({ method: "POST", path, body, query });
  }
  put(path: string, body?: unknown, query?: Query): Promise<Response> {
    return this.send({ method: "PUT", path, body, query });
  }
  delete(path: string, query?: Query): Promise<Response> {
    return this.send({ method: "DELETE", path, query });
  }
  stream(path: string, query?: Query) {
    return this.client.stream({ method: "GET", path, query, credential: this.credential }, this.log);
  }
  /** A document the user named by URL (--document), through the run's door without its credentials. */
  download(url: string): Promise<string> {
    return this.client.download(url);
  }
  /** Where the server is: what a curl line the user may run names. */
  get baseUrl(): string {
    return this.client.baseUrl;
  }
  /** How many pages a list walk may follow on this run (--max-pages). */
  get pageBudget(): number {
    return this.client.options.maxPages ?? DEFAULT_PAGE_BUDGET;
  }
  /**
   * The largest page size each list (by parameter and path) took after refusing a larger one, for
   * the whole run: a walk starts there instead of being refused again.
   */
  get takenPageSizes(): Map<string, number> {
    let sizes = PAGE_SIZES.get(this.client);
    if (!sizes) PAGE_SIZES.set(this.client, (sizes = new Map()));
    return sizes;
  }
  /** The same server with another credential (null: none), logging into the same check. */
  with(credential: Credential | null): Api {
    return new Api(this.client, credential, this.log);
  }
  /** The same credential logging elsewhere (a property's trial, a cleanup). */
  logging(log: Exchange[]): Api {
    return new Api(this.client, this.credential, log);
  }
}

import { AsyncResource } from "node:async_hooks";
import type { Api } from "../transport/api.js";
import type { Response } from "../transport/http.js";
import { readGivenDocument } from "./given-document.js";
import { NotVerifiable, Skip } from "../model/outcome.js";
import { dereference } from "../api/dereference.js";
import { SPEC_PATH } from "./served-document.js";
import { ServedModel } from "./model.js";

/** Why the run has no model of the served document: the one problem every consumer maps the same way. */
export interface DocumentProblem {
  /** `refused`: 401/403 (the token's access); `not-served`: no 200 JSON object; `not-dereferenced`: a dangling or external $ref. */
  kind: "refused" | "not-served" | "not-dereferenced";
  message: string;
}

/** What drift, coverage and --min-coverage all say, in one line, where the server serves no document. */
export const NO_DOCUMENT = `the server serves no OpenAPI document at GET ${SPEC_PATH}`;

/**
 * The one read of GET /api/v1/spec a run makes: the server's answer (`res`, which spec.document.*
 * judge), and the model or the problem. `source` says which document the model is: the served
 * one, or the one given with --document where the server serves none (issue 22).
 */
export type ServedRead =
  | { res: Response; model: ServedModel; source: string; problem?: undefined }
  | { res: Response; model?: undefined; source?: undefined; problem: DocumentProblem };

const SERVED = `served at GET ${SPEC_PATH}`;

/** Reads the document as the server answers it (else the one given with --document): a model, or the problem. */
export async function readServed(api: Api): Promise<ServedRead> {
  const res = await api.call("getSpec");
  if (res.status === 401 || res.status === 403)
    return { res, problem: { kind: "refused", message: `GET ${SPEC_PATH} answered ${res.status}: the token lacks the access to read the served document` } };
  const served =
    res.status === 200 &&
    res.isJson &&
    !!res.body &&
    typeof res.body === "object" &&
    !Array.isArray(res.body) &&
    "openapi" in res.body &&
    typeof res.body.openapi === "string";
  const given = served ? undefined : await readGivenDocument((url) => api.download(url));
  if (!served && !given)
    return { res, problem: { kind: "not-served", message: `${NO_DOCUMENT} (it answered ${res.status}${res.isJson ? "" : " without JSON"})` } };
  const [raw, source] = given ? [given.doc, `given with --document ${given.source} (the server serves none)`] : [res.body, SERVED];
  try {
    return { res, model: new ServedModel(raw, await dereference(raw)), source };
  } catch (err) {
    return { res, problem: { kind: "not-dereferenced", message: `the document ${source} does not dereference: ${(err as Error).message}` } };
  }
}

/**
 * The run's one read, shared by every check and the report sections after the run. It runs in
 * the async context the reader was made in (the runner's), not in the scope of the check that
 * asked first: that check's time limit must not abort a read the others await, nor count it as
 * its own request. A read that threw (the network) is not kept: the next one asks again.
 */
export class ServedReader {
  private pending?: Promise<ServedRead>;
  private readonly fetch: () => Promise<ServedRead>;
  constructor(api: Api) {
    this.fetch = AsyncResource.bind(() => readServed(api));
  }

  read(): Promise<ServedRead> {
    if (!this.pending) {
      const p = this.fetch();
      this.pending = p;
      p.catch(() => {
        if (this.pending === p) this.pending = undefined;
      });
    }
    return this.pending;
  }

  /** The read a run made, if any (the report sections reuse it rather than ask again). */
  get made(): Promise<ServedRead> | undefined {
    return this.pending;
  }
}

/**
 * The model, or the run's one verdict on a document it could not read, for a check that builds
 * on it: skipped where the token lacks access (the user's setup), else not verifiable (the
 * document is an E14 endpoint; spec.document.* judge the document itself).
 */
export function modelOf(read: ServedRead): ServedModel {
  if (read.model) return read.model;
  if (read.problem.kind === "refused") throw new Skip(read.problem.message);
  throw new NotVerifiable(read.problem.message);
}

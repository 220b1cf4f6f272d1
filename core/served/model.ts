import { NotVerifiable } from "../model/outcome.js";
import { type Operation, operationsOf } from "./served-document.js";
import { ServedOperation } from "./served-operations.js";
import { type Addressed, addressedBy } from "./answers.js";
import { matchOperation } from "../api/match.js";
import { operation, type OperationName } from "../api/operations.js";

/**
 * The served OpenAPI document as one model, built once a run (core/served/read.ts) and read by
 * every check, E14 rule, the documented layer, operation coverage and drift: its operations
 * (parameters, bodies, responses by status, links), and through core/served/answers.ts what each
 * answer carries, where a create's id is and which operations address what it made.
 */
export class ServedModel {
  readonly operations: Operation[];
  private readonly served = new Map<Operation, ServedOperation>();

  /** `raw`: the document as served; `doc`: the same dereferenced (a copy: ref-parser). */
  constructor(
    readonly raw: any,
    readonly doc: any,
  ) {
    this.operations = operationsOf(doc);
  }

  /** The operation at `method path` (concrete values or placeholders of any name), or undefined. */
  find(method: string, path: string): ServedOperation | undefined {
    const op = matchOperation(this.operations, method, path)?.operation;
    return op ? this.of(op) : undefined;
  }

  /** The operation, or NotVerifiable naming what the check needed it for. */
  require(method: string, path: string, what: string): ServedOperation {
    const op = this.find(method, path);
    if (!op) throw new NotVerifiable(`the server's document (GET /api/v1/spec) does not describe ${method.toUpperCase()} ${path}, which ${what}`);
    return op;
  }

  /** The served operation at a row of the spec's table (core/api/operations.ts), matched by its template. */
  findNamed(name: OperationName): ServedOperation | undefined {
    const { method, path } = operation(name);
    return this.find(method, path);
  }

  /** The served operation at a row of the table, or NotVerifiable naming what the check needed it for. */
  requireNamed(name: OperationName, what: string): ServedOperation {
    const { method, path } = operation(name);
    return this.require(method, path, what);
  }

  /** An operation of the model as the checks use it (one object per operation). */
  of(op: Operation): ServedOperation {
    let s = this.served.get(op);
    if (!s) this.served.set(op, (s = new ServedOperation(op)));
    return s;
  }

  /** Which operations read, update and delete what the create makes (links first, then paths). */
  addressed(create: Operation): Addressed | undefined {
    return addressedBy(create, this.operations);
  }
}

import type { CheckId } from "../../../core/model/ids.js";
import type { OperationName } from "../../../core/api/operations.js";
import { type Fault, HttpError } from "../../http.js";

/** A fault that refuses one valid request with a 400 naming `field`, as a server that misreads its own document would. */
export function refuses(name: string, check: CheckId, operation: OperationName, what: string, field: string): Fault {
  return {
    name,
    breaks: "E14; Versioning 1",
    description: `${what} refuses a request valid under its document with 400 (${field})`,
    because: { [check]: "valid-request-refused" },
    operations: [operation],
    handle: () => {
      throw new HttpError(400, `${field} is invalid`);
    },
  };
}

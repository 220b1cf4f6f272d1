import fc from "fast-check";
import { drawFromSchemasWith } from "../../core/served/served-operations.js";
import { conforms, NotGenerated, validValues } from "../../generators/index.js";

// A required body field a check does not name gets a value its documented schema takes (issue 28),
// drawn by the generators, which sit above core: core/served/served-operations.ts takes them from here.
drawFromSchemasWith({
  conforms,
  draw: (schema) => {
    try {
      return fc.sample(validValues(schema, { maxItems: 1 }), { seed: 1, numRuns: 1 })[0];
    } catch (err) {
      if (err instanceof NotGenerated) return undefined;
      throw err;
    }
  },
});

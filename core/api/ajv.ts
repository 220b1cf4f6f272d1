import { Ajv2020, type Options } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";

// ajv-formats is CommonJS: its function is the default export under tsc's NodeNext, the module itself in a bundle.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

/** A JSON Schema 2020-12 validator with the formats (date-time, uri, ...) the spec's schemas name. */
export const ajv2020 = (options: Options): Ajv2020 => addFormats(new Ajv2020(options));

import type { Check } from "../../core/check/check.js";
import { environmentChecks } from "./examples.js";
import { environmentPropertyChecks } from "./properties.js";
import { environmentBoundChecks } from "./bounds.js";
import { environmentOwnStagingChecks } from "./own-staging.js";

/** The environments group: its examples, properties, negative data and model runs side by side. */
export const environmentsSuite: Check[] = [...environmentChecks, ...environmentPropertyChecks, ...environmentBoundChecks, ...environmentOwnStagingChecks];

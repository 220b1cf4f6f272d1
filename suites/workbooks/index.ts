import type { Check } from "../../core/check/check.js";
import { workbookReadChecks } from "./examples.js";
import { workbookFolderPathChecks } from "./folder-path.js";
import { workbookFolderBoundChecks } from "./folder-bounds.js";

/** The workbooks group: its examples, properties, negative data and model runs side by side. */
export const workbooksSuite: Check[] = [...workbookReadChecks, ...workbookFolderPathChecks, ...workbookFolderBoundChecks];

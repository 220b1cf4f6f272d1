import type { Check } from "../../core/check/check.js";
import { workspaceNegativeChecks } from "./negative.js";
import { workspaceFolderChecks } from "./folders.js";
import { workspacePositionChecks } from "./positions.js";
import { workspaceDepthChecks } from "./depth.js";
import { workspaceFolderWalkChecks } from "./folder-walk.js";

/** The workspace group: its examples, properties, negative data and model runs side by side. */
export const workspaceSuite: Check[] = [
  ...workspaceFolderChecks,
  ...workspacePositionChecks,
  ...workspaceDepthChecks,
  ...workspaceFolderWalkChecks,
  ...workspaceNegativeChecks,
];

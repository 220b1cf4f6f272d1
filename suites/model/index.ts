import type { Check } from "../../core/check/check.js";
import { workspaceModelChecks } from "./workspace.js";

/** The model group: the workspace's calls run against a model of it (model.workspace.sequence). */
export const modelSuite: Check[] = [...workspaceModelChecks];

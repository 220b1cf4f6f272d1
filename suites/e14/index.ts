import type { Check } from "../../core/model/check.js";
import { e14WorkspaceChecks } from "./workspace.js";
import { e14BuildChecks } from "./build.js";
import { e14AdminChecks } from "./admin.js";
import { e14OperationChecks } from "./operations.js";
import { e14NamedParameterChecks } from "./named-parameters.js";

/** The e14 group: its examples, properties, negative data and model runs side by side. */
export const e14Suite: Check[] = [...e14WorkspaceChecks, ...e14BuildChecks, ...e14AdminChecks, ...e14OperationChecks, ...e14NamedParameterChecks];

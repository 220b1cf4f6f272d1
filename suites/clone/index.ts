import type { Check } from "../../core/check/check.js";
import { cloneCopyChecks } from "./copies.js";
import { cloneHistoryChecks } from "./view-history.js";
import { clonePlacementChecks } from "./placement.js";
import { cloneFolderAccessChecks } from "./folder-access.js";
import { cloneSharedChecks } from "./shared.js";
import { cloneLimitAndMissingChecks } from "./limit-and-missing.js";
import { cloneRoleAccessChecks } from "./role-access.js";

/** The clone group: its examples by rule family (E10 rules 1-3, 3's view history, 4-5, 4's inherited access, 6, 7-8) in rule order, then the role access checks. */
export const cloneSuite: Check[] = [
  ...cloneCopyChecks,
  ...cloneHistoryChecks,
  ...clonePlacementChecks,
  ...cloneFolderAccessChecks,
  ...cloneSharedChecks,
  ...cloneLimitAndMissingChecks,
  ...cloneRoleAccessChecks,
];

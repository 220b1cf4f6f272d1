import type { GroupShares } from "../../core/check/check.js";

/** What the workspace checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const workspaceShares: GroupShares = {
  byId: {
    "workspace.negative.broken-body": ["add:workspace"],
    // Its folders are its own, under a parent of its own.
    "workspace.folders.position-kept": ["add:workspace"],
    // Its folders nest in one another, from a root folder of its own.
    "workspace.folders.depth-limit-refused": ["add:workspace"],
    "workspace.negative.broken-body-4xx": ["add:workspace"],
    // Its folders are its own, under a parent of its own.
    "workspace.folders.cursor-walk": ["add:workspace"],
  },
};

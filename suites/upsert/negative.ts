import { groupedById } from "../../core/check/check.js";
import { draftStage } from "../lib/upsert-stage.js";
import { everything, negative } from "../lib/negative-check.js";

export const upsertNegativeChecks = groupedById([
  negative({
    id: "upsert.negative.broken-draft",
    spec: "E11 rule 2 (a meta.dashboardDraft is validated as elsewhere); Resources / DashboardConfig",
    level: "MUST",
    title:
      "Any meta.dashboardDraft that breaks DashboardConfig at one place, however deep (a field of another JSON type, an unknown or near-miss enum value, an app entry past 255 characters, a widget without its id, type or position), is not applied (the workbook keeps its name, meta and folder) and is no server error",
    needs: ["writes", "fixture:deployment"],
    judged: "not-applied",
    parts: [{ endpoint: "E11", stage: draftStage, select: everything }],
  }),
]);

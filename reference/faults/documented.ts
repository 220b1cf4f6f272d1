import { cleanBehaviour } from "../behaviour.js";
import type { Fault } from "../faults.js";
import { servedSpec } from "./read-side.js";

const CLONE_PATH = "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate";

/** Faults of the rules every operation shares (Authentication 1) and of the served document's own contract (E14; Versioning 1). */
export const documentedFaults: Fault[] = [
  {
    name: "auth-writes-unchecked",
    breaks: "Authentication 1",
    description: "only reads check the key: a write without a valid key runs as the account's first user",
    catches: ["auth.reject.every-operation"],
    because: { "auth.reject.every-operation": "served" },
    behaviour: { authenticate: (header, store, request) => cleanBehaviour.authenticate(header, store) ?? (request && request.method !== "GET" ? store.users[0] : undefined) },
  },
  {
    name: "auth-undocumented-clone-unchecked",
    breaks: "Authentication 1; E10",
    description: "the served document leaves out E10, and E10 serves a request without a valid key",
    catches: ["auth.reject.every-operation"],
    because: { "auth.reject.every-operation": "served" },
    routes: ["E14"],
    respond: servedSpec((doc) => delete doc.paths[CLONE_PATH]),
    behaviour: { authenticate: (header, store, request) => cleanBehaviour.authenticate(header, store) ?? (request?.path.endsWith("/duplicate") ? store.users[0] : undefined) },
  },
  {
    name: "spec-advertises-tabs-container",
    breaks: "Resources / DashboardWidget; Versioning 3",
    description: "the served document still lists TABS_CONTAINER among the widget types",
    catches: ["spec.document.no-tabs-container"],
    because: { "spec.document.no-tabs-container": "tabs-container-advertised" },
    routes: ["E14"],
    respond: servedSpec((doc) => doc.components.schemas.DashboardWidget.properties.type.enum.push("TABS_CONTAINER")),
  },
];

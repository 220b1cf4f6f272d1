import type { Store } from "../store.js";
import { day } from "./day.js";

const EVENTS = ["Logged in", "Logged out", "Workbook viewed", "Report exported", "API key created"];
/** Sixty audit-log entries spread over the users and the first two deployments. */
export function seedAudit(store: Store) {
  for (let i = 0; i < 60; i++) {
    const user = store.users[i % store.users.length];
    store.audit.push({
      timestamp: day(-60 + i).replace("T00", `T${String(8 + (i % 10)).padStart(2, "0")}`),
      userEmail: user.email,
      eventName: EVENTS[i % EVENTS.length],
      deploymentName: store.deployments[i % 2].name,
      ipAddress: `203.0.113.${i}`,
      details: i % 7 === 0 ? "password [HIDDEN], via SSO" : `session ${i}, browser "Firefox"`,
    });
  }
}

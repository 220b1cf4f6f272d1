import type { Need } from "../../core/model/needs.js";

/** The needs of a check that writes into the configured deployment: the opt-in, and the deployment. */
export const WRITES = ["writes", "fixture:deployment"] as const satisfies readonly Need[];

/** The needs of a check that writes users, attributes, policies or embed tenants: people and access on a real tenant, so --allow-admin-writes too. */
export const ADMIN = ["writes", "admin-writes"] as const satisfies readonly Need[];

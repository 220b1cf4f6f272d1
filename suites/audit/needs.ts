import type { Need } from "../../core/model/needs.js";

/** Every audit check needs the audit log feature (E7: the top plan tier): a config that declares it off skips them as the user's choice. */
export const AUDIT_NEEDS: { needs: Need[] } = { needs: ["feature:auditLog"] };

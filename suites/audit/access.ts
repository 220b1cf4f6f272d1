import { group } from "../../core/check/check.js";
import { peek } from "../lib/streamed.js";
import { EXPORT, expectCsvLabel, requireFeature } from "./examples.js";
import { AUDIT_NEEDS } from "./needs.js";

/** Authentication 4 for the audit export: the AuditLogManage permission decides, whoever holds it. */
export const auditAccessChecks = group(
  "audit",
  [
    {
      id: "audit.access.denied-without-permission",
      spec: "Authentication 4; E7",
      level: "MUST",
      title: "A caller without the AuditLogManage permission cannot export the audit log (4xx)",
      needs: ["token:noAudit"],
      async run(ctx) {
        await requireFeature(ctx);
        ctx.expect.clientError(await peek(await ctx.as("noAudit").stream(EXPORT)), "the export is refused to a caller without AuditLogManage");
      },
    },
    {
      id: "audit.access.denied-is-403",
      spec: "Authentication 4; published docs (403: valid credential, not allowed)",
      level: "SHOULD",
      title: "A caller without the AuditLogManage permission is refused with 403",
      needs: ["token:noAudit"],
      async run(ctx) {
        await requireFeature(ctx);
        ctx.expect.status(await peek(await ctx.as("noAudit").stream(EXPORT)), 403, "the export refused to a caller without AuditLogManage");
      },
    },
    {
      id: "audit.access.granted-with-permission",
      spec: "Authentication 4; E7",
      level: "MUST",
      title: "A caller who holds AuditLogManage but is no administrator exports the audit log: 200 with a CSV content type",
      needs: ["token:auditor"],
      async run(ctx) {
        // The feature on (the main key exports), the permission is what decides: not the caller's role.
        await requireFeature(ctx);
        const res = await peek(await ctx.as("auditor").stream(EXPORT));
        ctx.expect.status(res, 200, "the export answered to a caller holding AuditLogManage");
        expectCsvLabel(ctx, res, "the auditor's export is labelled as CSV");
      },
    },
  ],
  AUDIT_NEEDS,
);

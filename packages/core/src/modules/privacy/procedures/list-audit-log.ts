import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { listAuditLog } from '../audit-log.service.ts';
import { ZListAuditLogInput, ZListAuditLogOutput } from './list-audit-log.schema.ts';

/** The dashboard's Audit log page: the tenant's entries, newest first. */
export const listAuditLogProcedure = adminProcedure
  .input(ZListAuditLogInput)
  .output(ZListAuditLogOutput)
  .query(async ({ ctx, input }) => listAuditLog(ctx, input));

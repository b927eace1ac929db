import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { exportCandidate } from '../candidate-export.service.ts';
import { auditActor } from '../audit-log.service.ts';
import { ZExportPersonInput, ZExportPersonOutput } from './export-person.schema.ts';

/** The same export as GET /candidates/{id}/export, for the dashboard's download (audited as the administrator). */
export const exportPersonProcedure = adminProcedure
  .input(ZExportPersonInput)
  .output(ZExportPersonOutput)
  .mutation(async ({ ctx, input }) => ({
    data: await exportCandidate(ctx, { id: String(input.candidate_id), actor: auditActor.admin(ctx.session.email) }),
  }));

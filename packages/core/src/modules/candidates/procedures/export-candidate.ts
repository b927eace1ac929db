import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { exportCandidate } from '../../privacy/candidate-export.service.ts';
import { auditActor } from '../../privacy/audit-log.service.ts';
import { ZExportCandidateInput, ZExportCandidateOutput, exportCandidateMeta } from './export-candidate.schema.ts';

export const exportCandidateProcedure = apiKeyProcedure()
  .meta(exportCandidateMeta)
  .input(ZExportCandidateInput)
  .output(ZExportCandidateOutput)
  .query(async ({ ctx, input }) => ({
    data: await exportCandidate(ctx, { id: input.id, actor: auditActor.apiKey(ctx.apiKey) }),
  }));

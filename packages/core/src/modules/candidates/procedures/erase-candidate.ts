import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { eraseCandidateById } from '../../privacy/erasure.service.ts';
import { auditActor } from '../../privacy/audit-log.service.ts';
import { ZEraseCandidateInput, ZEraseCandidateOutput, eraseCandidateMeta } from './erase-candidate.schema.ts';

export const eraseCandidateProcedure = apiKeyProcedure()
  .meta(eraseCandidateMeta)
  .input(ZEraseCandidateInput)
  .output(ZEraseCandidateOutput)
  .mutation(async ({ ctx, input }) => {
    await eraseCandidateById(ctx, { id: input.id, actor: auditActor.apiKey(ctx.apiKey) });
  });

import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { AppError } from '../../../lib/errors.ts';
import { eraseCandidates } from '../erasure.service.ts';
import { auditActor } from '../audit-log.service.ts';
import { ZErasePersonInput, ZErasePersonOutput } from './erase-person.schema.ts';

/** Erases one candidate of the session's tenant (the dashboard asks for confirmation first); unknown: NOT_FOUND. */
export const erasePersonProcedure = adminProcedure
  .input(ZErasePersonInput)
  .output(ZErasePersonOutput)
  .mutation(async ({ ctx, input }) => {
    const erased = await eraseCandidates(ctx, {
      candidateIds: [input.candidate_id],
      actor: auditActor.admin(ctx.session.email),
    });
    if (erased.erasedCandidates === 0) throw new AppError('NOT_FOUND');
    ctx.log.info({ candidate_id: input.candidate_id }, 'candidate erased');
    return { erased_candidates: erased.erasedCandidates, erased_applications: erased.erasedApplications };
  });

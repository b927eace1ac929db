import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { acceptResume } from '../../resumes/resume-intake.service.ts';
import { ZCreateCandidateInput, ZCreateCandidateOutput, createCandidateMeta } from './create-candidate.schema.ts';
import { VALID_OUTPUT, isStorableId } from '../../../lib/query.ts';
export const createCandidateProcedure = apiKeyProcedure({ idempotent: true })
  .meta(createCandidateMeta)
  .input(ZCreateCandidateInput)
  .output(ZCreateCandidateOutput)
  .mutation(async ({ ctx, input }) => {
    const user =
      isStorableId(input.user_id)
        ? await ctx.db.selectFrom('users').select('id').where('id', '=', input.user_id).executeTakeFirst()
        : undefined;
    if (!user) throw AppError.validation({ user_id: ['The selected user id is invalid.'] });
    if (input.validate_only) {
      // Nothing stored: no processing row, no file, no job.
      ctx.response.status = 200;
      return VALID_OUTPUT;
    }

    const processingId = await acceptResume(ctx.em, ctx.services.jobs, {
      tenantId: ctx.tenant.id,
      userId: user.id,
      filename: input.resume.filename,
      mimeType: input.resume.mime_type,
      content: input.resume.content,
      createIntake: input.create_intake ?? false,
    });
    return { message: 'Resume accepted for processing.' as const, processing_id: processingId };
  });

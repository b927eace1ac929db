import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import { acceptResume } from '../../resumes/resume-intake.service.ts';
import { ZCreateCandidateInput, ZCreateCandidateOutput, createCandidateMeta } from './create-candidate.schema.ts';
import { VALID_OUTPUT } from '../../../lib/query.ts';
import { requireUserOfTenant, unknownUserErrors } from '../candidates.service.ts';

export const createCandidateProcedure = apiKeyProcedure()
  .meta(createCandidateMeta)
  // One 422 lists an unknown user with the body's other errors.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () =>
      unknownUserErrors(ctx, { rawInput: await getRawInput(), ZUserId: ZCreateCandidateInput.shape.user_id }),
    ),
  )
  .input(ZCreateCandidateInput)
  .output(ZCreateCandidateOutput)
  .mutation(async ({ ctx, input }) => {
    await requireUserOfTenant(ctx, { userId: input.user_id });
    if (input.validate_only) {
      // Nothing stored: no processing row, no file, no job.
      ctx.response.status = 200;
      return VALID_OUTPUT;
    }

    const processingId = await acceptResume(ctx, {
      userId: input.user_id,
      filename: input.resume.filename,
      mimeType: input.resume.mime_type,
      content: input.resume.content,
      createIntake: input.create_intake ?? false,
    });
    return { message: 'Resume accepted for processing.' as const, processing_id: processingId };
  });

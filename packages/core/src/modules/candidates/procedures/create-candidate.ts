import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import type { TDb } from '../../../db/kysely.ts';
import { AppError } from '../../../lib/errors.ts';
import { acceptResume } from '../../resumes/resume-intake.service.ts';
import { ZCreateCandidateInput, ZCreateCandidateOutput, createCandidateMeta } from './create-candidate.schema.ts';
import { VALID_OUTPUT, isStorableId } from '../../../lib/query.ts';

const UNKNOWN_USER = { user_id: ['The selected user id is invalid.'] };

async function findUser(db: TDb, userId: number): Promise<{ id: number } | undefined> {
  return isStorableId(userId) ? db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst() : undefined;
}

export const createCandidateProcedure = apiKeyProcedure()
  .meta(createCandidateMeta)
  // One 422 lists an unknown user with the body's other errors.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () => {
      const userId = ZCreateCandidateInput.shape.user_id.safeParse(((await getRawInput()) as Record<string, unknown> | null)?.user_id);
      return userId.success && !(await findUser(ctx.db, userId.data)) ? UNKNOWN_USER : {};
    }),
  )
  .input(ZCreateCandidateInput)
  .output(ZCreateCandidateOutput)
  .mutation(async ({ ctx, input }) => {
    const user = await findUser(ctx.db, input.user_id);
    if (!user) throw AppError.validation(UNKNOWN_USER);
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

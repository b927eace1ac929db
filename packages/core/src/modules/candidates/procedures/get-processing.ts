import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { toResumeProcessingDto } from '../../resumes/resume-processing.dto.ts';
import { ZGetProcessingInput, ZGetProcessingOutput, getProcessingMeta } from './get-processing.schema.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const getProcessingProcedure = apiKeyProcedure()
  .meta(getProcessingMeta)
  .input(ZGetProcessingInput)
  .output(ZGetProcessingOutput)
  .query(async ({ ctx, input }) => {
    // Not a UUID: nothing can have that id (and the uuid column would refuse the comparison).
    if (!UUID.test(input.processing_id)) throw new AppError('NOT_FOUND');
    const row = await ctx.db
      .selectFrom('resume_processings')
      .select(['id', 'status', 'candidate_id', 'intake_id', 'error', 'created_at', 'updated_at'])
      .where('id', '=', input.processing_id.toLowerCase())
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    return { data: toResumeProcessingDto(row) };
  });

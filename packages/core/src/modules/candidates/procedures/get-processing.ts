import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { getResumeProcessing } from '../candidates.service.ts';
import { ZGetProcessingInput, ZGetProcessingOutput, getProcessingMeta } from './get-processing.schema.ts';

export const getProcessingProcedure = apiKeyProcedure()
  .meta(getProcessingMeta)
  .input(ZGetProcessingInput)
  .output(ZGetProcessingOutput)
  .query(async ({ ctx, input }) => ({ data: await getResumeProcessing(ctx, { processingId: input.processing_id }) }));

import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { getCandidateProfile } from '../candidates.service.ts';
import { ZGetCandidateInput, ZGetCandidateOutput, getCandidateMeta } from './get-candidate.schema.ts';

export const getCandidateProcedure = apiKeyProcedure()
  .meta(getCandidateMeta)
  .input(ZGetCandidateInput)
  .output(ZGetCandidateOutput)
  .query(async ({ ctx, input }) => ({ data: await getCandidateProfile(ctx, { id: input.id }) }));

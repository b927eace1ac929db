import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import { listCandidates, unknownUserErrors } from '../candidates.service.ts';
import { ZListCandidatesInput, ZListCandidatesOutput, listCandidatesMeta } from './list-candidates.schema.ts';

export const listCandidatesProcedure = apiKeyProcedure()
  .meta(listCandidatesMeta)
  // One 422 lists an unknown user with the query's other errors.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () =>
      unknownUserErrors(ctx, { rawInput: await getRawInput(), ZUserId: ZListCandidatesInput.shape.user_id }),
    ),
  )
  .input(ZListCandidatesInput)
  .output(ZListCandidatesOutput)
  .query(({ ctx, input }) => listCandidates(ctx, input));

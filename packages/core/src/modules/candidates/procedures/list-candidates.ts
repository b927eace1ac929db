import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import { paginate } from '../../../lib/pagination.ts';
import { toCandidateListItemDto } from '../candidate.dto.ts';
import { findCandidatesPage } from '../candidates.repository.ts';
import { requireUserOfTenant, unknownUserErrors } from '../candidates.service.ts';
import { ZListCandidatesInput, ZListCandidatesOutput, listCandidatesMeta } from './list-candidates.schema.ts';

export const listCandidatesProcedure = apiKeyProcedure()
  .meta(listCandidatesMeta)
  // One 422 lists an unknown user with the query's other errors.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () => unknownUserErrors(ctx.db, await getRawInput(), ZListCandidatesInput.shape.user_id)),
  )
  .input(ZListCandidatesInput)
  .output(ZListCandidatesOutput)
  .query(async ({ ctx, input }) => {
    await requireUserOfTenant(ctx.db, input.user_id);
    const { rows, total } = await findCandidatesPage(
      ctx.db,
      { userId: input.user_id, email: input.email, search: input.search, status: input.status },
      { sort: input.sort, direction: input.sort_direction },
      { page: input.page, perPage: input.per_page },
    );
    return paginate(rows.map((row) => toCandidateListItemDto(row, input.user_id)), total, input.page, input.per_page, ctx.url);
  });

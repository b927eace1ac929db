import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { paginate } from '../../../lib/pagination.ts';
import { toCandidateListItemDto } from '../candidate.dto.ts';
import { findCandidatesPage, isUserOfTenant } from '../candidates.repository.ts';
import { ZListCandidatesInput, ZListCandidatesOutput, listCandidatesMeta } from './list-candidates.schema.ts';

export const listCandidatesProcedure = apiKeyProcedure()
  .meta(listCandidatesMeta)
  .input(ZListCandidatesInput)
  .output(ZListCandidatesOutput)
  .query(async ({ ctx, input }) => {
    // Another tenant's user behaves like no user at all.
    if (!(await isUserOfTenant(ctx.db, input.user_id))) throw AppError.validation({ user_id: ['The selected user id is invalid.'] });
    const { rows, total } = await findCandidatesPage(
      ctx.db,
      { userId: input.user_id, email: input.email, search: input.search, status: input.status },
      { sort: input.sort, direction: input.sort_direction },
      { page: input.page, perPage: input.per_page },
    );
    return paginate(rows.map((row) => toCandidateListItemDto(row, input.user_id)), total, input.page, input.per_page, ctx.url);
  });

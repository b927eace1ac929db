import { apiKeyProcedure, withDatabaseFieldErrors } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { paginate } from '../../../lib/pagination.ts';
import { toCandidateListItemDto } from '../candidate.dto.ts';
import { findCandidatesPage, isUserOfTenant } from '../candidates.repository.ts';
import { ZListCandidatesInput, ZListCandidatesOutput, listCandidatesMeta } from './list-candidates.schema.ts';

const UNKNOWN_USER = { user_id: ['The selected user id is invalid.'] };

export const listCandidatesProcedure = apiKeyProcedure()
  .meta(listCandidatesMeta)
  // One 422 lists an unknown user with the query's other errors.
  .use(async ({ ctx, getRawInput, next }) =>
    withDatabaseFieldErrors(await next(), async () => {
      const userId = ZListCandidatesInput.shape.user_id.safeParse(((await getRawInput()) as Record<string, unknown> | null)?.user_id);
      return userId.success && !(await isUserOfTenant(ctx.db, userId.data)) ? UNKNOWN_USER : {};
    }),
  )
  .input(ZListCandidatesInput)
  .output(ZListCandidatesOutput)
  .query(async ({ ctx, input }) => {
    // Another tenant's user behaves like no user at all.
    if (!(await isUserOfTenant(ctx.db, input.user_id))) throw AppError.validation(UNKNOWN_USER);
    const { rows, total } = await findCandidatesPage(
      ctx.db,
      { userId: input.user_id, email: input.email, search: input.search, status: input.status },
      { sort: input.sort, direction: input.sort_direction },
      { page: input.page, perPage: input.per_page },
    );
    return paginate(rows.map((row) => toCandidateListItemDto(row, input.user_id)), total, input.page, input.per_page, ctx.url);
  });

import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { paginate } from '../../../lib/pagination.ts';
import { toTeamMemberDto } from '../team-member.dto.ts';
import { findTeamPage } from '../team.repository.ts';
import { ZListTeamMembersInput, ZListTeamMembersOutput, listTeamMembersMeta } from './list-team-members.schema.ts';

export const listTeamMembersProcedure = apiKeyProcedure()
  .meta(listTeamMembersMeta)
  .input(ZListTeamMembersInput)
  .output(ZListTeamMembersOutput)
  .query(async ({ ctx, input }) => {
    const { rows, total } = await findTeamPage(
      ctx.db,
      { search: input.search, jobTitle: input.job_title, role: input.role, hasAvatar: input.has_avatar },
      { sort: input.sort, direction: input.sort_direction },
      { page: input.page, perPage: input.per_page },
    );
    const options = { includePhone: input.include_phone, includeRole: input.include_role, defaultLanguage: ctx.tenant.defaultLanguage };
    return paginate(rows.map((row) => toTeamMemberDto(row, options)), total, input.page, input.per_page, ctx.url);
  });

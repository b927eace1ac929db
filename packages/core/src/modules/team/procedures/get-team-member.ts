import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { parsePathId } from '../../../lib/query.ts';
import { toTeamMemberDto } from '../team-member.dto.ts';
import { findTeamMember } from '../team.repository.ts';
import { ZGetTeamMemberInput, ZGetTeamMemberOutput, getTeamMemberMeta } from './get-team-member.schema.ts';

export const getTeamMemberProcedure = apiKeyProcedure()
  .meta(getTeamMemberMeta)
  .input(ZGetTeamMemberInput)
  .output(ZGetTeamMemberOutput)
  .query(async ({ ctx, input }) => {
    const id = parsePathId(input.id);
    const row = id === undefined ? undefined : await findTeamMember(ctx.db, id);
    if (!row) throw new AppError('NOT_FOUND');
    const options = { includePhone: input.include_phone, includeRole: input.include_role, defaultLanguage: ctx.tenant.defaultLanguage };
    return { data: toTeamMemberDto(row, options) };
  });

import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { servedOutput } from '../../content/serialized-answer.ts';
import { getTeamMember } from '../team.service.ts';
import { getTeamMemberMeta } from './get-team-member.schema.ts';
import { ZGetTeamMemberInput, ZGetTeamMemberOutput } from '../team-member.schema.ts';

export const getTeamMemberProcedure = apiKeyProcedure()
  .meta(getTeamMemberMeta)
  .input(ZGetTeamMemberInput)
  .output(servedOutput(ZGetTeamMemberOutput))
  .query(({ ctx, input }) => getTeamMember(ctx, input));

import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { servedOutput } from '../../content/serialized-answer.ts';
import { listTeamMembers } from '../team.service.ts';
import { listTeamMembersMeta } from './list-team-members.schema.ts';
import { ZListTeamMembersInput, ZListTeamMembersOutput } from '../team-member.schema.ts';

export const listTeamMembersProcedure = apiKeyProcedure()
  .meta(listTeamMembersMeta)
  .input(ZListTeamMembersInput)
  .output(servedOutput(ZListTeamMembersOutput))
  .query(({ ctx, input }) => listTeamMembers(ctx, input));

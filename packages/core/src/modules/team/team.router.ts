import { router } from '../../trpc/init.ts';
import { getTeamMemberProcedure } from './procedures/get-team-member.ts';
import { listTeamMembersProcedure } from './procedures/list-team-members.ts';

export const teamRouter = router({
  list: listTeamMembersProcedure,
  get: getTeamMemberProcedure,
});

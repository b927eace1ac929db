import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { getAdminMe } from '../admin-tenant.service.ts';
import { ZGetMeInput, ZGetMeOutput } from './get-me.schema.ts';

export const getMeProcedure = adminProcedure
  .input(ZGetMeInput)
  .output(ZGetMeOutput)
  .query(async ({ ctx }) => getAdminMe(ctx, { userId: ctx.session.userId }));

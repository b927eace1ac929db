import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { getOverview } from '../admin-tenant.service.ts';
import { ZGetOverviewInput, ZGetOverviewOutput } from './get-overview.schema.ts';

export const getOverviewProcedure = adminProcedure
  .input(ZGetOverviewInput)
  .output(ZGetOverviewOutput)
  .query(async ({ ctx }) => getOverview(ctx));

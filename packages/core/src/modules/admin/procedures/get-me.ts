import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { AppError } from '../../../lib/errors.ts';
import { toAdminTenant, toAdminUser } from '../admin.dto.ts';
import { findAdminUserAndTenant } from '../admin-tenant.repository.ts';
import { ZGetMeInput, ZGetMeOutput } from './get-me.schema.ts';

export const getMeProcedure = adminProcedure
  .input(ZGetMeInput)
  .output(ZGetMeOutput)
  .query(async ({ ctx }) => {
    const found = await findAdminUserAndTenant(ctx.db, ctx.session.userId);
    // Both are deleted with cascade to the session, so this only happens in a race with a deletion.
    if (!found) throw new AppError('UNAUTHENTICATED');
    const { user, tenant } = found;
    return { user: toAdminUser(user), tenant: toAdminTenant(tenant) };
  });

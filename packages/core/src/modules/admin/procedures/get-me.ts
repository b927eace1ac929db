import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { AppError } from '../../../lib/errors.ts';
import { toAdminTenant, toAdminUser } from '../admin.dto.ts';
import { ZGetMeInput, ZGetMeOutput } from './get-me.schema.ts';

export const getMeProcedure = adminProcedure
  .input(ZGetMeInput)
  .output(ZGetMeOutput)
  .query(async ({ ctx }) => {
    const [user, tenant] = await Promise.all([
      ctx.db.selectFrom('users').select(['id', 'name', 'email', 'role']).where('id', '=', ctx.session.userId).executeTakeFirst(),
      ctx.db.selectFrom('tenants').select(['id', 'slug', 'name', 'default_language', 'api_enabled']).executeTakeFirst(),
    ]);
    // Both are deleted with cascade to the session, so this only happens in a race with a deletion.
    if (!user || !tenant) throw new AppError('UNAUTHENTICATED');
    return { user: toAdminUser(user), tenant: toAdminTenant(tenant) };
  });

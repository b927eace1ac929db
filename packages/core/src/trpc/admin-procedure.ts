import { middleware, publicProcedure } from './init.ts';
import { AppError } from '../lib/errors.ts';
import { tenantKysely } from '../db/kysely.ts';
import { ADMIN_ROLE } from '../modules/admin/admin-auth.service.ts';

/**
 * Dashboard procedures: a signed-in session (401 without) of a user with the admin role (403 otherwise).
 * The narrowed context carries the session's tenant id and a Kysely that only sees that tenant's rows,
 * so an administrator of one tenant can neither read nor change another tenant's records.
 */
const adminMiddleware = middleware(async ({ ctx, next }) => {
  const session = ctx.session;
  if (!session) throw new AppError('UNAUTHENTICATED');
  if (session.role !== ADMIN_ROLE) throw new AppError('FORBIDDEN');
  const log = ctx.log.child({ tenant_id: session.tenantId, admin_user_id: session.userId });
  return next({
    ctx: {
      ...ctx,
      log,
      session,
      tenantId: session.tenantId,
      tenant: { id: session.tenantId },
      db: tenantKysely(ctx.em, session.tenantId),
    },
  });
});

export const adminProcedure = publicProcedure.use(adminMiddleware);

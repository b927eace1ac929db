import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { setApiAccess } from '../admin-tenant.service.ts';
import { ZSetApiAccessInput, ZSetApiAccessOutput } from './set-api-access.schema.ts';
import { auditActor } from '../../privacy/audit-log.service.ts';

/**
 * Switches the tenant's API access. API processes see the change when their cached key verifications
 * expire (at most KEY_CACHE_TTL_MS later); this process forgets its own at once.
 */
export const setApiAccessProcedure = adminProcedure
  .input(ZSetApiAccessInput)
  .output(ZSetApiAccessOutput)
  .mutation(async ({ ctx, input }) => {
    const apiEnabled = await setApiAccess(ctx, { enabled: input.enabled, actor: auditActor.admin(ctx.session.email) });
    ctx.services.keys.evictAll();
    ctx.log.info({ api_enabled: apiEnabled }, 'tenant API access switched');
    return { api_enabled: apiEnabled };
  });

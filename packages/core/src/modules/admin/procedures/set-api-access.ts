import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { AppError } from '../../../lib/errors.ts';
import { updateApiAccess } from '../admin-tenant.repository.ts';
import { ZSetApiAccessInput, ZSetApiAccessOutput } from './set-api-access.schema.ts';
import { recordAudit, auditActor } from '../../privacy/audit-log.service.ts';

/**
 * Switches the tenant's API access. API processes see the change when their cached key verifications
 * expire (at most KEY_CACHE_TTL_MS later); this process forgets its own at once.
 */
export const setApiAccessProcedure = adminProcedure
  .input(ZSetApiAccessInput)
  .output(ZSetApiAccessOutput)
  .mutation(async ({ ctx, input }) => {
    const apiEnabled = await updateApiAccess(ctx.db, input.enabled);
    if (apiEnabled === undefined) throw new AppError('NOT_FOUND');
    ctx.services.keys.evictAll();
    await recordAudit(ctx.db, { actor: auditActor.admin(ctx.session.email), action: 'api_access.switched', details: { api_enabled: apiEnabled } });
    ctx.log.info({ api_enabled: apiEnabled }, 'tenant API access switched');
    return { api_enabled: apiEnabled };
  });

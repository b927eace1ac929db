import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { AppError } from '../../../lib/errors.ts';
import { ZSetApiAccessInput, ZSetApiAccessOutput } from './set-api-access.schema.ts';

/**
 * Switches the tenant's API access. API processes see the change when their cached key verifications
 * expire (at most KEY_CACHE_TTL_MS later); this process forgets its own at once.
 */
export const setApiAccessProcedure = adminProcedure
  .input(ZSetApiAccessInput)
  .output(ZSetApiAccessOutput)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.updateTable('tenants').set({ api_enabled: input.enabled }).returning('api_enabled').executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    ctx.services.keys.evictAll();
    ctx.log.info({ api_enabled: row.api_enabled }, 'tenant API access switched');
    return { api_enabled: row.api_enabled };
  });

import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { revokeApiKey } from '../../api-keys/api-key.service.ts';
import { ZRevokeKeyInput, ZRevokeKeyOutput } from './revoke-key.schema.ts';
import { recordAudit, auditActor } from '../../privacy/audit-log.service.ts';

/**
 * Revokes one of the session tenant's keys (another tenant's key is NOT_FOUND; revoking twice keeps the first
 * time). API processes stop accepting it when their cached verification expires, within KEY_CACHE_TTL_MS;
 * this process forgets it at once.
 */
export const revokeKeyProcedure = adminProcedure
  .input(ZRevokeKeyInput)
  .output(ZRevokeKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const key = await revokeApiKey(ctx, { id: input.id });
    ctx.services.keys.evictAll();
    await recordAudit(ctx, {
      actor: auditActor.admin(ctx.session.email),
      action: 'api_key.revoked',
      subject: `api key ${key.id}`,
    });
    ctx.log.info({ api_key_id: key.id }, 'API key revoked');
    return { key };
  });

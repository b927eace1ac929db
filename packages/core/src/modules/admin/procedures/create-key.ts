import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { createApiKey } from '../../api-keys/api-key.service.ts';
import { ZCreateKeyInput, ZCreateKeyOutput } from './create-key.schema.ts';
import { recordAudit, auditActor } from '../../privacy/audit-log.service.ts';

export const createKeyProcedure = adminProcedure
  .input(ZCreateKeyInput)
  .output(ZCreateKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const { apiKey, plaintext } = await createApiKey(ctx, {
      name: input.name,
      scopes: input.scopes,
      kind: input.kind,
      origins: input.origins ?? null,
    });
    await recordAudit(ctx, {
      actor: auditActor.admin(ctx.session.email),
      action: 'api_key.created',
      subject: `api key ${apiKey.id}`,
      details: { name: apiKey.name, kind: apiKey.kind, scopes: apiKey.scopes },
    });
    ctx.log.info(
      { api_key_id: apiKey.id, kind: apiKey.kind, scopes: apiKey.scopes, origins: apiKey.origins },
      'API key created',
    );
    return { key: apiKey, plaintext };
  });

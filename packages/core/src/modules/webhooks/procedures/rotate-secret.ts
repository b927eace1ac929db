import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { rotateWebhookSecret } from '../webhook.service.ts';
import { ZRotateSecretInput, ZRotateSecretOutput } from './rotate-secret.schema.ts';
import { recordAudit, auditActor } from '../../privacy/audit-log.service.ts';

/** A new secret, shown once; the previous one keeps signing beside it for 24 hours. */
export const rotateSecretProcedure = adminProcedure
  .input(ZRotateSecretInput)
  .output(ZRotateSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const rotated = await rotateWebhookSecret(ctx, { id: input.id });
    await recordAudit(ctx, {
      actor: auditActor.admin(ctx.session.email),
      action: 'webhook.rotated',
      subject: `webhook ${input.id}`,
    });
    ctx.log.info({ webhook_endpoint_id: input.id }, 'webhook secret rotated');
    return rotated;
  });

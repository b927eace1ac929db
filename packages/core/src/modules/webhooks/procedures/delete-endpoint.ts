import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { deleteWebhookEndpoint } from '../webhook.service.ts';
import { ZDeleteEndpointInput, ZDeleteEndpointOutput } from './delete-endpoint.schema.ts';
import { recordAudit, auditActor } from '../../privacy/audit-log.service.ts';

/** Deletes one of the session tenant's endpoints with its delivery log (another tenant's is NOT_FOUND). */
export const deleteEndpointProcedure = adminProcedure
  .input(ZDeleteEndpointInput)
  .output(ZDeleteEndpointOutput)
  .mutation(async ({ ctx, input }) => {
    const endpoint = await deleteWebhookEndpoint(ctx, { id: input.id });
    await recordAudit(ctx, {
      actor: auditActor.admin(ctx.session.email),
      action: 'webhook.deleted',
      subject: `webhook ${endpoint.id}`,
    });
    ctx.log.info({ webhook_endpoint_id: endpoint.id }, 'webhook endpoint deleted');
    return { endpoint };
  });

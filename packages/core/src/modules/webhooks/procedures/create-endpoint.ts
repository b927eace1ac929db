import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { createWebhookEndpoint } from '../webhook.service.ts';
import { ZCreateEndpointInput, ZCreateEndpointOutput } from './create-endpoint.schema.ts';
import { recordAudit, auditActor } from '../../privacy/audit-log.service.ts';

export const createEndpointProcedure = adminProcedure
  .input(ZCreateEndpointInput)
  .output(ZCreateEndpointOutput)
  .mutation(async ({ ctx, input }) => {
    const created = await createWebhookEndpoint(ctx, { url: input.url, eventTypes: input.event_types });
    await recordAudit(ctx, {
      actor: auditActor.admin(ctx.session.email),
      action: 'webhook.created',
      subject: `webhook ${created.endpoint.id}`,
      details: { event_types: created.endpoint.event_types },
    });
    ctx.log.info(
      { webhook_endpoint_id: created.endpoint.id, event_types: created.endpoint.event_types },
      'webhook endpoint created',
    );
    return created;
  });

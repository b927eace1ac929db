import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { enableWebhookEndpoint } from '../webhook.service.ts';
import { ZEnableEndpointInput, ZEnableEndpointOutput } from './enable-endpoint.schema.ts';

/** Enables an endpoint that was disabled (e.g. after it answered 410 Gone). */
export const enableEndpointProcedure = adminProcedure
  .input(ZEnableEndpointInput)
  .output(ZEnableEndpointOutput)
  .mutation(async ({ ctx, input }) => {
    const endpoint = await enableWebhookEndpoint(ctx, { id: input.id });
    ctx.log.info({ webhook_endpoint_id: endpoint.id }, 'webhook endpoint enabled');
    return { endpoint };
  });

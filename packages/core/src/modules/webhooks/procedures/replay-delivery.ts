import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { replayWebhookDelivery } from '../webhook.service.ts';
import { ZReplayDeliveryInput, ZReplayDeliveryOutput } from './replay-delivery.schema.ts';

/** Sends one delivery again now, with the same webhook-id and body. */
export const replayDeliveryProcedure = adminProcedure
  .input(ZReplayDeliveryInput)
  .output(ZReplayDeliveryOutput)
  .mutation(async ({ ctx, input }) => {
    const delivery = await replayWebhookDelivery(ctx, { id: input.id });
    ctx.log.info(
      { webhook_delivery_id: delivery.id, webhook_endpoint_id: delivery.endpoint_id },
      'webhook delivery replayed',
    );
    return { delivery };
  });

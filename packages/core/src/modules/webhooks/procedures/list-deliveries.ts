import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { listWebhookDeliveries } from '../webhook.service.ts';
import { ZListDeliveriesInput, ZListDeliveriesOutput } from './list-deliveries.schema.ts';

/** An endpoint's most recent deliveries, newest first. */
export const listDeliveriesProcedure = adminProcedure
  .input(ZListDeliveriesInput)
  .output(ZListDeliveriesOutput)
  .query(async ({ ctx, input }) => ({
    data: await listWebhookDeliveries(ctx, { endpointId: input.endpoint_id, limit: input.limit }),
  }));

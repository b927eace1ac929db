import { z } from 'zod';
import { ZId, ZWebhookDelivery } from '../webhook.schema.ts';

export const ZListDeliveriesInput = z.object({ endpoint_id: ZId, limit: z.number().int().min(1).max(200).default(25) });
export const ZListDeliveriesOutput = z.object({ data: z.array(ZWebhookDelivery) });

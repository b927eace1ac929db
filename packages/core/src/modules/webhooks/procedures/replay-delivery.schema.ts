import { z } from 'zod';
import { ZId, ZWebhookDelivery } from '../webhook.schema.ts';

export const ZReplayDeliveryInput = z.object({ id: ZId });
export const ZReplayDeliveryOutput = z.object({ delivery: ZWebhookDelivery });

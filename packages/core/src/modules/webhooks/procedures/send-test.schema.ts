import { z } from 'zod';
import { ZId, ZWebhookDelivery } from '../webhook.schema.ts';

export const ZSendTestInput = z.object({ id: ZId });
export const ZSendTestOutput = z.object({ delivery: ZWebhookDelivery });

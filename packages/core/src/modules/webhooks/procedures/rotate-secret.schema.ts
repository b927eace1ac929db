import { z } from 'zod';
import { ZId, ZWebhookEndpoint } from '../webhook.schema.ts';

export const ZRotateSecretInput = z.object({ id: ZId });
export const ZRotateSecretOutput = z.object({ endpoint: ZWebhookEndpoint, secret: z.string() });

import { z } from 'zod';
import { ZId, ZWebhookEndpoint } from '../webhook.schema.ts';

export const ZDeleteEndpointInput = z.object({ id: ZId });
export const ZDeleteEndpointOutput = z.object({ endpoint: ZWebhookEndpoint });

import { z } from 'zod';
import { ZId, ZWebhookEndpoint } from '../webhook.schema.ts';

export const ZEnableEndpointInput = z.object({ id: ZId });
export const ZEnableEndpointOutput = z.object({ endpoint: ZWebhookEndpoint });

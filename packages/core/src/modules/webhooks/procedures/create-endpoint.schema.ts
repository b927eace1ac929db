import { z } from 'zod';
import { ZWebhookEndpoint } from '../webhook.schema.ts';

export const ZCreateEndpointInput = z.object({
  url: z.string().trim().min(1).max(2048),
  /** Known event types or `*`; checked by the service. */
  event_types: z.array(z.string().max(100)).max(50),
});
export type TCreateEndpointInput = z.input<typeof ZCreateEndpointInput>;

export const ZCreateEndpointOutput = z.object({
  endpoint: ZWebhookEndpoint,
  /** `whsec_…`: shown once, stored only encrypted. */
  secret: z.string(),
});

import { z } from 'zod';
import { ZWebhookEndpoint } from '../webhook.schema.ts';

export const ZListEndpointsInput = z.void();
export const ZListEndpointsOutput = z.object({ data: z.array(ZWebhookEndpoint), event_types: z.array(z.string()) });
export type TListEndpointsOutput = z.infer<typeof ZListEndpointsOutput>;

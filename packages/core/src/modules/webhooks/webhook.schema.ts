import { z } from 'zod';
import { MAX_DB_ID } from '../../lib/query.ts';

/** Response shapes the dashboard's webhook procedures share (see webhook.dto.ts). */
export const ZWebhookEndpoint = z.object({
  id: z.number().int(),
  url: z.string(),
  event_types: z.array(z.string()),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  previous_secret_expires_at: z.string().nullable(),
  created_at: z.string(),
});

export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  endpoint_id: z.number().int(),
  event_id: z.string(),
  event_type: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});

export const ZId = z.number().int().positive().max(MAX_DB_ID);

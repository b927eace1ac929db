import { z } from 'zod';

/** The Idempotency-Key request header as the OpenAPI document shows it (`meta.openapi.requestHeaders`). */
export const ZIdempotencyKeyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      '(extension) 1–255 printable ASCII characters. A retry with the same key and the same body within 24 hours replays the first response ' +
        '(marked `Idempotent-Replayed: true`) without a second effect; the same key with a different body is 422 on `idempotency_key`. ' +
        'Keys are per API key and operation. Validation errors (422) and server errors are not kept, so such a request may be retried under the same key.',
    ),
});

import { z } from 'zod';

/* The API key as GET /me describes it; the service builds it, the procedure's schema declares it as its output. */

const ZBudget = z.object({
  limit: z.number().int().min(1).describe('Requests allowed per window'),
  remaining: z.number().int().min(0).describe('Requests left in the current window'),
  reset: z
    .number()
    .int()
    .min(0)
    .describe('Unix time (seconds) at which the window resets (one window from now when none is running)'),
});

export const ZApiKeyDescription = z.object({
  tenant: z.string().describe('The tenant slug the key belongs to'),
  key: z.object({
    id: z.number().int(),
    name: z.string(),
    kind: z
      .enum(['secret', 'publishable'])
      .describe('`secret` (ck_…, servers only) or `publishable` (pk_…, career sites in the browser)'),
    prefix: z.string().describe('The first 12 characters of the key'),
    scopes: z.array(z.string()),
    origins: z.array(z.string()).nullable().describe('Allowed origins of a publishable key; null for a secret key'),
    created_at: z.string(),
  }),
  rate_limits: z.object({
    applications: ZBudget.describe('POST /applications'),
    candidates: ZBudget.describe('POST /candidates'),
    canonical_url: ZBudget.describe('POST /vacancies/{slug}/canonical-url'),
  }),
});
export type TApiKeyDescription = z.infer<typeof ZApiKeyDescription>;

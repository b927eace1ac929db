import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';

export const getMeMeta = {
  openapi: {
    method: 'GET',
    path: '/me',
    tags: ['Health'],
    summary: 'Describe the API key',
    description:
      'The key making the request (never the key itself: its first 12 characters), its tenant, scopes and allowed origins, and the budget ' +
      'left in each rate limit, read without using any of it. For a publishable key the budget of POST /applications is the one nearer ' +
      'to exhaustion of its client address (5 per minute, every request) and the key (120 per minute, stored applications only). ' +
      'Answers for any valid key; needs no scope.',
    protect: true,
  },
  // Any valid key of a tenant with API access.
  scope: null,
} satisfies TMeta;

const ZBudget = z.object({
  limit: z.number().int().min(1).describe('Requests allowed per window'),
  remaining: z.number().int().min(0).describe('Requests left in the current window'),
  reset: z.number().int().min(0).describe('Unix time (seconds) at which the window resets (one window from now when none is running)'),
});

export const ZGetMeInput = z.object({});
export const ZGetMeOutput = z.object({
  data: z.object({
    tenant: z.string().describe('The tenant slug the key belongs to'),
    key: z.object({
      id: z.number().int(),
      name: z.string(),
      kind: z.enum(['secret', 'publishable']).describe('`secret` (ck_…, servers only) or `publishable` (pk_…, career sites in the browser)'),
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
  }),
});
export type TGetMeOutput = z.infer<typeof ZGetMeOutput>;

import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { ZApiKeyDescription } from '../api-key.description.ts';

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

export const ZGetMeInput = z.object({});
export const ZGetMeOutput = z.object({ data: ZApiKeyDescription });
export type TGetMeOutput = z.infer<typeof ZGetMeOutput>;

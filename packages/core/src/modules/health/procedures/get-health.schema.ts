import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';

export const getHealthMeta = {
  openapi: {
    method: 'GET',
    path: '/health',
    tags: ['Health'],
    summary: 'Check the API key',
    description:
      'Answers for any valid key of a tenant with API access; needs no scope. Returns the tenant of the key.',
    protect: true,
  },
  // Any valid key of a tenant with API access.
  scope: null,
} satisfies TMeta;

export const ZGetHealthInput = z.object({});
export const ZGetHealthOutput = z.object({
  status: z.literal('authenticated'),
  tenant: z.string().describe('The tenant slug the key belongs to'),
});
export type TGetHealthOutput = z.infer<typeof ZGetHealthOutput>;

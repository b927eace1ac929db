import { z } from 'zod';
import type { TMeta } from '../../../trpc/init.ts';
import { CANDIDATE_STATUSES } from '../candidate.entity.ts';
import { zPathIntegerId } from '../../../lib/query.ts';

export const getCandidateMeta = {
  openapi: {
    method: 'GET',
    path: '/candidates/{id}',
    tags: ['Candidates'],
    summary: 'Get one candidate (extension)',
    description:
      '**(extension)** The complete candidate profile, with the ids of every user the candidate is associated with. ' +
      '`needs_completion` is true for a candidate created from a resume without an email, or whose name could not be read from the resume itself. A non-integer id is 404.',
    protect: true,
  },
  scope: 'candidates:read',
  errors: ['NOT_FOUND'],
  extension: true,
} satisfies TMeta;

export const ZGetCandidateInput = z.object({
  id: zPathIntegerId('The candidate id (an integer)'),
});
export type TGetCandidateInput = z.infer<typeof ZGetCandidateInput>;

export const ZCandidateProfile = z.object({
  id: z.number().int(),
  slug: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  linkedin_url: z.string().nullable(),
  status: z.enum(CANDIDATE_STATUSES),
  needs_completion: z.boolean().describe('Created from a resume without an email, or without a name read from it: to be completed by hand'),
  user_id: z.number().int().nullable().describe('The user the candidate belongs to (the first associated one), as in the candidate list; null when none'),
  user_ids: z.array(z.number().int()).describe('(extension) Every user the candidate is associated with, ascending'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCandidateProfile = z.infer<typeof ZCandidateProfile>;

export const ZGetCandidateOutput = z.object({ data: ZCandidateProfile });

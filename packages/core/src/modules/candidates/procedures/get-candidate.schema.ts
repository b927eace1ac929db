import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { ZCandidateProfile } from '../candidate.dto.ts';
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

export const ZGetCandidateOutput = z.object({ data: ZCandidateProfile });

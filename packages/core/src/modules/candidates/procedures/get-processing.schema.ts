import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { ZResumeProcessing } from '../../resumes/resume-processing.dto.ts';
import { zPathUuid } from '../../../lib/query.ts';

export const getProcessingMeta = {
  openapi: {
    method: 'GET',
    path: '/candidates/processing/{processing_id}',
    tags: ['Candidates'],
    summary: 'Get the outcome of a resume upload (extension)',
    description:
      '**(extension)** The state of the background processing started by POST /candidates: `queued`, `processing`, ' +
      '`completed` (with `candidate_id`, and `intake_id` when an intake was asked for) or `failed` (with a readable `error`). ' +
      "An unknown id, another tenant's id or an id that is not a UUID is 404.",
    protect: true,
  },
  scope: 'candidates:read',
  errors: ['NOT_FOUND'],
  extension: true,
} satisfies TMeta;

export const ZGetProcessingInput = z.object({
  processing_id: zPathUuid('The processing_id POST /candidates returned'),
});
export type TGetProcessingInput = z.infer<typeof ZGetProcessingInput>;

export const ZGetProcessingOutput = z.object({ data: ZResumeProcessing });

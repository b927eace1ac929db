import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zPathIntegerId } from '../../../lib/query.ts';
import { ZCandidateExport } from '../../privacy/candidate-export.dto.ts';

export const exportCandidateMeta = {
  openapi: {
    method: 'GET',
    path: '/candidates/{id}/export',
    tags: ['Candidates'],
    summary: 'Export everything held about a candidate (privacy)',
    description:
      '**(extension)** Everything held about the candidate (GDPR art. 15): the profile, every application with its answers, consents, ' +
      'tracking data and documents (base64), and every resume upload with its file (base64). A non-integer or unknown id is 404.',
    protect: true,
  },
  scope: 'candidates:read',
  // Documents are read into memory: a key runs only a few exports at once (the rest are shed with 429 and Retry-After).
  expensiveRead: 'always',
  errors: ['NOT_FOUND'],
  extension: true,
} satisfies TMeta;

export const ZExportCandidateInput = z.object({
  id: zPathIntegerId('The candidate id (an integer)'),
});

export const ZExportCandidateOutput = z.object({ data: ZCandidateExport });

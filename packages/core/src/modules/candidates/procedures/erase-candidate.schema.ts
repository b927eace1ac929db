import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zPathIntegerId } from '../../../lib/query.ts';

export const eraseCandidateMeta = {
  openapi: {
    method: 'DELETE',
    path: '/candidates/{id}',
    tags: ['Candidates'],
    summary: 'Erase a candidate (privacy)',
    description:
      '**(extension)** Erases the candidate and everything held about them (GDPR art. 17): their applications, documents, resume uploads, ' +
      'stored responses of Idempotency-Keys, webhook payloads and events about them. A `candidate.erased` event (id only) goes to webhooks ' +
      'and the change feed. Answers 204; afterwards the id is 404 like any unknown candidate (a second call too). A non-integer id is 404.',
    protect: true,
  },
  successStatus: 204,
  scope: 'candidates:delete',
  errors: ['NOT_FOUND'],
  extension: true,
} satisfies TMeta;

export const ZEraseCandidateInput = z.object({
  id: zPathIntegerId('The candidate id (an integer)'),
});

/** 204: no body. */
export const ZEraseCandidateOutput = z.void();

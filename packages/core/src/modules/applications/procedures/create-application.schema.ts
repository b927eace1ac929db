import type { TMeta } from '../../operation-meta.ts';
import { ZIdempotencyKeyHeader } from '../../idempotency/idempotency-key.header.ts';

export const createApplicationMeta = {
  openapi: {
    method: 'POST',
    path: '/applications',
    tags: ['Applications'],
    summary: 'Submit an application',
    description:
      'Applies a candidate to a visible vacancy (addressed by slug, or by id as a JSON integer; a string of digits is tried as a slug, then as an id). ' +
      'The candidate is matched by email (case-insensitive) or created. Documents are base64 (strict RFC 4648 alphabet and padding), at most 10 MB each decoded, ' +
      'at most 5 additional documents; request bodies up to 40 MB. Limit: 10 requests per minute per API key. ' +
      'With a publishable key (extension): 5 requests per minute per client address (IPv6 by /64), and 120 stored applications per minute per key ' +
      '(rejected and `validate_only` requests count only for their address); the rate-limit headers describe the window nearer to exhaustion. ' +
      'Extension: an `Idempotency-Key` header makes retries with the same body replay the first response. ' +
      "Extension: `answers` to the vacancy's questions (GET /vacancies/{slug}/application-form), each checked against its question; " +
      'every invalid field is listed in one 422. Extension: with the tenant setting `duplicate_applications: "reject"`, a second application ' +
      'to the same vacancy with the same email (case-insensitive) is 409 `DUPLICATE_APPLICATION` with the existing `application_id`. ' +
      'Extension (privacy): `consents: {processing, talent_pool}`; when the tenant requires processing consent, a missing or false `consents.processing` is 422 (listed with every other error). ' +
      'Extension: `validate_only=true` runs every check and answers 200 `{"message":"Valid."}` without storing anything (no idempotency record either).',
    protect: true,
    requestHeaders: ZIdempotencyKeyHeader,
  },
  successStatus: 201,
  scope: 'applications:write',
  rateLimit: 'applications.create',
  queryParameters: ['validate_only'],
  errors: ['VACANCY_CLOSED', 'VACANCY_NOT_FOUND', 'DUPLICATE_APPLICATION'],
  idempotent: 'one-statement',
} satisfies TMeta;

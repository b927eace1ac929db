import type { TMeta } from '../../operation-meta.ts';
import { ZIdempotencyKeyHeader } from '../../idempotency/idempotency-key.header.ts';

export const reportCanonicalUrlMeta = {
  openapi: {
    method: 'POST',
    path: '/vacancies/{slug}/canonical-url',
    tags: ['Vacancies'],
    summary: "Report a vacancy's canonical URL",
    description:
      "Stores the public URL the career website gave the vacancy (by its publication slug); it then is the vacancy's `url` in every response, " +
      "ahead of the tenant's URL pattern. The URL must use https://, have at most 2048 characters, and its host must be the tenant's career-site " +
      'domain or one of its domains (case-insensitive; the host as a browser parses the URL, whatever the text looks like), else 422 on `url`. ' +
      'The URL is stored and answered normalized (WHATWG `new URL(url).href`: e.g. `\\` becomes `/`, quotes and angle brackets percent-encoded). An unknown or invisible vacancy is 404. Limit: 60 requests per minute per API key. ' +
      'Extension: an `Idempotency-Key` header makes retries with the same body replay the first response.',
    protect: true,
    requestHeaders: ZIdempotencyKeyHeader,
  },
  scope: 'vacancies:write',
  rateLimit: 'vacancies.canonicalUrl',
  errors: ['NOT_FOUND'],
  idempotent: true,
} satisfies TMeta;

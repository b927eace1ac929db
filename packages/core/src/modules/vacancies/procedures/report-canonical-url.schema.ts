import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { ZIdempotencyKeyHeader } from '../../idempotency/idempotency-key.header.ts';
import { zString } from '../../../lib/validation.ts';

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

export const MAX_CANONICAL_URL_LENGTH = 2048;

/** A full https:// URL without whitespace, control characters or credentials; the host is checked against the tenant later. */
function isHttpsUrl(value: string): boolean {
  if (!/^https:\/\/[^\s\x00-\x1f\x7f]+$/i.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}

export const ZReportCanonicalUrlInput = z.object({
  slug: z.string().describe("The vacancy's publication slug"),
  url: zString()
    .min(1, { abort: true })
    .max(MAX_CANONICAL_URL_LENGTH, { abort: true })
    .refine(isHttpsUrl, { message: 'The :attribute must be a valid URL starting with https://.', abort: true })
    .describe(
      "The vacancy's public URL on the career website (https://, at most 2048 characters), stored normalized (as a browser parses it)",
    ),
});
export type TReportCanonicalUrlInput = z.infer<typeof ZReportCanonicalUrlInput>;

export const ZReportCanonicalUrlOutput = z.object({
  message: z.literal('Canonical URL stored.'),
  data: z.object({
    publication_slug: z.string(),
    url: z.string().describe('The URL as stored (normalized)'),
  }),
});
export type TReportCanonicalUrlOutput = z.infer<typeof ZReportCanonicalUrlOutput>;

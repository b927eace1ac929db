import { z } from 'zod';
import { zString } from '../../lib/validation.ts';

/** What POST /vacancies/{slug}/canonical-url takes and answers (its procedure's input and output). */

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

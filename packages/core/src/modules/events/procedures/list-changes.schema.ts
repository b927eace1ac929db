import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zIntInRange } from '../../../lib/query.ts';
import { CHANGE_TYPES } from '../event.dto.ts';

export const listChangesMeta = {
  openapi: {
    method: 'GET',
    path: '/changes',
    tags: ['Changes'],
    summary: 'Read the change feed',
    description:
      'The vacancy and article events of the tenant (`*.published`, `*.updated`, `*.unpublished`), and with `candidates:read` its candidate events (`candidate.created`, `candidate.updated`, `candidate.erased`), in commit order. Page with `after=next_cursor`: ' +
      'a reader never misses an entry, also one whose transaction committed after entries it has already read. Entries are kept at least 30 days; ' +
      'an older cursor is 410 `CURSOR_EXPIRED` (start again without `after`). Scopes: `vacancies:read` for vacancy entries, `articles:read` for ' +
      'article entries, `candidates:read` for candidate entries; a key with neither of the first two is 403 on `vacancies:read`, and asking `types[]` for entries the key may not read is 403 on that scope.',
    protect: true,
  },
  // What the 403 names when the key has neither scope (the procedure checks the scopes per entry type).
  scope: 'vacancies:read',
  otherScopes: ['articles:read', 'candidates:read'],
  errors: ['CURSOR_EXPIRED'],
} satisfies TMeta;

export const ZListChangesInput = z.object({
  after: z
    .string({ error: 'The :attribute must be a string.' })
    .max(200, { error: 'The selected :attribute is invalid.' })
    .optional()
    .describe(
      "A cursor from an earlier answer (`next_cursor` or an entry's `cursor`); absent: from the oldest retained entry",
    ),
  limit: zIntInRange(1, 1000)
    .optional()
    .transform((v) => v ?? 100)
    .describe('Entries per page, 1–1000 (default 100)'),
  types: z
    .preprocess(
      (value) => (Array.isArray(value) ? value : value === undefined ? undefined : [value]),
      z
        .array(z.enum(CHANGE_TYPES, { error: 'The selected :attribute is invalid.' }), {
          error: 'The :attribute must be an array.',
        })
        .max(3, {
          error: 'The :attribute must not have more than 3 items.',
        }),
    )
    .optional()
    .describe('`types[]=vacancy&types[]=article&types[]=candidate`; default: the types the key may read'),
});
export type TListChangesInput = z.infer<typeof ZListChangesInput>;

export const ZChangeEntry = z.object({
  cursor: z.string().describe('Resume after this entry with `after=<cursor>`'),
  event_id: z.string().describe('`evt_…`: the `webhook-id` of the same event'),
  type: z
    .string()
    .describe(
      '`vacancy.published`, `vacancy.updated`, `vacancy.unpublished`, `article.…`, `candidate.created`, `candidate.updated`, `candidate.erased`',
    ),
  object: z.enum(CHANGE_TYPES),
  id: z.number().int(),
  slug: z.string().nullable(),
  occurred_at: z.string(),
});
export const ZListChangesOutput = z.object({
  data: z.array(ZChangeEntry),
  next_cursor: z.string().describe("The last entry's cursor, or `after` again when there is none"),
  has_more: z.boolean(),
});
export type TListChangesOutput = z.infer<typeof ZListChangesOutput>;

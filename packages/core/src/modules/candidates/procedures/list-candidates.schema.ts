import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zPage } from '../../../lib/pagination.ts';
import { zPagination, zSearch, zSort, zSortDirection, zText } from '../../../lib/query.ts';
import { CANDIDATE_STATUSES } from '../candidate.entity.ts';
import { ZCandidateListItem } from '../candidate.dto.ts';

export const listCandidatesMeta = {
  openapi: {
    method: 'GET',
    path: '/candidates',
    tags: ['Candidates'],
    summary: "List a user's candidates",
    description:
      'Candidates associated with `user_id` (required; 422 when it is not a user of the tenant). `email` is an exact, case-insensitive match; ' +
      '`search` matches first name, last name and email. Text sorts are case-insensitive, nulls last, ties by id.',
    protect: true,
  },
  scope: 'candidates:read',
  expensiveRead: 'always',
} satisfies TMeta;

export const ZListCandidatesInput = z.object({
  ...zPagination,
  // A union head (not a preprocess) keeps the parameter required in the OpenAPI document.
  user_id: z
    .union([z.string(), z.number()], {
      error: (issue) =>
        issue.input === undefined ? 'The :attribute field is required.' : 'The :attribute must be an integer.',
    })
    .transform(String)
    .pipe(
      z
        .string()
        .regex(/^\d{1,15}$/, { error: 'The :attribute must be an integer.' })
        .transform(Number),
    )
    .describe('Required: only candidates associated with this user'),
  // Trimmed; an empty value is no filter.
  email: zText
    .transform((v) => v.trim() || undefined)
    .describe('Exact e-mail address (case-insensitive)')
    .optional(),
  search: zSearch.describe('Search in first name, last name and email').optional(),
  status: z
    .enum(CANDIDATE_STATUSES, { error: 'The selected :attribute is invalid.' })
    .describe('Candidate status')
    .optional(),
  sort: zSort(['created_at', 'first_name', 'last_name', 'email'])
    .optional()
    .transform((v) => v ?? 'created_at')
    .describe('Sort field (default created_at); ties are broken by id'),
  sort_direction: zSortDirection
    .optional()
    .transform((v) => v ?? 'desc')
    .describe('asc or desc (default desc)'),
});
export type TListCandidatesInput = z.infer<typeof ZListCandidatesInput>;

export const ZListCandidatesOutput = zPage(ZCandidateListItem);

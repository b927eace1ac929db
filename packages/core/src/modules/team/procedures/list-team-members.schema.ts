import { z } from 'zod';
import type { TMeta } from '../../operation-meta.ts';
import { zPage } from '../../../lib/pagination.ts';
import { zFlag, zPagination, zSearch, zSort, zSortDirection, zText } from '../../../lib/query.ts';
import { ZTeamMember } from '../team-member.dto.ts';

export const listTeamMembersMeta = {
  openapi: {
    method: 'GET',
    path: '/team',
    tags: ['Team'],
    summary: 'List employed team members',
    description:
      'Employed team members with their avatars. `search` matches given name, family name, full name, email and job title ' +
      '(case-insensitive substring). Text sorts are case-insensitive, nulls last, ties by id.',
    protect: true,
  },
  scope: 'team:read',
  expensiveRead: 'misses',
} satisfies TMeta;

export const ZListTeamMembersInput = z.object({
  ...zPagination,
  search: zSearch.describe('Search in name, email and job title').optional(),
  // Trimmed; an empty value is no filter (like an empty search).
  job_title: zText
    .transform((v) => v.trim() || undefined)
    .describe('Case-insensitive partial match on the job title')
    .optional(),
  role: zText
    .transform((v) => v.trim() || undefined)
    .describe('Role name, e.g. hr_manager (case-insensitive); an unknown role gives an empty list')
    .optional(),
  has_avatar: zFlag.describe('true keeps only members with an avatar; false is no filter'),
  sort: zSort(['given_name', 'family_name', 'job_title'])
    .optional()
    .transform((v) => v ?? 'given_name')
    .describe('Sort field (default given_name); ties are broken by id'),
  sort_direction: zSortDirection
    .optional()
    .transform((v) => v ?? 'asc')
    .describe('asc or desc (default asc)'),
  include_phone: zFlag.describe('Add phone (E.164, or null)'),
  include_role: zFlag.describe("Add role: the role's label (or null)"),
});
export type TListTeamMembersInput = z.infer<typeof ZListTeamMembersInput>;

export const ZListTeamMembersOutput = zPage(ZTeamMember);
export type TListTeamMembersOutput = z.infer<typeof ZListTeamMembersOutput>;

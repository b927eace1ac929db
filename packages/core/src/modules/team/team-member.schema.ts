import { z } from 'zod';
import { zFlag, zPathIntegerId, zPagination, zSearch, zSort, zSortDirection, zText } from '../../lib/query.ts';
import { ZTeamMember } from './team-member.dto.ts';
import { zPage } from '../../lib/pagination.ts';

/** What GET /team-members and GET /team-members/{id} take and answer (their procedures' input and output). */

export const ZGetTeamMemberInput = z.object({
  id: zPathIntegerId('The team member id'),
  include_phone: zFlag.describe('Add phone (E.164, or null)'),
  include_role: zFlag.describe("Add role: the role's label (or null)"),
});
export type TGetTeamMemberInput = z.infer<typeof ZGetTeamMemberInput>;

export const ZGetTeamMemberOutput = z.object({ data: ZTeamMember });
export type TGetTeamMemberOutput = z.infer<typeof ZGetTeamMemberOutput>;

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

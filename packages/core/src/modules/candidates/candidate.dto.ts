import { z } from 'zod';
import { iso } from '../../lib/dates.ts';
import { CANDIDATE_STATUSES, type TCandidateStatus } from './candidate.entity.ts';
import type { TCandidateProfileRow, TCandidateRow } from './candidates.repository.ts';
import { ZCandidateResumeProfile, toCandidateResumeProfileDto } from './candidate-resume-profile.dto.ts';

export const ZCandidateProfile = z.object({
  id: z.number().int(),
  slug: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  linkedin_url: z.string().nullable(),
  status: z.enum(CANDIDATE_STATUSES),
  needs_completion: z
    .boolean()
    .describe('Created from a resume without an email, or without a name read from it: to be completed by hand'),
  user_id: z
    .number()
    .int()
    .nullable()
    .describe('The user the candidate belongs to (the first associated one), as in the candidate list; null when none'),
  user_ids: z.array(z.number().int()).describe('(extension) Every user the candidate is associated with, ascending'),
  profile: ZCandidateResumeProfile,
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCandidateProfile = z.infer<typeof ZCandidateProfile>;

export const ZCandidateListItem = z.object({
  id: z.number().int(),
  slug: z.string(),
  user_id: z.number().int().describe('The user the list was requested for'),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: z.enum(CANDIDATE_STATUSES),
  profile: ZCandidateResumeProfile,
  created_at: z.string(),
});
export type TCandidateListItem = z.infer<typeof ZCandidateListItem>;

export function toCandidateListItemDto(row: TCandidateRow, userId: number): TCandidateListItem {
  return {
    id: row.id,
    slug: row.slug,
    user_id: userId,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    status: row.status as TCandidateStatus,
    profile: toCandidateResumeProfileDto(row.profile),
    created_at: iso(row.created_at),
  };
}

/** The complete profile, with every user the candidate is associated with (the first one is its `user_id`). */
export function toCandidateProfileDto(row: TCandidateProfileRow, userIds: number[]): TCandidateProfile {
  return {
    id: row.id,
    slug: row.slug,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    linkedin_url: row.linkedin_url,
    status: row.status as TCandidateStatus,
    needs_completion: row.needs_completion,
    user_id: userIds[0] ?? null,
    user_ids: userIds,
    profile: toCandidateResumeProfileDto(row.profile),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

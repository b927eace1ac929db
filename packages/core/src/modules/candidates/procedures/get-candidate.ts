import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { AppError } from '../../../lib/errors.ts';
import { iso } from '../../../lib/dates.ts';
import { MAX_DB_ID, parsePathId } from '../../../lib/query.ts';
import type { TCandidateStatus } from '../candidate.entity.ts';
import { ZGetCandidateInput, ZGetCandidateOutput, getCandidateMeta, type TCandidateProfile } from './get-candidate.schema.ts';


type TCandidateRow = {
  id: number;
  slug: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  linkedin_url: string | null;
  status: string;
  needs_completion: boolean;
  created_at: Date | string;
  updated_at: Date | string;
};

function toCandidateProfileDto(row: TCandidateRow, userIds: number[]): TCandidateProfile {
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
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export const getCandidateProcedure = apiKeyProcedure()
  .meta(getCandidateMeta)
  .input(ZGetCandidateInput)
  .output(ZGetCandidateOutput)
  .query(async ({ ctx, input }) => {
    const id = parsePathId(input.id);
    if (id === undefined || id > MAX_DB_ID) throw new AppError('NOT_FOUND');
    const row = await ctx.db
      .selectFrom('candidates')
      .select(['id', 'slug', 'first_name', 'last_name', 'email', 'phone', 'linkedin_url', 'status', 'needs_completion', 'created_at', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    // Only users of the candidate's tenant count (the join to users is tenant-scoped).
    const users = await ctx.db
      .selectFrom('candidate_users')
      .innerJoin('users', 'users.id', 'candidate_users.user_id')
      .select('candidate_users.user_id')
      .where('candidate_users.candidate_id', '=', row.id)
      .orderBy('candidate_users.user_id')
      .execute();
    return { data: toCandidateProfileDto(row, users.map((user) => user.user_id)) };
  });

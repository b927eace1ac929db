import { sql, type SqlBool } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import { findPageWithTotal } from '../../db/page-query.ts';
import type { TCandidateResumeProfile, TCandidateStatus } from './candidate.entity.ts';
import { isStorableId } from '../../lib/query.ts';
import { isStorableText } from '../../lib/validation.ts';

export type TCandidateSort = 'created_at' | 'first_name' | 'last_name' | 'email';

export type TCandidateFilters = {
  /** Only candidates associated with this user (a user of the tenant). */
  userId: number;
  email?: string;
  search?: string;
  status?: TCandidateStatus;
};

export type TCandidateRow = {
  id: number;
  slug: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  status: string;
  profile: TCandidateResumeProfile | null;
  created_at: Date;
};

const COLUMNS = [
  'c.id',
  'c.slug',
  'c.first_name',
  'c.last_name',
  'c.email',
  'c.phone',
  'c.status',
  'c.profile',
  'c.created_at',
] as const;

/** Whether the tenant has this user (the users table is tenant-scoped); an id no column holds names nobody. */
export async function isUserOfTenant(db: TDb, userId: number): Promise<boolean> {
  if (!isStorableId(userId)) return false;
  const row = await db.selectFrom('users').select('users.id').where('users.id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export type TCandidateProfileRow = TCandidateRow & {
  linkedin_url: string | null;
  needs_completion: boolean;
  updated_at: Date;
};

/** One candidate of the tenant with the users it is associated with, ascending; undefined when there is none. */
export async function findCandidateProfile(
  db: TDb,
  id: number,
): Promise<{ row: TCandidateProfileRow; userIds: number[] } | undefined> {
  if (!isStorableId(id)) return undefined;
  const row = await db
    .selectFrom('candidates')
    .select([
      'id',
      'slug',
      'first_name',
      'last_name',
      'email',
      'phone',
      'linkedin_url',
      'status',
      'needs_completion',
      'profile',
      'created_at',
      'updated_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  // Only users of the candidate's tenant count (the join to users is tenant-scoped).
  const users = await db
    .selectFrom('candidate_users')
    .innerJoin('users', 'users.id', 'candidate_users.user_id')
    .select('candidate_users.user_id')
    .where('candidate_users.candidate_id', '=', row.id)
    .orderBy('candidate_users.user_id')
    .execute();
  return { row: row as TCandidateProfileRow, userIds: users.map((user) => user.user_id) };
}

function filtered(db: TDb, filters: TCandidateFilters) {
  // candidate_users has no tenant column: the tenant-scoped candidates table (and the user check before) keeps it to the tenant.
  let query = db
    .selectFrom('candidates as c')
    .innerJoin('candidate_users as cu', (join) =>
      join.onRef('cu.candidate_id', '=', 'c.id').on('cu.user_id', '=', filters.userId),
    );
  // PostgreSQL text never holds NUL (it refuses it as a parameter), so a text filter with one matches nothing.
  if (Object.values(filters).some((value) => typeof value === 'string' && !isStorableText(value)))
    return query.where(sql<SqlBool>`false`);
  if (filters.email) query = query.where(sql<SqlBool>`lower(${sql.ref('c.email')}) = lower(${filters.email})`);
  if (filters.status) query = query.where('c.status', '=', filters.status);
  const term = filters.search;
  if (term) {
    const contains = (column: string) => sql<SqlBool>`strpos(lower(${sql.ref(column)}), lower(${term})) > 0`;
    query = query.where((eb) => eb.or([contains('c.first_name'), contains('c.last_name'), contains('c.email')]));
  }
  return query;
}

/** One page of a user's candidates and the total (one query unless the page is past the end). */
export async function findCandidatesPage(
  db: TDb,
  filters: TCandidateFilters,
  order: { sort: TCandidateSort; direction: 'asc' | 'desc' },
  page: { page: number; perPage: number },
): Promise<{ rows: TCandidateRow[]; total: number }> {
  const key = order.sort === 'created_at' ? sql.ref('c.created_at') : sql`lower(${sql.ref(`c.${order.sort}`)})`;
  const { rows, total } = await findPageWithTotal(
    filtered(db, filters),
    (query) =>
      query
        .select(COLUMNS)
        .orderBy(key, (ob) => (order.direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
        .orderBy('c.id', order.direction),
    page,
  );
  return { rows: rows as TCandidateRow[], total };
}

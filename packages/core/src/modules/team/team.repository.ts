import { sql, type Expression, type SqlBool } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import { findPageWithTotal } from '../../db/page-query.ts';
import type { TTranslations } from '../taxonomies/taxonomy.entity.ts';
import type { TAvatar } from './team-member.entity.ts';
import { isStorableId } from '../../lib/query.ts';
import { isStorableText } from '../../lib/validation.ts';

export type TTeamSort = 'given_name' | 'family_name' | 'job_title';

export type TTeamFilters = {
  search?: string;
  jobTitle?: string;
  role?: string;
  hasAvatar: boolean;
};

export type TTeamMemberRow = {
  id: number;
  given_name: string;
  family_name: string;
  email: string;
  job_title: string | null;
  phone: string | null;
  avatar: TAvatar | null;
  role_label: TTranslations | null;
};

/** Case-insensitive substring test; strpos needs no escaping of % and _ like LIKE would. */
function contains(value: Expression<string | null>, term: string): Expression<SqlBool> {
  return sql<SqlBool>`strpos(lower(${value}), lower(${term})) > 0`;
}

const FULL_NAME = sql<string>`${sql.ref('m.given_name')} || ' ' || ${sql.ref('m.family_name')}`;

/** Employed members (CONTRACT: only they are visible) with their role's label. */
function visibleMembers(db: TDb) {
  return db
    .selectFrom('team_members as m')
    .leftJoin('team_roles as r', 'r.id', 'm.role_id')
    .where('m.employed', '=', true);
}

const COLUMNS = [
  'm.id',
  'm.given_name',
  'm.family_name',
  'm.email',
  'm.job_title',
  'm.phone',
  'm.avatar',
  'r.label as role_label',
] as const;

function filtered(db: TDb, filters: TTeamFilters) {
  let query = visibleMembers(db);
  // PostgreSQL text never holds NUL (it refuses it as a parameter), so a text filter with one matches nothing.
  if (Object.values(filters).some((value) => typeof value === 'string' && !isStorableText(value)))
    return query.where(sql<SqlBool>`false`);
  const term = filters.search;
  if (term) {
    query = query.where((eb) =>
      eb.or([
        contains(eb.ref('m.given_name'), term),
        contains(eb.ref('m.family_name'), term),
        contains(FULL_NAME, term),
        contains(eb.ref('m.email'), term),
        contains(eb.ref('m.job_title'), term),
      ]),
    );
  }
  const jobTitle = filters.jobTitle;
  if (jobTitle) query = query.where((eb) => contains(eb.ref('m.job_title'), jobTitle));
  if (filters.role) query = query.where(sql<SqlBool>`lower(${sql.ref('r.name')}) = lower(${filters.role})`);
  if (filters.hasAvatar) {
    // An avatar object whose sizes are all null is no avatar.
    query = query.where(
      sql<SqlBool>`coalesce(${sql.ref('m.avatar')}->>'small', ${sql.ref('m.avatar')}->>'medium', ${sql.ref('m.avatar')}->>'large') is not null`,
    );
  }
  return query;
}

/** One page of employed members and the total (one query unless the page is past the end). */
export async function findTeamPage(
  db: TDb,
  filters: TTeamFilters,
  order: { sort: TTeamSort; direction: 'asc' | 'desc' },
  page: { page: number; perPage: number },
): Promise<{ rows: TTeamMemberRow[]; total: number }> {
  const { rows, total } = await findPageWithTotal(
    filtered(db, filters),
    (query) =>
      query
        .select(COLUMNS)
        .orderBy(sql`lower(${sql.ref(`m.${order.sort}`)})`, (ob) =>
          (order.direction === 'asc' ? ob.asc() : ob.desc()).nullsLast(),
        )
        .orderBy('m.id', order.direction),
    page,
  );
  return { rows: rows as TTeamMemberRow[], total };
}

export async function findTeamMember(db: TDb, id: number): Promise<TTeamMemberRow | undefined> {
  // An id no int4 column holds names nobody (and must not reach the database).
  if (!isStorableId(id)) return undefined;
  const row = await visibleMembers(db).select(COLUMNS).where('m.id', '=', id).executeTakeFirst();
  return row as TTeamMemberRow | undefined;
}

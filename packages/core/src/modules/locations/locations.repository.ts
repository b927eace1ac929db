import { sql, type Expression, type SqlBool } from 'kysely';
import type { TDb } from '../../db/kysely.ts';
import { findPageWithTotal } from '../../db/page-query.ts';
import { visibleVacancy } from '../vacancies/vacancy-visibility.ts';
import { isStorableText } from '../../lib/validation.ts';

export type TLocationSort = 'name' | 'locality' | 'created_at';

export type TLocationFilters = {
  countryCode?: string;
  search?: string;
};

/** A location's postal address (also what a vacancy's structured data shows). */
export type TPostalAddressRow = {
  address_line_1: string | null;
  address_line_2: string | null;
  address_line_3: string | null;
  locality: string | null;
  administrative_area: string | null;
  postal_code: string | null;
  country_code: string | null;
};

export type TLocationRow = TPostalAddressRow & {
  id: number;
  slug: string;
  name: string;
  /** Double precision; the driver's type admits strings, the DTO makes numbers. */
  latitude: number | string | null;
  longitude: number | string | null;
  created_at: Date;
};

const COLUMNS = [
  'l.id',
  'l.slug',
  'l.name',
  'l.address_line_1',
  'l.address_line_2',
  'l.address_line_3',
  'l.locality',
  'l.administrative_area',
  'l.postal_code',
  'l.country_code',
  'l.latitude',
  'l.longitude',
  'l.created_at',
] as const;

/** Case-insensitive substring test; strpos needs no escaping of % and _ like LIKE would. */
function contains(column: string, term: string): Expression<SqlBool> {
  return sql<SqlBool>`strpos(lower(${sql.ref(column)}), lower(${term})) > 0`;
}

function filtered(db: TDb, filters: TLocationFilters) {
  let query = db.selectFrom('locations as l');
  // PostgreSQL text never holds NUL (it refuses it as a parameter), so a text filter with one matches nothing.
  if (Object.values(filters).some((value) => typeof value === 'string' && !isStorableText(value)))
    return query.where(sql<SqlBool>`false`);
  if (filters.countryCode)
    query = query.where(sql<SqlBool>`upper(${sql.ref('l.country_code')}) = ${filters.countryCode}`);
  const term = filters.search;
  if (term) {
    const fields = [
      'l.name',
      'l.locality',
      'l.address_line_1',
      'l.address_line_2',
      'l.address_line_3',
      'l.postal_code',
    ];
    query = query.where((eb) => eb.or(fields.map((field) => contains(field, term))));
  }
  return query;
}

/** One page of a tenant's locations and the total (one query unless the page is past the end). */
export async function findLocationsPage(
  db: TDb,
  filters: TLocationFilters,
  order: { sort: TLocationSort; direction: 'asc' | 'desc' },
  page: { page: number; perPage: number },
): Promise<{ rows: TLocationRow[]; total: number }> {
  const key = order.sort === 'created_at' ? sql.ref('l.created_at') : sql`lower(${sql.ref(`l.${order.sort}`)})`;
  return findPageWithTotal(
    filtered(db, filters),
    (query) =>
      query
        .select(COLUMNS)
        .orderBy(key, (ob) => (order.direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
        .orderBy('l.id', order.direction),
    page,
  );
}

export async function findLocationBySlug(db: TDb, slug: string): Promise<TLocationRow | undefined> {
  return db.selectFrom('locations as l').select(COLUMNS).where('l.slug', '=', slug).executeTakeFirst();
}

/**
 * Visible vacancies per location (visibleVacancy: the partial indexes apply),
 * for a whole page in one grouped query. Locations without any are absent from the map.
 */
export async function countVisibleVacancies(db: TDb, locationIds: readonly number[]): Promise<Map<number, number>> {
  if (locationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('vacancies as v')
    .select(['v.location_id', sql<number>`count(*)::int`.as('count')])
    .where('v.location_id', 'in', [...locationIds])
    .where(visibleVacancy('v'))
    .groupBy('v.location_id')
    .execute();
  return new Map(rows.map((row) => [row.location_id as number, row.count]));
}

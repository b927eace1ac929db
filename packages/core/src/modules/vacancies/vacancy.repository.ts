import { sql, type Compilable, type ExpressionBuilder, type SqlBool, type Expression } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import { visibleVacancy } from './vacancy-visibility.ts';
import type { TDB, TDb } from '../../db/kysely.ts';
import { StatementTemplate } from '../../db/fast-path/index.ts';
import { int4ArrayFromBinary } from '../../db/binary-arrays.ts';
import type { TEmploymentType, TTranslations } from '../taxonomies/taxonomy.entity.ts';
import type { TImageSet, TWorkplaceType } from './vacancy.entity.ts';
import type { TPostalAddressRow } from '../locations/locations.repository.ts';
import { NO_VACANCY_FILTERS, VACANCY_ID_FILTERS, type TVacancyFilters } from './vacancy-filters.ts';
import { tagsWithDescendants } from '../taxonomies/taxonomies.repository.ts';
import { isStorableText } from '../../lib/validation.ts';
import { matchesSearch, relevanceScore, searchMatches } from './vacancy-search.ts';

/**
 * The vacancy read queries. Every query goes through the tenant-scoped Kysely of the request (`ctx.db`),
 * which adds `tenant_id = <tenant>` to each table reference; pivot tables carry no tenant and are only
 * reached through a scoped vacancy or taxonomy row.
 */

export const VACANCY_SORTS = ['published_at', 'title', 'created_at', 'relevance', 'distance'] as const;
export type TVacancySort = (typeof VACANCY_SORTS)[number];
export type TSortDirection = 'asc' | 'desc';

type TVacancyScope = ExpressionBuilder<TDB & { v: TDB['vacancies'] }, 'v'>;

/** A vacancy's link tables: the column naming the linked value, and the row field that lists their ids. */
const LINKS = {
  jobTypes: { table: 'vacancy_job_types', column: 'job_type_id', ids: 'job_type_ids' },
  experienceLevels: { table: 'vacancy_experience_levels', column: 'experience_level_id', ids: 'experience_level_ids' },
  educationLevels: { table: 'vacancy_education_levels', column: 'education_level_id', ids: 'education_level_ids' },
  tags: { table: 'vacancy_tags', column: 'tag_id', ids: 'tag_ids' },
} as const;
type TLink = (typeof LINKS)[keyof typeof LINKS];

/** The rows of one link table that belong to the vacancy `v` (alias `x`; no tenant column: reached through `v`). */
function linksOf(eb: TVacancyScope, link: TLink | { link: string }) {
  return eb
    .selectFrom(`${'table' in link ? link.table : link.link} as x` as 'vacancy_tags as x')
    .whereRef('x.vacancy_id', '=', 'v.id');
}

/** LIKE pattern for a substring: `%`, `_` and the escape character `\` match themselves. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `searchJoined`: the query joins the search's matches itself (ranking by relevance), so `q` is no condition here. */
function matchesFilters(
  db: TDb,
  eb: TVacancyScope,
  filters: TVacancyFilters,
  searchJoined = false,
): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [visibleVacancy('v')];
  if (filters.language !== undefined) conditions.push(eb('v.language', '=', filters.language));
  if (filters.workplaceTypes.length > 0) conditions.push(eb('v.workplace_type', 'in', filters.workplaceTypes));
  // near: at one of the locations in range (resolved first; none in range matches nothing).
  if (filters.near) {
    const ids = filters.nearLocations?.ids ?? [];
    conditions.push(ids.length > 0 ? eb('v.location_id', 'in', ids) : sql<SqlBool>`false`);
  }
  const requested = VACANCY_ID_FILTERS.filter((filter) => filters[filter.key].length > 0);
  // A filter on a column of the vacancy: any of the ids.
  for (const filter of requested) {
    if (!('link' in filter.match)) conditions.push(eb(sql.ref(`v.${filter.match.column}`), 'in', filters[filter.key]));
  }
  if (filters.search !== undefined && !isStorableText(filters.search)) {
    // Stored text never contains NUL (PostgreSQL refuses it), so such a search matches nothing.
    conditions.push(sql<SqlBool>`false`);
  } else if (filters.search !== undefined) {
    // lower() on both sides so the trigram indexes on lower(title) / lower(summary) apply; the database's
    // Unicode-aware lower() also folds non-ASCII letters.
    const pattern = sql<string>`lower(${containsPattern(filters.search)})`;
    conditions.push(
      eb.or([eb(eb.fn('lower', ['v.title']), 'like', pattern), eb(eb.fn('lower', ['v.summary']), 'like', pattern)]),
    );
  }
  // q: the vacancy's search document matches (a plan of only stop words is no filter).
  if (filters.searchPlan && !searchJoined) conditions.push(matchesSearch(sql.ref('v.id'), filters.searchPlan));
  // A filter through a link table: a linked row with any of the ids (tags: or with a tag below them).
  for (const filter of requested) {
    if (!('link' in filter.match)) continue;
    const ids = filters[filter.key];
    const values = 'withDescendants' in filter.match ? (filters.matchingTagIds ?? tagsWithDescendants(db, ids)) : ids;
    conditions.push(
      eb.exists(
        linksOf(eb, filter.match)
          .select('x.vacancy_id')
          .where(sql.ref(`x.${filter.match.column}`), 'in', values as never),
      ),
    );
  }
  return eb.and(conditions);
}

/** Visible vacancies of the tenant that match the filters (the facet counts start from them too). */
export function matchingVacancies(db: TDb, filters: TVacancyFilters) {
  return db.selectFrom('vacancies as v').where((eb) => matchesFilters(db, eb, filters));
}

/**
 * Matching vacancies ranked by relevance to `q`: joined to the search's matches `s`, whose title lexemes and exact
 * flags the score reads (every match is scored, cheaply: see `relevanceScore`). Without a plan (only stop words) all are equal.
 */
function rankedVacancies(db: TDb, filters: TVacancyFilters) {
  const plan = filters.searchPlan;
  if (!plan)
    return db
      .selectFrom('vacancies as v')
      .where((eb) => matchesFilters(db, eb, filters))
      .select(sql<number>`(0)::int`.as('sort_key'));
  // The matches are read once (CTE `s`) and the vacancies found by their ids (`= any` of the sorted ids walks the index
  // once): joined by a merge of the whole index instead, a query that finds 15 vacancies read all 85 000 index entries.
  return db
    .with(
      (cte) => cte('s').materialized(),
      () => db.selectFrom(searchMatches(plan, 'm')).selectAll(),
    )
    .selectFrom('vacancies as v')
    .innerJoin('s', 's.vacancy_id', 'v.id')
    .where(sql<SqlBool>`${sql.ref('v.id')} = any(array(select s.vacancy_id from s order by 1))`)
    .where((eb) => matchesFilters(db, eb as unknown as TVacancyScope, filters, true))
    .select(relevanceScore(sql.ref('s.title'), sql.ref('s.exact'), plan).as('sort_key'));
}

const BASE_COLUMNS = [
  'id',
  'slug',
  'title',
  'summary',
  'language',
  'accepts_applications',
  'views_count',
  'published_at',
  'ends_at',
  'created_at',
  'canonical_url',
  'compensation_min',
  'compensation_max',
  'compensation_currency',
  'compensation_period',
  'header_image',
  'location_id',
  'department_id',
  'company_location_id',
  'workplace_type',
  'remote_countries',
] as const;

/** The ids of what the vacancy `v` refers to through its link tables, each list ordered (index-only scans). */
function linkedIdColumns(eb: TVacancyScope) {
  return Object.values(LINKS).map((link) => {
    const ids = linksOf(eb, link)
      .select(sql.ref(`x.${link.column}`).as('id'))
      .orderBy(sql.ref(`x.${link.column}`));
    return sql<number[]>`array(${ids})`.as(link.ids);
  });
}

/**
 * Matching vacancies with the ids of what they refer to. The names behind those ids (locations, departments,
 * company locations, taxonomies) come from `findVacancyReferences`, cached per content version, so this query
 * stays a plain scan of `vacancies` that plans in a fraction of a millisecond.
 */
function vacancyRows(db: TDb, filters: TVacancyFilters) {
  return matchingVacancies(db, filters).select((eb) => [
    ...BASE_COLUMNS.map((column) => `v.${column}` as const),
    ...linkedIdColumns(eb),
  ]);
}

/** A vacancy as `vacancyRows` reads it: its own columns and the ids of what it refers to. */
export type TVacancyBaseRow = {
  id: number;
  slug: string;
  title: string;
  summary: string | null;
  language: string;
  accepts_applications: boolean;
  views_count: number;
  published_at: Date | string | null;
  ends_at: Date | string | null;
  created_at: Date | string;
  canonical_url: string | null;
  compensation_min: number | null;
  compensation_max: number | null;
  compensation_currency: string | null;
  compensation_period: string | null;
  header_image: TImageSet | null;
  location_id: number | null;
  department_id: number | null;
  company_location_id: number | null;
  workplace_type: TWorkplaceType;
  remote_countries: string[];
  job_type_ids: number[];
  experience_level_ids: number[];
  education_level_ids: number[];
  tag_ids: number[];
};

/** A row of a page: with `match_total`, the number of matching vacancies, when the page query counted them (relevance). */
export type TVacancyPageRow = TVacancyBaseRow & { match_total: number | null };

export type TVacancyBaseDetailRow = TVacancyBaseRow & {
  description: string | null;
  requirements: string | null;
  offer: string | null;
};

/** Where a deep page starts: a matching vacancy's sort key (as text, exact to the microsecond) and id. */
export type TPageAnchor = { key: string; id: number };

type TPageOrder = { sort: TVacancySort; direction: TSortDirection };

/**
 * The sort key of `v` (visible rows always have published_at, created_at and title, so no nulls to place); relevance
 * is the `sort_key` that `rankedVacancies` selects.
 */
function sortKeyOf(sort: Exclude<TVacancySort, 'relevance'>, filters: TVacancyFilters) {
  if (sort === 'distance') {
    const near = filters.nearLocations ?? { ids: [], km: [] };
    return sql<number>`(${near.km}::float8[])[array_position(${near.ids}::int4[], ${sql.ref('v.location_id')})]`;
  }
  return sort === 'title' ? sql`lower(${sql.ref('v.title')})` : sql.ref(`v.${sort}`);
}

/** An anchor's key as the sort key's type again. */
function anchorKey(sort: TVacancySort, key: string) {
  return sort === 'title' ? sql`${key}::text` : sql`${key}::timestamptz`;
}

/** The ids of a page by relevance: ties by publication (then id), in the same direction; cut by OFFSET alone. */
function relevancePageIds(
  db: TDb,
  filters: TVacancyFilters,
  direction: TSortDirection,
  page: { limit: number; offset: number },
) {
  return (
    rankedVacancies(db, filters)
      // Every match is ranked anyway: counting them in the same pass spares the total a second search.
      .select(['v.id', 'v.published_at as tie_key', sql<number>`(count(*) over ())::int`.as('match_total')])
      .orderBy('sort_key', direction)
      .orderBy('v.published_at', direction)
      .orderBy('v.id', direction)
      .limit(page.limit)
      .offset(page.offset)
  );
}

/** The ids of a page in a column's order: the plain orders match the partial indexes (scanned backwards for the other direction). */
function sortedPageIds(
  db: TDb,
  filters: TVacancyFilters,
  order: { sort: Exclude<TVacancySort, 'relevance'>; direction: TSortDirection },
  page: { limit: number; offset: number; from?: TPageAnchor },
) {
  const { sort, direction } = order;
  const sortKey = sortKeyOf(sort, filters);
  let cut = matchingVacancies(db, filters).select([
    'v.id',
    sortKey.as('sort_key'),
    sql`null::int`.as('tie_key'),
    sql<number | null>`null::int`.as('match_total'),
  ]);
  const from = page.from;
  if (from) {
    // A row comparison on (sort key, id) is an index range condition: the scan begins at the anchor.
    const comparison = direction === 'asc' ? sql.raw('>=') : sql.raw('<=');
    cut = cut.where(
      sql<SqlBool>`(${sortKey}, ${sql.ref('v.id')}) ${comparison} (${anchorKey(sort, from.key)}, ${from.id}::int)`,
    );
  }
  return cut.orderBy(sortKey, direction).orderBy('v.id', direction).limit(page.limit).offset(page.offset);
}

/**
 * One page of matching vacancies, ordered with `id` as the tie-break in the same direction. With `from`, the
 * page starts `offset` rows after that anchor instead of after the first row, so OFFSET walks at most the
 * distance between two anchors however deep the page is.
 */
export async function findVacancyPage(
  db: TDb,
  filters: TVacancyFilters,
  order: TPageOrder,
  page: { limit: number; offset: number; from?: TPageAnchor },
): Promise<TVacancyPageRow[]> {
  return (await vacancyPageQuery(db, filters, order, page).execute()) as TVacancyPageRow[];
}

/** The query of `findVacancyPage` (tests look at its plan). */
export function vacancyPageQuery(
  db: TDb,
  filters: TVacancyFilters,
  order: TPageOrder,
  page: { limit: number; offset: number; from?: TPageAnchor },
) {
  const { sort, direction } = order;
  // The page is cut first, on ids alone (an index-only scan of the sort's index where the filters allow), and
  // only its own rows are read with their link ids: rows skipped by OFFSET cost an index entry each.
  const pageIds = (
    sort === 'relevance'
      ? relevancePageIds(db, filters, direction, page)
      : sortedPageIds(db, filters, { sort, direction }, page)
  ).as('p');
  return db
    .selectFrom(pageIds)
    .innerJoin('vacancies as v', 'v.id', 'p.id')
    .select((eb) => [
      ...BASE_COLUMNS.map((column) => `v.${column}` as const),
      ...linkedIdColumns(eb as unknown as TVacancyScope),
      'p.match_total',
    ])
    .orderBy('p.sort_key', direction)
    .orderBy('p.tie_key', direction)
    .orderBy('p.id', direction);
}

/**
 * Every `spacing`-th matching vacancy in page order (the 1st, the spacing+1st, …): anchor `k` is where the row at
 * position `k × spacing` stands. One pass over the matching rows in index order, like counting them.
 */
export async function findVacancyPageAnchors(
  db: TDb,
  filters: TVacancyFilters,
  order: { sort: Exclude<TVacancySort, 'relevance'>; direction: TSortDirection },
  spacing: number,
): Promise<TPageAnchor[]> {
  const sortKey = sortKeyOf(order.sort, filters);
  const direction = sql.raw(order.direction);
  const ranked = matchingVacancies(db, filters)
    .select([
      'v.id',
      sortKey.as('sort_key'),
      sql<number>`row_number() over (order by ${sortKey} ${direction}, ${sql.ref('v.id')} ${direction})`.as('position'),
    ])
    .as('ranked');
  const rows = await db
    .selectFrom(ranked)
    // Only the anchors' keys are turned into text (for every row it would cost more than the pass itself).
    .select(['ranked.id', sql<string>`${sql.ref('ranked.sort_key')}::text`.as('key')])
    .where(sql<SqlBool>`(${sql.ref('ranked.position')} - 1) % ${spacing}::int = 0`)
    .orderBy('ranked.position')
    .execute();
  return rows.map((row) => ({ key: row.key, id: row.id }));
}

/**
 * The ids of the visible vacancies that match every filter but `q`, in ascending (published_at, id) order: what a
 * relevance page ranks its word matches within (`vacancy-ranking.ts`). One binary int4 array.
 */
export async function findCandidateOrder(db: TDb, filters: TVacancyFilters): Promise<Int32Array> {
  const { searchPlan: _ignored, ...withoutQ } = filters;
  const row = await matchingVacancies(db, { ...withoutQ, q: undefined })
    .select(
      sql<Uint8Array | null>`array_send(array_agg(${sql.ref('v.id')} order by ${sql.ref('v.published_at')}, ${sql.ref('v.id')}))`.as(
        'ids',
      ),
    )
    .executeTakeFirst();
  return row?.ids ? int4ArrayFromBinary(row.ids) : new Int32Array(0);
}

/** Visible vacancies by id, in the order of `ids` (a page ranked in memory). */
export async function findVacancyRowsByIds(db: TDb, ids: readonly number[]): Promise<TVacancyBaseRow[]> {
  if (ids.length === 0) return [];
  const rows = (await vacancyRows(db, NO_VACANCY_FILTERS)
    .where(sql<SqlBool>`${sql.ref('v.id')} = any(${[...ids]}::int4[])`)
    .execute()) as TVacancyBaseRow[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function countVacancies(db: TDb, filters: TVacancyFilters): Promise<number> {
  const row = await matchingVacancies(db, filters).select(sql<number>`count(*)::int`.as('total')).executeTakeFirst();
  return row?.total ?? 0;
}

/** Every vacancy detail miss runs it: built and compiled once, not per request. */
const visibleVacancyBySlug = new StatementTemplate<{ slug: string }, TVacancyBaseDetailRow>(
  (db, arg) =>
    vacancyRows(db, NO_VACANCY_FILTERS)
      .select(['v.description', 'v.requirements', 'v.offer'])
      .where(
        'v.slug',
        '=',
        arg((args) => args.slug),
      ) as unknown as Compilable<TVacancyBaseDetailRow>,
);

export async function findVisibleVacancyBySlug(
  db: TDb,
  tenantId: number,
  slug: string,
): Promise<TVacancyBaseDetailRow | undefined> {
  // No stored slug is longer or contains NUL (which PostgreSQL would refuse as a parameter).
  if (slug.length > 255 || !isStorableText(slug)) return undefined;
  return (await visibleVacancyBySlug.execute(db, { slug }, tenantId))[0];
}

export type TTaxonomyRef = { id: number; name: TTranslations; parent_id: number | null };

export type TLocationRef = { id: number; slug: string; name: string; city: string | null; country_code: string | null };
export type TDepartmentRef = { id: number; name: TTranslations | string };
export type TCompanyLocationRef = {
  id: number;
  name: string;
  city: string | null;
  country_code: string | null;
  company_name: string | null;
};

/** Everything a tenant's vacancies refer to by id, with the names an answer shows. */
export type TVacancyReferences = {
  locations: Map<number, TLocationRef>;
  departments: Map<number, TDepartmentRef>;
  companyLocations: Map<number, TCompanyLocationRef>;
  job_types: Map<number, TTaxonomyRef>;
  experience_levels: Map<number, TTaxonomyRef>;
  education_levels: Map<number, TTaxonomyRef>;
  tags: Map<number, TTaxonomyRef>;
};

/** The tenant's locations, departments, company locations and taxonomies, in one query. */
export async function findVacancyReferences(db: TDb): Promise<TVacancyReferences> {
  const taxonomy = (table: 'job_types' | 'experience_levels' | 'education_levels') =>
    jsonArrayFrom(
      db
        .selectFrom(`${table} as t` as 'job_types as t')
        .select(['t.id', sql<TTranslations>`${sql.ref('t.name')}`.as('name'), sql<null>`null`.as('parent_id')]),
    );
  const row = await db
    .selectFrom('tenants')
    .select([
      jsonArrayFrom(
        db.selectFrom('locations as l').select(['l.id', 'l.slug', 'l.name', 'l.locality as city', 'l.country_code']),
      ).as('locations'),
      jsonArrayFrom(
        db
          .selectFrom('departments as d')
          .select(['d.id', sql<TTranslations | string>`${sql.ref('d.name')}`.as('name')]),
      ).as('departments'),
      jsonArrayFrom(
        db
          .selectFrom('company_locations as cl')
          .leftJoin('companies as c', 'c.id', 'cl.company_id')
          .select(['cl.id', 'cl.name', 'cl.city', 'cl.country_code', 'c.name as company_name']),
      ).as('company_locations'),
      taxonomy('job_types').as('job_types'),
      taxonomy('experience_levels').as('experience_levels'),
      taxonomy('education_levels').as('education_levels'),
      jsonArrayFrom(
        db.selectFrom('tags as t').select(['t.id', sql<TTranslations>`${sql.ref('t.name')}`.as('name'), 't.parent_id']),
      ).as('tags'),
    ])
    .executeTakeFirst();
  const byId = <T extends { id: number }>(list: T[] | undefined) =>
    new Map((list ?? []).map((entry) => [entry.id, entry]));
  return {
    locations: byId(row?.locations as TLocationRef[] | undefined),
    departments: byId(row?.departments as TDepartmentRef[] | undefined),
    companyLocations: byId(row?.company_locations as TCompanyLocationRef[] | undefined),
    job_types: byId(row?.job_types as TTaxonomyRef[] | undefined),
    experience_levels: byId(row?.experience_levels as TTaxonomyRef[] | undefined),
    education_levels: byId(row?.education_levels as TTaxonomyRef[] | undefined),
    tags: byId(row?.tags as TTaxonomyRef[] | undefined),
  };
}

/** What a vacancy's JobPosting says beyond the vacancy row: its location's address, its job types' kinds of employment. */
export type TJobPostingFacts = {
  address: TPostalAddressRow | null;
  employmentTypes: TEmploymentType[];
  defaultCountry: string | null;
};

/** The address of the vacancy's location and the employment types of its job types (in job type order), in one query. */
export async function findJobPostingFacts(
  db: TDb,
  vacancy: Pick<TVacancyBaseRow, 'location_id' | 'job_type_ids'>,
): Promise<TJobPostingFacts> {
  const row = await db
    .selectFrom('tenants')
    .select([
      'tenants.default_country',
      jsonObjectFrom(
        db
          .selectFrom('locations as l')
          .select([
            'l.address_line_1',
            'l.address_line_2',
            'l.address_line_3',
            'l.locality',
            'l.administrative_area',
            'l.postal_code',
            'l.country_code',
          ])
          .where('l.id', '=', vacancy.location_id ?? 0),
      ).as('address'),
      jsonArrayFrom(
        db
          .selectFrom('job_types as t')
          .select('t.employment_type')
          .where('t.id', '=', sql<number>`any(${vacancy.job_type_ids}::int4[])`)
          .where('t.employment_type', 'is not', null)
          .orderBy('t.id'),
      ).as('job_types'),
    ])
    .executeTakeFirst();
  const types = (row?.job_types ?? []).map((type) => type.employment_type as TEmploymentType);
  return {
    address: (row?.address as TPostalAddressRow | null | undefined) ?? null,
    employmentTypes: [...new Set(types)],
    defaultCountry: row?.default_country ?? null,
  };
}

/** Distinct titles of the matching vacancies with their counts: count desc, then title, at most `limit`. */
export async function findTitleSuggestions(
  db: TDb,
  filters: TVacancyFilters,
  limit: number,
): Promise<{ text: string; count: number }[]> {
  return matchingVacancies(db, filters)
    .select(['v.title as text', sql<number>`count(*)::int`.as('count')])
    .groupBy('v.title')
    .orderBy('count', 'desc')
    .orderBy('v.title')
    .limit(limit)
    .execute();
}

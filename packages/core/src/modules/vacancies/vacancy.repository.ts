import { sql, type Compilable, type ExpressionBuilder, type SqlBool, type Expression } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import { visibleVacancy } from './vacancy-visibility.ts';
import type { TDB, TDb } from '../../db/kysely.ts';
import { StatementTemplate } from '../../db/fast-path/index.ts';
import type { TEmploymentType, TTranslations } from '../taxonomies/taxonomy.entity.ts';
import type { TImageSet, TWorkplaceType } from './vacancy.entity.ts';
import type { TPostalAddressRow } from '../locations/locations.repository.ts';
import { NO_VACANCY_FILTERS, VACANCY_ID_FILTERS, type TVacancyFilters, type TVacancyIdFilter } from './vacancy-filters.ts';
import { tagTreeBody, tagsWithDescendants } from '../taxonomies/taxonomies.repository.ts';
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
  return eb.selectFrom(`${'table' in link ? link.table : link.link} as x` as 'vacancy_tags as x').whereRef('x.vacancy_id', '=', 'v.id');
}

/** LIKE pattern for a substring: `%`, `_` and the escape character `\` match themselves. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `searchJoined`: the query joins the search's matches itself (ranking by relevance), so `q` is no condition here. */
function matchesFilters(db: TDb, eb: TVacancyScope, filters: TVacancyFilters, searchJoined = false): Expression<SqlBool> {
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
    conditions.push(eb.or([eb(eb.fn('lower', ['v.title']), 'like', pattern), eb(eb.fn('lower', ['v.summary']), 'like', pattern)]));
  }
  // q: the vacancy's search document matches (a plan of only stop words is no filter).
  if (filters.searchPlan && !searchJoined) conditions.push(matchesSearch(sql.ref('v.id'), filters.searchPlan));
  // A filter through a link table: a linked row with any of the ids (tags: or with a tag below them).
  for (const filter of requested) {
    if (!('link' in filter.match)) continue;
    const ids = filters[filter.key];
    const values = 'withDescendants' in filter.match ? (filters.matchingTagIds ?? tagsWithDescendants(db, ids)) : ids;
    conditions.push(eb.exists(linksOf(eb, filter.match).select('x.vacancy_id').where(sql.ref(`x.${filter.match.column}`), 'in', values as never)));
  }
  return eb.and(conditions);
}

/** Visible vacancies of the tenant that match the filters. */
function matchingVacancies(db: TDb, filters: TVacancyFilters) {
  return db.selectFrom('vacancies as v').where((eb) => matchesFilters(db, eb, filters));
}

/**
 * Matching vacancies ranked by relevance to `q`: joined to the search's matches `s`, whose title lexemes the score
 * reads (every match is scored, cheaply: see `relevanceScore`). Without a plan (only stop words) all are equal.
 */
function rankedVacancies(db: TDb, filters: TVacancyFilters) {
  const plan = filters.searchPlan;
  if (!plan) return db.selectFrom('vacancies as v').where((eb) => matchesFilters(db, eb, filters)).select(sql<number>`(0)::int`.as('sort_key'));
  return db
    .selectFrom('vacancies as v')
    .innerJoin(searchMatches(plan, 's'), (join) => join.onRef('s.vacancy_id', '=', 'v.id'))
    .where((eb) => matchesFilters(db, eb as unknown as TVacancyScope, filters, true))
    .select(relevanceScore(sql.ref('v.id'), sql.ref('s.title'), plan).as('sort_key'));
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
    const ids = linksOf(eb, link).select(sql.ref(`x.${link.column}`).as('id')).orderBy(sql.ref(`x.${link.column}`));
    return sql<number[]>`array(${ids})`.as(link.ids);
  });
}

/**
 * Matching vacancies with the ids of what they refer to. The names behind those ids (locations, departments,
 * company locations, taxonomies) come from `findVacancyReferences`, cached per content version, so this query
 * stays a plain scan of `vacancies` that plans in a fraction of a millisecond.
 */
function vacancyRows(db: TDb, filters: TVacancyFilters) {
  return matchingVacancies(db, filters).select((eb) => [...BASE_COLUMNS.map((column) => `v.${column}` as const), ...linkedIdColumns(eb)]);
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

export type TVacancyBaseDetailRow = TVacancyBaseRow & { description: string | null; requirements: string | null; offer: string | null };

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
function relevancePageIds(db: TDb, filters: TVacancyFilters, direction: TSortDirection, page: { limit: number; offset: number }) {
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
  let cut = matchingVacancies(db, filters).select(['v.id', sortKey.as('sort_key'), sql`null::int`.as('tie_key'), sql<number | null>`null::int`.as('match_total')]);
  const from = page.from;
  if (from) {
    // A row comparison on (sort key, id) is an index range condition: the scan begins at the anchor.
    const comparison = direction === 'asc' ? sql.raw('>=') : sql.raw('<=');
    cut = cut.where(sql<SqlBool>`(${sortKey}, ${sql.ref('v.id')}) ${comparison} (${anchorKey(sort, from.key)}, ${from.id}::int)`);
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
export function vacancyPageQuery(db: TDb, filters: TVacancyFilters, order: TPageOrder, page: { limit: number; offset: number; from?: TPageAnchor }) {
  const { sort, direction } = order;
  // The page is cut first, on ids alone (an index-only scan of the sort's index where the filters allow), and
  // only its own rows are read with their link ids: rows skipped by OFFSET cost an index entry each.
  const pageIds = (sort === 'relevance' ? relevancePageIds(db, filters, direction, page) : sortedPageIds(db, filters, { sort, direction }, page)).as('p');
  return db
    .selectFrom(pageIds)
    .innerJoin('vacancies as v', 'v.id', 'p.id')
    .select((eb) => [...BASE_COLUMNS.map((column) => `v.${column}` as const), ...linkedIdColumns(eb as unknown as TVacancyScope), 'p.match_total'])
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

export async function countVacancies(db: TDb, filters: TVacancyFilters): Promise<number> {
  const row = await matchingVacancies(db, filters).select(sql<number>`count(*)::int`.as('total')).executeTakeFirst();
  return row?.total ?? 0;
}

/** Every vacancy detail miss runs it: built and compiled once, not per request. */
const visibleVacancyBySlug = new StatementTemplate<{ slug: string }, TVacancyBaseDetailRow>(
  (db, arg) =>
    vacancyRows(db, NO_VACANCY_FILTERS)
      .select(['v.description', 'v.requirements', 'v.offer'])
      .where('v.slug', '=', arg((args) => args.slug)) as unknown as Compilable<TVacancyBaseDetailRow>,
);

export async function findVisibleVacancyBySlug(db: TDb, tenantId: number, slug: string): Promise<TVacancyBaseDetailRow | undefined> {
  // No stored slug is longer or contains NUL (which PostgreSQL would refuse as a parameter).
  if (slug.length > 255 || !isStorableText(slug)) return undefined;
  return (await visibleVacancyBySlug.execute(db, { slug }, tenantId))[0];
}

export type TTaxonomyRef = { id: number; name: TTranslations; parent_id: number | null };

export type TLocationRef = { id: number; slug: string; name: string; city: string | null; country_code: string | null };
export type TDepartmentRef = { id: number; name: TTranslations | string };
export type TCompanyLocationRef = { id: number; name: string; city: string | null; country_code: string | null; company_name: string | null };

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
    jsonArrayFrom(db.selectFrom(`${table} as t` as 'job_types as t').select(['t.id', sql<TTranslations>`${sql.ref('t.name')}`.as('name'), sql<null>`null`.as('parent_id')]));
  const row = await db
    .selectFrom('tenants')
    .select([
      jsonArrayFrom(db.selectFrom('locations as l').select(['l.id', 'l.slug', 'l.name', 'l.locality as city', 'l.country_code'])).as('locations'),
      jsonArrayFrom(db.selectFrom('departments as d').select(['d.id', sql<TTranslations | string>`${sql.ref('d.name')}`.as('name')])).as('departments'),
      jsonArrayFrom(
        db
          .selectFrom('company_locations as cl')
          .leftJoin('companies as c', 'c.id', 'cl.company_id')
          .select(['cl.id', 'cl.name', 'cl.city', 'cl.country_code', 'c.name as company_name']),
      ).as('company_locations'),
      taxonomy('job_types').as('job_types'),
      taxonomy('experience_levels').as('experience_levels'),
      taxonomy('education_levels').as('education_levels'),
      jsonArrayFrom(db.selectFrom('tags as t').select(['t.id', sql<TTranslations>`${sql.ref('t.name')}`.as('name'), 't.parent_id'])).as('tags'),
    ])
    .executeTakeFirst();
  const byId = <T extends { id: number }>(list: T[] | undefined) => new Map((list ?? []).map((entry) => [entry.id, entry]));
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
export type TJobPostingFacts = { address: TPostalAddressRow | null; employmentTypes: TEmploymentType[]; defaultCountry: string | null };

/** The address of the vacancy's location and the employment types of its job types (in job type order), in one query. */
export async function findJobPostingFacts(db: TDb, vacancy: Pick<TVacancyBaseRow, 'location_id' | 'job_type_ids'>): Promise<TJobPostingFacts> {
  const row = await db
    .selectFrom('tenants')
    .select([
      'tenants.default_country',
      jsonObjectFrom(
        db
          .selectFrom('locations as l')
          .select(['l.address_line_1', 'l.address_line_2', 'l.address_line_3', 'l.locality', 'l.administrative_area', 'l.postal_code', 'l.country_code'])
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

export type TFacetGroup = 'locations' | 'departments' | 'job_types' | 'experience_levels' | 'education_levels' | 'tags' | 'languages' | 'workplace_types' | 'total';

export type TFacetCountRow = {
  facet: TFacetGroup;
  id: number | null;
  code: string | null;
  count: number;
  /** A location's plain name, or the translations of a taxonomy entry. */
  name: string | TTranslations | null;
  city: string | null;
  country_code: string | null;
  parent_id: number | null;
};

function facetQuery(db: TDb, filters: TVacancyFilters) {
  return db
    // Every tag with each tag at or above it: the counts of a tag include the vacancies of the tags below it.
    .withRecursive('tag_tree(id, root_id)', (qc) => tagTreeBody(qc))
    .with(
      (cte) => cte('m').materialized(),
      // No ORDER BY: it would turn the heap scan into a full primary-key scan; the planner sorts the ids
      // itself where a merge join along a pivot's (vacancy_id, …) key pays off.
      () => matchingVacancies(db, filters).select(['v.id', 'v.location_id', 'v.department_id', 'v.language', 'v.workplace_type']),
    );
}

const facet = (group: TFacetGroup) => sql<TFacetGroup>`${sql.lit(group)}::text`.as('facet');
const nullInt = <TAlias extends 'id' | 'parent_id'>(alias: TAlias) => sql<number | null>`null::int`.as(alias);
const nullText = <TAlias extends 'code' | 'city' | 'country_code'>(alias: TAlias) => sql<string | null>`null::text`.as(alias);
const translations = (ref: string) => sql<string | TTranslations | null>`${sql.ref(ref)}`.as('name');
const nullJson = () => sql<null>`null::jsonb`.as('name');
const countAll = sql<number>`count(*)::int`.as('count');

/** What the facet arms select from: the tenant's tables and the matching vacancies `m`. */
type TFacetScope = TDB & { m: { id: number; location_id: number | null; department_id: number | null; language: string; workplace_type: string } };

/** The flat taxonomies a vacancy links to (job types, experience and education levels): one facet arm each. */
const TAXONOMY_FACETS = VACANCY_ID_FILTERS.filter(
  (filter): filter is Extract<TVacancyIdFilter, { match: { link: string } }> => 'link' in filter.match && !('withDescendants' in filter.match),
);

/** A taxonomy's counts over the matching vacancies `m`, joined to its labels (the link table and table the filter names). */
function taxonomyFacetArm(eb: ExpressionBuilder<TFacetScope, never>, filter: (typeof TAXONOMY_FACETS)[number]) {
  // The names differ per taxonomy; the shape is one (typed as the job types').
  const { link, column } = filter.match;
  return eb
    .selectFrom(
      eb
        .selectFrom('m')
        .innerJoin(`${link} as x` as 'vacancy_job_types as x', 'x.vacancy_id', 'm.id')
        .select([`x.${column} as id` as 'x.job_type_id as id', countAll])
        .groupBy(`x.${column}` as 'x.job_type_id')
        .as('g'),
    )
    .innerJoin(`${filter.table} as t` as 'job_types as t', 't.id', 'g.id')
    .select([facet(filter.table), 't.id', nullText('code'), 'g.count', translations('t.name'), nullText('city'), nullText('country_code'), nullInt('parent_id')]);
}

/**
 * Facet counts over the vacancies matching every filter, in one round trip: the matching vacancies are
 * materialised once (CTE `m`), each group is counted and only then joined to its labels, and the groups are
 * UNION ALL-ed, plus one `total` row.
 *
 * Tags count distinct vacancies per tag including every tag below it. Instead of a DISTINCT over
 * (vacancy, ancestor) pairs, vacancies are first grouped by their set of tags — far fewer sets than
 * vacancies — and each set's ancestors are counted with the number of vacancies that carry it.
 */
export async function countFacets(db: TDb, filters: TVacancyFilters): Promise<TFacetCountRow[]> {
  const rows = await facetQuery(db, filters)
    .selectFrom((eb) =>
      eb.selectFrom('m').select(['m.location_id as id', countAll]).where('m.location_id', 'is not', null).groupBy('m.location_id').as('g'),
    )
    .innerJoin('locations as l', 'l.id', 'g.id')
    .select([
      facet('locations'),
      sql<number | null>`${sql.ref('l.id')}`.as('id'),
      nullText('code'),
      'g.count',
      sql<string | TTranslations | null>`to_jsonb(${sql.ref('l.name')})`.as('name'),
      'l.locality as city',
      'l.country_code',
      nullInt('parent_id'),
    ])
    .unionAll((eb) =>
      eb
        .selectFrom(
          eb.selectFrom('m').select(['m.department_id as id', countAll]).where('m.department_id', 'is not', null).groupBy('m.department_id').as('g'),
        )
        .innerJoin('departments as d', 'd.id', 'g.id')
        .select([facet('departments'), 'd.id', nullText('code'), 'g.count', translations('d.name'), nullText('city'), nullText('country_code'), nullInt('parent_id')]),
    )
    .unionAll((eb) => TAXONOMY_FACETS.map((filter) => taxonomyFacetArm(eb, filter)).reduce((arms, arm) => arms.unionAll(arm)))
    .unionAll((eb) => {
      // Each distinct tag set of the matching vacancies, with the number of vacancies that carry it.
      const tagSets = eb
        .selectFrom(
          eb
            .selectFrom('m')
            .innerJoin('vacancy_tags as x', 'x.vacancy_id', 'm.id')
            .select(['x.vacancy_id', sql<number[]>`array_agg(${sql.ref('x.tag_id')} order by ${sql.ref('x.tag_id')})`.as('tag_set')])
            .groupBy('x.vacancy_id')
            .as('per_vacancy'),
        )
        .select(['per_vacancy.tag_set', sql<number>`count(*)`.as('vacancies')])
        .groupBy('per_vacancy.tag_set')
        .as('s');
      const setTags = eb.selectFrom(tagSets).select(['s.tag_set', 's.vacancies', sql<number>`unnest(${sql.ref('s.tag_set')})`.as('tag_id')]).as('st');
      // Each ancestor once per set, however many of the set's tags lie below it.
      const setAncestors = eb
        .selectFrom(setTags)
        .innerJoin('tag_tree as tc', 'tc.id', 'st.tag_id')
        .select(['st.tag_set', 'st.vacancies', 'tc.root_id as ancestor_id'])
        .distinct()
        .as('sa');
      return eb
        .selectFrom(
          eb
            .selectFrom(setAncestors)
            .select(['sa.ancestor_id as id', sql<number>`sum(${sql.ref('sa.vacancies')})::int`.as('count')])
            .groupBy('sa.ancestor_id')
            .as('g'),
        )
        .innerJoin('tags as t', 't.id', 'g.id')
        .select([facet('tags'), 't.id', nullText('code'), 'g.count', translations('t.name'), nullText('city'), nullText('country_code'), 't.parent_id']);
    })
    .unionAll((eb) =>
      eb
        .selectFrom('m')
        .select([facet('languages'), nullInt('id'), 'm.language as code', countAll, nullJson(), nullText('city'), nullText('country_code'), nullInt('parent_id')])
        .groupBy('m.language'),
    )
    .unionAll((eb) =>
      eb
        .selectFrom('m')
        .select([facet('workplace_types'), nullInt('id'), 'm.workplace_type as code', countAll, nullJson(), nullText('city'), nullText('country_code'), nullInt('parent_id')])
        .groupBy('m.workplace_type'),
    )
    .unionAll((eb) =>
      eb.selectFrom('m').select([facet('total'), nullInt('id'), nullText('code'), countAll, nullJson(), nullText('city'), nullText('country_code'), nullInt('parent_id')]),
    )
    .execute();
  return rows as TFacetCountRow[];
}

/** Distinct titles of the matching vacancies with their counts: count desc, then title, at most `limit`. */
export async function findTitleSuggestions(db: TDb, filters: TVacancyFilters, limit: number): Promise<{ text: string; count: number }[]> {
  return matchingVacancies(db, filters)
    .select(['v.title as text', sql<number>`count(*)::int`.as('count')])
    .groupBy('v.title')
    .orderBy('count', 'desc')
    .orderBy('v.title')
    .limit(limit)
    .execute();
}
